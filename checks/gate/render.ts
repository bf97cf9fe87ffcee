import type { CommandRecord } from "../../schemas/command-record.js";
import type {
  AttemptFact,
  CommandEvidence,
  EvidenceRunFact,
  GateDecision,
  GateFacts,
  LinkedEntryFact,
} from "../../schemas/gate.js";
import { commandPassed } from "../command-results.js";
import { AGATE_CLI } from "../handoff/verify.js";
import {
  tableCell as cell,
  codeSpan,
  counted,
  durationText,
  GITHUB_TEXT_LIMIT,
  outcomeText,
  outputDetails,
  shortSha as short,
} from "../markdown.js";
import { mergeQueueAdvice } from "./base-requirement.js";
import { progressOf } from "./decide.js";
import { entryName } from "./entries.js";
import { believedEvidence } from "./evidence.js";
import { GLOSSARY_LINK } from "./glossary.js";
import { isolationLine } from "./isolation.js";
import { overrideCommand } from "./listing.js";
import type { Stall } from "./progress.js";
import { configProblems, requirementsTable } from "./requirements-table.js";
import { traceSection } from "./trace.js";
import { evidenceSourceChanges } from "./workflow-uses.js";

/**
 * Links go only to GitHub's own pages: a run or job URL comes from GitHub's API (the evidence
 * run fact), never from a record, which the pull request's code wrote and could point anywhere.
 * The shape check keeps a URL from ending the Markdown link early.
 */
const isGitHubUrl = (url: string | null | undefined): url is string =>
  typeof url === "string" && /^https?:\/\/[^/\s]+\/[^\s()]*$/.test(url);

const link = (text: string, url: string | null | undefined) =>
  isGitHubUrl(url) ? `[${text}](${url})` : text;

/** Only a maintainer's explicit acceptance can get this commit through. */
function needsMaintainer(facts: GateFacts): boolean {
  if (!facts.changed_files_listing.complete) return true;
  return (
    facts.evidence_source !== null &&
    evidenceSourceChanges(facts.changed_files, facts.evidence_source).length > 0
  );
}

/** What each state means, in a few words, for the summary's first line. */
const STATE_LEAD: Record<GateDecision["state"], string> = {
  accepted: "**Accepted:** it may merge.",
  rejected: "**Rejected:** it may not merge yet.",
  pending: "**Waiting:** the evidence is not complete yet.",
  escalated: "**Escalated:** a maintainer must accept this exact commit.",
  stalled: "**Stalled:** attempts stopped making progress.",
  capped: "**Capped:** a budget is spent.",
  blocked: "**Blocked:** the fix is outside this pull request.",
  not_gated: "**Not gated:** agate does not gate this pull request.",
};

/** A state as the README's state table names it (users read "waiting", never "pending"). */
export const STATE_WORD: Record<GateDecision["state"], string> = {
  accepted: "accepted",
  rejected: "rejected",
  pending: "waiting",
  escalated: "escalated",
  stalled: "stalled",
  capped: "capped",
  blocked: "blocked",
  not_gated: "not gated",
};

export const REPORT_ONLY_LEAD =
  "**Report only:** this check never blocks a merge (gate.report_only in the base config).";

/**
 * The summary's first line: the state and the single next action (the decision's first work
 * item, which decide.ts puts first because its requirement decided the state). GitHub shows the
 * title, with the cause, right above it.
 */
function firstLine(decision: GateDecision, facts: GateFacts): string {
  if (!decision.report_only && decision.state === "accepted" && facts.override) {
    return `**Accepted by ${codeSpan(facts.override.by, 60)}'s override:** this exact commit may merge; any push voids it. Nothing to do.`;
  }
  const lead = decision.report_only
    ? `${REPORT_ONLY_LEAD} Enforced, it would be ${STATE_WORD[decision.state]}.`
    : STATE_LEAD[decision.state];
  const [next, ...rest] = decision.missing;
  if (next === undefined) {
    const idle =
      decision.state === "pending"
        ? "Nothing to do yet: this check updates itself when the evidence is in."
        : "Nothing to do.";
    return `${lead} ${idle}`;
  }
  const more = rest.length > 0 ? `; ${counted(rest.length, "more work item")} below` : "";
  return `${lead} **Next:** ${next}${more}.`;
}

/**
 * Where the evidence ran, linked where GitHub gave the URL: the run, the job, and the step (the
 * job page's own `#step:N:1` anchor for the step's log). Names are the base config's
 * (evidence.job, evidence.step); ids and URLs are GitHub's.
 */
function evidenceWhere(
  evidence: Pick<CommandEvidence, "run_id" | "run_attempt" | "run_url">,
  runFact: EvidenceRunFact | null,
  names: { job: string; step: string } | null,
): string {
  const fact = runFact?.run.id === evidence.run_id ? runFact : null;
  const parts = [
    `${link(`run ${evidence.run_id}`, fact?.run.html_url)}, attempt ${evidence.run_attempt}`,
  ];
  const job = fact?.job;
  const jobUrl = job?.html_url ?? (fact ? null : evidence.run_url);
  if (names) {
    parts.push(link(`job ${names.job}`, jobUrl));
    const step = job?.steps.find((s) => s.name === names.step);
    parts.push(
      link(
        `step ${names.step}`,
        step && isGitHubUrl(jobUrl) ? `${jobUrl}#step:${step.number}:1` : null,
      ),
    );
  } else if (isGitHubUrl(jobUrl)) {
    parts.push(link("job", jobUrl));
  }
  return parts.join(" · ");
}

/**
 * The commands of a believed record: a table, then each failing command's output, open. A passing
 * command's output is not repeated here (a fold that says "ok" tells a maintainer nothing): it is
 * in the run's log and, digested, in the record. Shared by the pull request and merge group
 * summaries.
 */
export function commandsSection(input: {
  record: CommandRecord;
  evidence: CommandEvidence;
  runFact: EvidenceRunFact | null;
  names: { job: string; step: string } | null;
  tailChars: number;
}): string[] {
  const { record, tailChars } = input;
  const lines = [
    "### Commands",
    "",
    `Tested \`${short(record.tested.sha)}\` (tree \`${short(record.tested.tree_sha)}\`) in ${evidenceWhere(input.evidence, input.runFact, input.names)}.`,
    "",
    isolationLine(record),
    "",
    "| command | result | duration |",
    "| --- | --- | --- |",
    ...record.commands.map(
      (c) =>
        `| ${cell(c.name)} | ${commandPassed(c) ? "✅" : "❌"} ${outcomeText({ ...c, duration_ms: undefined })} | ${durationText(c.duration_ms)} |`,
    ),
  ];
  for (const c of record.commands.filter((command) => !commandPassed(command))) {
    lines.push(
      "",
      ...outputDetails({
        label: `${c.name}: ${outcomeText(c)}`,
        note: ", last output",
        tail: c.output.tail.slice(-tailChars),
        open: true,
      }),
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
      ...outputDetails({
        label: `${f.name}: ${outcomeText({ ...f, signal: null })} at ${short(replay.head_sha)}`,
        note: ", last output",
        tail: f.tail.slice(-tailChars),
        open: true,
      }),
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
 * No run of the evidence workflow has reported for this head: since when (agate's first look at
 * it), and what to check when none comes, for nothing else will say so.
 */
function noRunSection(facts: GateFacts, evidence: { workflow: string; job: string }): string[] {
  const head = facts.pull_request.head_sha;
  const seen = facts.prior_records
    .filter((r) => r.head_sha === head)
    .map((r) => r.decided_at)
    .sort()[0];
  const since = seen ?? facts.handoff?.observed_at;
  return [
    "### No run yet",
    "",
    `Waiting${since ? ` since ${minuteText(since)}` : ""} for a run of ${codeSpan(evidence.workflow, 200)} (job ${codeSpan(evidence.job, 100)}) on ${short(head)}. A run starts within a minute or so of a push. If none has after a few minutes, look at the pull request's Checks tab: the workflow must be on the base branch and run on \`pull_request\`, Actions must be enabled for the repository, and a run for a first-time contributor or a fork may wait for a maintainer's approval there.`,
  ];
}

/** A time as people read it in a summary: to the minute, in UTC. */
function minuteText(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * Where a pass counts (checks/gate/base-requirement.ts): why one was held in progress on this
 * base, or, on a base that requires agate without a merge queue, the window only a queue closes.
 */
function baseSections(decision: GateDecision, facts: GateFacts): string[] {
  if (decision.held) {
    const branch = codeSpan(facts.pull_request.base_ref, 120);
    return [
      "### Not marked passing on this base",
      "",
      `The decision stands as shown, but the check stays in progress: ${decision.held}. To let it pass here, require the status check agate from this App in a ruleset on ${branch}, or retarget the pull request to a branch that requires it.`,
      "",
    ];
  }
  const advice = mergeQueueAdvice(facts, decision);
  return advice ? ["### A pass belongs to the commit", "", advice, ""] : [];
}

/** At most this many linked entries get a row; the rest are counted. */
const ENTRY_ROWS = 20;

/** The handoff entries linked to this pull request, each with its state, as agate's store has it. */
function entriesSection(entries: readonly LinkedEntryFact[]): string[] {
  const state = (e: LinkedEntryFact) => {
    switch (e.state) {
      case "claimed":
        return e.owner ? `claimed by ${codeSpan(e.owner, 60)}` : "claimed";
      case "escalated":
        return `escalated (${e.escalation_reason ?? "a human decision"})${e.why ? `: ${codeSpan(e.why, 160)}` : ""}`;
      case "blocked":
        return `blocked${e.why ? `: ${codeSpan(e.why, 160)}` : ""}`;
      default:
        return e.state;
    }
  };
  const lines = [
    "### Handoff entries",
    "",
    "| entry | state | since | question |",
    "| --- | --- | --- | --- |",
    ...entries
      .slice(0, ENTRY_ROWS)
      .map(
        (e) =>
          `| ${entryName(e)} | ${cell(state(e))} | ${e.state_changed_at} | ${cell(codeSpan(e.question, 160))} |`,
      ),
  ];
  if (entries.length > ENTRY_ROWS) lines.push("", `… and ${entries.length - ENTRY_ROWS} more.`);
  return lines;
}

/**
 * The evidence as far as it goes: a run not come yet, the stored failure of a tree graded
 * before, the believed record's commands, or else the newest run.
 */
function evidenceSections(
  decision: GateDecision,
  facts: GateFacts,
  progress: ReturnType<typeof progressOf>,
  tailChars: number,
): string[] {
  const lines: string[] = [];
  const config = facts.config.status === "ok" ? facts.config.config : null;
  const names = config ? { job: config.evidence.job, step: config.evidence.step } : null;
  if (decision.state === "pending" && facts.evidence.length === 0 && config) {
    lines.push(...noRunSection(facts, config.evidence), "");
  }
  const believed = believedEvidence(facts.evidence);
  if (progress.replay) {
    lines.push(...replaySection(progress.replay, tailChars), "");
  } else if (believed?.record) {
    lines.push(
      ...commandsSection({
        record: believed.record,
        evidence: believed,
        runFact: facts.evidence_run,
        names,
        tailChars,
      }),
      "",
    );
  } else {
    const newest = facts.evidence.at(-1);
    if (newest) {
      lines.push(
        `The newest run of the evidence workflow: ${evidenceWhere(newest, facts.evidence_run, names)}.`,
        "",
      );
    }
  }
  return lines;
}

/** A problem with the set-up, not with this pull request: agate's words from GitHub's answers. */
function setupSection(facts: GateFacts): string[] {
  if (facts.setup?.status !== "problem") return [];
  return [
    "### This check may not block merging",
    "",
    `${facts.setup.summary}.${facts.setup.fix ? ` To fix: ${facts.setup.fix}.` : ""} ${codeSpan(`${AGATE_CLI} doctor --repo ${facts.pull_request.repository}`, 200)} checks the whole set-up.`,
    "",
  ];
}

/** How a maintainer accepts a commit whose evidence agate cannot believe on its own. */
function maintainerSection(facts: GateFacts): string[] {
  return [
    "### A maintainer can accept this commit",
    "",
    "agate cannot believe evidence for this commit on its own (the change touches the evidence workflow or what it uses, or is too large for GitHub to list). A person with write access who is not the author can accept this exact commit with a comment:",
    "",
    "```text",
    overrideCommand(facts.pull_request.head_sha),
    "```",
    "",
  ];
}

/** Records refused, but for the one the requirements table already gives (the newest run's). */
function notBelievedSection(decision: GateDecision, facts: GateFacts): string[] {
  const said = decision.requirements.map((r) => r.reason).join("\n");
  const refused = facts.evidence.filter((e) => e.refused && !said.includes(e.refused));
  if (refused.length === 0) return [];
  return [
    "### Not believed",
    "",
    ...refused.map((e) => `- run ${e.run_id}, attempt ${e.run_attempt}: ${e.refused}`),
    "",
  ];
}

/**
 * The graded attempts against their budget; then one row per earlier head: its last decision,
 * and when a newer head made it stale.
 */
function historySection(facts: GateFacts, graded: number): string[] {
  const lastByHead = new Map<string, GateFacts["prior_records"][number]>();
  for (const r of facts.prior_records)
    if (r.head_sha !== facts.pull_request.head_sha) lastByHead.set(r.head_sha, r);
  const history = [...lastByHead.values()];
  const budget =
    facts.config.status === "ok" ? facts.config.config.budgets.graded_attempts_per_pr : null;
  const lines = [
    `Graded attempts: ${graded}${budget === null ? "" : ` of ${budget} (budgets.graded_attempts_per_pr)`}. ${GLOSSARY_LINK}`,
    "",
  ];
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
  return lines;
}

/**
 * The `agate` check run's summary, the main user interface. Read top down in ten seconds: the
 * state and the next action, the requirements, the work items, then the evidence (failing
 * output open), refused records and history.
 */
export function renderGateSummary(
  decision: GateDecision,
  facts: GateFacts,
  tailChars = 6_000,
  /** What the summary may take of GitHub's limit (plan.ts keeps room for the status block). */
  limit = GITHUB_TEXT_LIMIT,
): string {
  const lines = [firstLine(decision, facts), ""];
  if (decision.state === "not_gated") {
    return `${[...lines, ...baseSections(decision, facts)].join("\n")}\n`;
  }
  const overridden = decision.state === "accepted" && facts.override !== null;
  lines.push(...requirementsTable(decision.requirements, { setAside: overridden }));
  lines.push(...configProblems(facts.config));
  // The first work item is the first line's Next: the list holds the others, each said once.
  const [, ...more] = decision.missing;
  if (more.length > 0) {
    lines.push("### More work items", "", ...more.map((m) => `- [ ] ${m}`), "");
  }
  const progress = progressOf(facts);
  lines.push(...evidenceSections(decision, facts, progress, tailChars));
  if (progress.stall) lines.push(...stallSection(progress.stall), "");
  if (facts.entries && facts.entries.length > 0) lines.push(...entriesSection(facts.entries), "");
  if (facts.trace) lines.push(...traceSection(facts.trace));
  lines.push(...baseSections(decision, facts), ...setupSection(facts));
  // An override is said in the first line and its row (who, when, why); nothing more to add.
  if (!overridden && needsMaintainer(facts)) lines.push(...maintainerSection(facts));
  lines.push(...notBelievedSection(decision, facts), ...historySection(facts, progress.graded));
  const text = `${lines.join("\n")}\n`;
  return text.length <= limit || tailChars < 200
    ? text.slice(0, limit)
    : renderGateSummary(decision, facts, Math.floor(tailChars / 4), limit);
}
