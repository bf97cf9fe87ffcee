import type { Budgets, ProgressReport } from "../../schemas/trace.js";
import { codeSpan, tableCell } from "../markdown.js";
import { findingRole } from "./verdict.js";

const BUDGET_LABELS: [keyof Budgets, string][] = [
  ["model_calls", "model calls"],
  ["tool_calls", "tool calls"],
  ["executed_tool_calls", "executed tool calls"],
  ["max_tool_calls_per_turn", "most tool calls in one turn"],
  ["max_tool_calls_per_model_call", "most tool calls in one model call"],
  ["turns", "turns"],
  ["input_tokens", "billed input tokens"],
  ["cached_input_tokens", "of them cached"],
  ["output_tokens", "output tokens"],
  ["peak_context_tokens", "peak context (tokens)"],
  ["cost_usd", "cost (USD)"],
];

/** What each finding is, in words a maintainer reads at a glance. */
const KIND_WORDS: Record<ProgressReport["findings"][number]["kind"], string> = {
  "identical-streak": "the same call again and again",
  "short-cycle": "a short cycle of calls",
  "revert-cycle": "edit → run → restore, again and again",
  "no-new-information": "nothing new learned",
  "no-milestone": "no progress (no milestone)",
  budget: "over a budget",
};

/** What the verdict rests on and what is only evidence, said once for both renderers. */
function verdict(report: ProgressReport): string {
  if (report.stalled) {
    // A report read back from an artifact is agent-influenced: its list may lack the finding.
    const stall = report.findings.find((f) => findingRole(f.kind) === "stall");
    return stall
      ? `busy without progress: no milestone in steps ${stall.from_step}–${stall.to_step}`
      : "busy without progress";
  }
  const evidence = report.findings.filter((f) => findingRole(f.kind) === "evidence").length;
  if (evidence > 0)
    return `not stalled (no long stretch without a milestone); ${evidence === 1 ? "a loop" : `${evidence} loops`} below, shown as evidence`;
  return report.findings.length > 0 ? "not stalled; over a budget" : "no stall found";
}

/** A finding's place in the report: the one the verdict rests on, or evidence beside it. */
const ROLE_WORDS = { stall: "the stall", evidence: "evidence", budget: "budget" } as const;

/** The report as plain text for a terminal (`agate trace`). */
export function renderProgressText(report: ProgressReport, source: string): string {
  const c = report.counters;
  const lines = [
    `${source}: ${report.format} trace, ${report.steps} tool calls in ${report.records} records${report.exit_status ? `, ended ${report.exit_status}` : ""}`,
    `verdict: ${verdict(report)}`,
    `new information: ${c.new_information} calls; none: ${c.no_new_information} (longest run ${c.longest_without_new_information})`,
    `milestones: ${c.milestones}; calls since the last: ${c.steps_since_last_milestone} (longest stretch ${c.longest_without_milestone}); restores of earlier work: ${c.reverts}`,
  ];
  if (report.findings.length > 0) {
    lines.push("flagged:");
    for (const f of report.findings) {
      lines.push(
        `  steps ${f.from_step}-${f.to_step} (${f.at}), ${KIND_WORDS[f.kind]} [${f.kind}, ${ROLE_WORDS[findingRole(f.kind)]}]: ${f.why}`,
      );
      if (f.excerpt) lines.push(`    what repeated: ${f.excerpt.replace(/\s+/g, " ")}`);
    }
    if (report.findings_not_listed > 0) lines.push(`  … and ${report.findings_not_listed} more`);
  }
  if (report.infrastructure_failure_count > 0) {
    lines.push(`infrastructure failures (not stalls): ${report.infrastructure_failure_count}`);
    for (const f of report.infrastructure_failures.slice(0, 5)) {
      lines.push(`  ${f.kind} at ${f.at}: ${f.message.replace(/\s+/g, " ").slice(0, 160)}`);
    }
  }
  lines.push("budgets:");
  for (const [key, label] of BUDGET_LABELS) {
    const value = report.budgets[key];
    if (value !== null) lines.push(`  ${label}: ${value}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The report as a Markdown section for a job summary. Everything from the trace (commands,
 * paths, messages) is the agent's text: it goes into code spans only.
 */
export function renderProgressMarkdown(report: ProgressReport, source: string): string {
  const c = report.counters;
  const out = [
    `### Agent trace ${codeSpan(source, 200)}: ${verdict(report)}`,
    "",
    `${report.format}, ${report.steps} tool calls${report.exit_status ? `, ended ${codeSpan(report.exit_status, 60)}` : ""}. New information in ${c.new_information} calls, none in ${c.no_new_information}; ${c.milestones} milestones, ${c.steps_since_last_milestone} calls since the last; ${c.reverts} restores of earlier work. The verdict rests on calls without a milestone alone; loops are evidence. A stall is reported to the evaluator; it never decides the gate by itself.`,
    "",
  ];
  if (report.findings.length > 0) {
    out.push("| steps | what | counts as | why | what repeated |", "|---|---|---|---|---|");
    for (const f of report.findings) {
      out.push(
        `| ${f.from_step}–${f.to_step} (${tableCell(codeSpan(f.at, 40))}) | ${KIND_WORDS[f.kind]} | ${ROLE_WORDS[findingRole(f.kind)]} | ${tableCell(codeSpan(f.why, 300))} | ${f.excerpt ? tableCell(codeSpan(f.excerpt, 160)) : ""} |`,
      );
    }
    if (report.findings_not_listed > 0) out.push("", `… and ${report.findings_not_listed} more.`);
    out.push("");
  }
  if (report.infrastructure_failure_count > 0) {
    out.push(
      `Infrastructure failures (not counted as stalls): ${report.infrastructure_failure_count}, first ${codeSpan(report.infrastructure_failures[0]?.message ?? "", 200)}.`,
      "",
    );
  }
  const budgets = BUDGET_LABELS.filter(([key]) => report.budgets[key] !== null)
    .map(([key, label]) => `${label} ${report.budgets[key]}`)
    .join(" · ");
  out.push(`Budgets: ${budgets}.`, "");
  return out.join("\n");
}
