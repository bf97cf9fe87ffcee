import type { CommandRecord } from "../../schemas/command-record.js";
import type { GateDecision, GateFacts } from "../../schemas/gate.js";
import { commandPassed } from "../command-results.js";
import { tableCell as cell, fenced, GITHUB_TEXT_LIMIT, shortSha as short } from "../markdown.js";
import { requirementsTable } from "./requirements-table.js";

const STATE_WORDS: Record<GateDecision["state"], string> = {
  accepted: "Accepted: this pull request may merge.",
  rejected: "Rejected: it may not merge until what failed is fixed.",
  pending: "Waiting: the evidence is not complete yet.",
  escalated: "Escalated: a maintainer must approve this exact commit.",
  stalled: "Stalled: attempts stopped making progress.",
  capped: "Capped: a budget is spent.",
  blocked: "Blocked: something outside this pull request must change first.",
  not_gated: "Not gated.",
};

function commandsSection(record: CommandRecord, tailChars: number): string[] {
  const lines = [
    "### Commands",
    "",
    `Tested \`${short(record.tested.sha)}\` (tree \`${short(record.tested.tree_sha)}\`)${record.workflow ? ` in workflow run ${record.workflow.run_id}, attempt ${record.workflow.run_attempt}, job ${record.workflow.job}` : ""}.`,
    "",
    "| command | exit | duration |",
    "| --- | --- | --- |",
    ...record.commands.map(
      (c) =>
        `| ${cell(c.name)} | ${c.timed_out ? "timed out" : c.signal ? c.signal : c.exit_code} | ${(c.duration_ms / 1000).toFixed(1)}s |`,
    ),
  ];
  for (const c of record.commands.filter((c) => !commandPassed(c))) {
    lines.push(
      "",
      `<details><summary>${cell(c.name)}: last output</summary>`,
      "",
      fenced(c.output.tail.slice(-tailChars)),
      "",
      "</details>",
    );
  }
  return lines;
}

/**
 * The `agate` check run's summary, the main user interface: the end state in plain words first,
 * then the requirements, the commands, the next work items, refused evidence and history.
 */
export function renderGateSummary(
  decision: GateDecision,
  facts: GateFacts,
  tailChars = 6_000,
): string {
  const lines = [`**${STATE_WORDS[decision.state]}** ${decision.title}.`, ""];
  if (decision.state === "not_gated") {
    return `${lines.join("\n")}\n`;
  }
  lines.push(...requirementsTable(decision.requirements));
  const record = facts.evidence.filter((e) => e.record && !e.refused).at(-1)?.record;
  if (record) lines.push(...commandsSection(record, tailChars), "");
  if (decision.missing.length > 0) {
    lines.push("### Next work items", "", ...decision.missing.map((m) => `- [ ] ${m}`), "");
  }
  if (decision.reasons.length > 0) {
    lines.push("### Not believed", "", ...decision.reasons.map((r) => `- ${r}`), "");
  }
  // One row per earlier head: its last decision, and when a newer head made it stale.
  const lastByHead = new Map<string, GateFacts["prior_records"][number]>();
  for (const r of facts.prior_records)
    if (r.head_sha !== facts.pull_request.head_sha) lastByHead.set(r.head_sha, r);
  const history = [...lastByHead.values()];
  lines.push(
    `Attempts so far: ${history.length + 1} head${history.length === 0 ? "" : "s"} graded.`,
    "",
  );
  if (history.length > 0) {
    lines.push(
      "### History",
      "",
      "| head | result | decided | superseded |",
      "| --- | --- | --- | --- |",
    );
    for (const r of history.slice(-20)) {
      lines.push(
        `| \`${short(r.head_sha)}\` | ${r.state} | ${r.decided_at} | ${r.stale ? `stale since ${r.stale.at}, by \`${short(r.stale.superseded_by)}\`` : "—"} |`,
      );
    }
    lines.push("");
  }
  const text = `${lines.join("\n")}\n`;
  return text.length <= GITHUB_TEXT_LIMIT || tailChars < 200
    ? text.slice(0, GITHUB_TEXT_LIMIT)
    : renderGateSummary(decision, facts, Math.floor(tailChars / 4));
}
