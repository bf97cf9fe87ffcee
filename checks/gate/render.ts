import type { CommandRecord } from "../../schemas/command-record.js";
import type { GateDecision, GateFacts } from "../../schemas/gate.js";
import { commandPassed } from "../command-results.js";
import {
  tableCell as cell,
  codeSpan,
  fenced,
  GITHUB_TEXT_LIMIT,
  shortSha as short,
} from "../markdown.js";
import { overrideCommand } from "./listing.js";
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
  const believed = facts.evidence.filter((e) => e.record && !e.refused && !e.waiting).at(-1);
  if (believed?.record) {
    lines.push(...commandsSection(believed.record, tailChars, believed.run_url), "");
  }
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
