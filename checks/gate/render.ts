import type { CommandRecord } from "../../schemas/command-record.js";
import type { AttemptFact, GateDecision, GateFacts } from "../../schemas/gate.js";
import { commandPassed } from "../command-results.js";
import {
  tableCell as cell,
  codeSpan,
  fenced,
  GITHUB_TEXT_LIMIT,
  shortSha as short,
} from "../markdown.js";
import { progressOf } from "./decide.js";
import { overrideCommand } from "./listing.js";
import type { Stall } from "./progress.js";
import { requirementsTable } from "./requirements-table.js";
import { evidenceSourceChanges } from "./workflow-uses.js";

/** Links go only to GitHub's own pages: a run URL comes from GitHub's API, never from a record. */
const isGitHubUrl = (url: string) => /^https?:\/\/[^/\s]+\/[^\s()]*$/.test(url);

/** Only a maintainer's explicit acceptance can get this commit through. */
function needsMaintainer(facts: GateFacts): boolean {
  if (!facts.changed_files_listing.complete) return true;
  return (
    facts.evidence_source !== null &&
    evidenceSourceChanges(facts.changed_files, facts.evidence_source).length > 0
  );
}

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

function commandsSection(
  record: CommandRecord,
  tailChars: number,
  runUrl: string | null,
): string[] {
  const run = record.workflow
    ? `workflow run ${record.workflow.run_id}, attempt ${record.workflow.run_attempt}`
    : null;
  const lines = [
    "### Commands",
    "",
    `Tested \`${short(record.tested.sha)}\` (tree \`${short(record.tested.tree_sha)}\`)${run ? ` in ${runUrl && isGitHubUrl(runUrl) ? `[${run}](${runUrl})` : run}` : ""}.`,
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

/** A head whose tree failed before: the stored failure, shown again, not graded again. */
function replaySection(replay: AttemptFact, tailChars: number): string[] {
  const lines = [
    "### Work tree unchanged since the failure",
    "",
    `This head's tree \`${short(replay.head_tree_sha ?? "")}\` is the one that failed at \`${short(replay.head_sha)}\` on the same base under the same config; it is not graded again. Change the code, not only the commit, to be graded afresh.`,
  ];
  for (const f of replay.failures) {
    lines.push(
      "",
      `<details><summary>${cell(f.name)}: ${f.timed_out ? "timed out" : `exit ${f.exit_code ?? "none"}`}, last output at ${short(replay.head_sha)}</summary>`,
      "",
      fenced(f.tail.slice(-tailChars)),
      "",
      "</details>",
    );
  }
  return lines;
}

/** A stalled pull request: the repeated failure, the attempts that repeated it, what was achieved. */
function stallSection(stall: Stall): string[] {
  const last = stall.attempts.at(-1);
  const lines = [
    "### No progress",
    "",
    "| attempt | tree | failing commands (normalised output digest) |",
    "| --- | --- | --- |",
    ...stall.attempts.map(
      (a) =>
        `| \`${short(a.head_sha)}\` | \`${short(a.head_tree_sha ?? "")}\` | ${cell(a.failures.map((f) => `${f.name} (${f.output_digest.slice(0, 12)})`).join(", "))} |`,
    ),
    "",
    stall.achieved.length > 0
      ? "What the pull request achieved before it stalled:"
      : "Nothing the attempts record improved: no command that failed passes now, and no evaluator item was closed.",
    ...stall.achieved.map((item) => `- ${item}`),
  ];
  if (last && last.failures.length > 0) {
    lines.push("", `The repeated failure: ${last.failures.map((f) => cell(f.name)).join(", ")}.`);
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
  const progress = progressOf(facts);
  const believed = facts.evidence.filter((e) => e.record && !e.refused && !e.waiting).at(-1);
  if (progress.replay) {
    lines.push(...replaySection(progress.replay, tailChars), "");
  } else if (believed?.record) {
    lines.push(...commandsSection(believed.record, tailChars, believed.run_url), "");
  }
  if (progress.stall) lines.push(...stallSection(progress.stall), "");
  if (facts.override && decision.state === "accepted") {
    lines.push(
      "### Maintainer override",
      "",
      `${codeSpan(facts.override.by, 60)} accepted this exact commit at ${facts.override.at}: ${codeSpan(facts.override.reason)}. Any push voids it.`,
      "",
    );
  } else if (needsMaintainer(facts)) {
    lines.push(
      "### A maintainer can accept this commit",
      "",
      "agate cannot believe evidence for this commit on its own (the change touches the evidence workflow or what it uses, or is too large for GitHub to list). A person with write access who is not the author can accept this exact commit with a comment:",
      "",
      "```text",
      overrideCommand(facts.pull_request.head_sha),
      "```",
      "",
    );
  }
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
  const budget =
    facts.config.status === "ok" ? facts.config.config.budgets.graded_attempts_per_pr : null;
  lines.push(
    `Graded attempts: ${progress.graded}${budget === null ? "" : ` of ${budget} (budgets.graded_attempts_per_pr)`}; a head counts once a command record of it is believed, or when its unchanged tree replays an earlier failure.`,
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
