import type { PhasedEffects } from "../../schemas/effects.js";
import type { BaseConfigFact, Requirement } from "../../schemas/gate.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { jobOf } from "../../schemas/jobs/index.js";
import type {
  GatheredMergeGroupFacts,
  MergeGroupDecision,
  MergeGroupFacts,
  MergeGroupRefFact,
} from "../../schemas/merge-group.js";
import { type AgateCheckRun, newJobSchema } from "../../schemas/store.js";
import { failedCommands } from "../command-results.js";
import {
  codeSpan,
  cutTitle,
  durationText,
  GITHUB_TEXT_LIMIT,
  shortSha as short,
} from "../markdown.js";
import { believedEvidence, judgedMergeGroupFacts } from "./evidence.js";
import { mergeGroupBaseIn, mergeGroupExternalId } from "./external-id.js";
import { checkChanges } from "./plan.js";
import { protectedChanges } from "./protected-paths.js";
import { commandsSection, REPORT_ONLY_LEAD, STATE_WORD } from "./render.js";
import { reportOnly, reportOnlyOn } from "./report-only.js";
import { configProblems, requirementsTable } from "./requirements-table.js";

/** GitHub's merge queue builds every group on a branch under this prefix. */
const MERGE_QUEUE_REF_PREFIX = "gh-readonly-queue/";

/** Whether a branch (with or without `refs/heads/`) is one the merge queue made. */
export function isMergeQueueRef(ref: string | null | undefined): boolean {
  return (ref ?? "").replace(/^refs\/heads\//, "").startsWith(MERGE_QUEUE_REF_PREFIX);
}

/**
 * The pull request a merge group was built for, from the branch GitHub names it with:
 * `gh-readonly-queue/<base>/pr-<number>-<head sha>`. The group holds that pull request on top of
 * those ahead of it in the queue; when it fails, GitHub takes that one out of the queue.
 */
export function groupPullNumber(ref: string): number | null {
  const match = /\/pr-(\d+)-[0-9a-f]+$/.exec(ref);
  return match ? Number(match[1]) : null;
}

/** The failure a merge group gets when no verified record came within the deadline. */
export function recordTimeoutReason(timeoutMs: number): string {
  // The title names the group head already.
  return `no command record within ${durationText(timeoutMs)} (merge_queue.record_timeout): does the evidence workflow run on merge_group?`;
}

/**
 * The gate decision for a merge group: success only on a verified, passing command record for
 * the group's own head; failure on a failing one, on an unsupported setting, or when the
 * deadline passed without one; otherwise the check stays in progress. Pure: facts in.
 */
export function decideMergeGroup(facts: MergeGroupFacts): MergeGroupDecision {
  // gate.report_only: a queue must never wait on, or be failed by, a gate being tried out.
  return reportOnly(facts.config, decideMergeGroupEnforced(facts));
}

function decideMergeGroupEnforced(facts: MergeGroupFacts): MergeGroupDecision {
  const pull = groupPullNumber(facts.merge_group.head_ref);
  const head = `${short(facts.merge_group.head_sha)}${pull ? ` (#${pull})` : ""}`;
  const reasons = facts.evidence
    .filter((e) => e.refused)
    .map((e) => `command record refused: ${e.refused}`);
  if (facts.config.status === "missing") {
    const reason = `the group's base commit has no ${facts.config.path}, so this repository has not adopted agate`;
    return {
      state: "not_gated",
      conclusion: "neutral",
      title: cutTitle(`Not gated: ${reason}`),
      requirements: [],
      reasons: [reason],
    };
  }
  if (facts.config.status === "invalid") {
    // The state stays `rejected` (a merge group's decision has no `blocked`: schemas/merge-group.ts);
    // the requirement says blocked, and the parser's message is shown once, by the renderer.
    const path = facts.config.path;
    return {
      state: "rejected",
      conclusion: "failure",
      title: cutTitle(
        `Rejected merge group ${head}: the base branch's ${path} is invalid; a maintainer must fix it there`,
      ),
      requirements: [
        {
          id: "config",
          name: "config",
          status: "blocked",
          reason: `${path} at the group's base commit is invalid (its problems are listed below)`,
        },
      ],
      reasons: [facts.config.message, ...reasons],
    };
  }
  const config = facts.config.config;
  const requirements: Requirement[] = [
    commandsRequirement(facts, config.merge_queue.record_timeout),
    protectedRequirement(facts),
    config.evaluator.kind === "none"
      ? {
          id: "evaluator",
          name: "evaluator",
          status: "pass",
          reason: "none configured (evaluator.kind: none)",
        }
      : {
          id: "evaluator",
          name: "evaluator",
          status: "fail",
          reason: `evaluator.kind: ${config.evaluator.kind} is not supported by this agate version yet; set evaluator.kind: none to gate on the commands alone`,
        },
    {
      id: "handoff",
      name: "handoff file",
      status: "pass",
      reason: "not required in the merge queue: handoff files belong to pull requests",
    },
  ];
  const failed = requirements.filter((r) => r.status === "fail");
  if (failed.length > 0) {
    return {
      state: "rejected",
      conclusion: "failure",
      title: cutTitle(`Rejected merge group ${head}: ${failed.map((r) => r.reason).join("; ")}`),
      requirements,
      reasons,
    };
  }
  const waiting = requirements.filter((r) => r.status === "waiting");
  if (waiting.length > 0) {
    return {
      state: "pending",
      conclusion: null,
      title: cutTitle(`Waiting on merge group ${head}: ${waiting.map((r) => r.reason).join("; ")}`),
      requirements,
      reasons,
    };
  }
  return {
    state: "accepted",
    conclusion: "success",
    title: `Accepted merge group ${head}: the required commands passed on the group head`,
    requirements,
    reasons,
  };
}

function commandsRequirement(facts: MergeGroupFacts, timeoutMs: number): Requirement {
  const req = (status: Requirement["status"], reason: string): Requirement => ({
    id: "commands",
    name: "required commands",
    status,
    reason,
  });
  const headSha = facts.merge_group.head_sha;
  // Only a believed record for this exact head counts; the newest one decides.
  // A listing that may have been cut could hide a change to the evidence workflow: the queue
  // cannot wait for a person, so it fails with the cause.
  if (!facts.changed_files_listing.complete) {
    return req(
      "fail",
      `${facts.changed_files_listing.reason ?? "the file list is incomplete"}; merge these pull requests in smaller groups`,
    );
  }
  const verified = believedEvidence(
    facts.evidence.filter((e) => e.record?.merge_group?.head_sha === headSha),
  );
  if (verified?.record) {
    const failed = failedCommands(verified.record);
    const total = verified.record.commands.length;
    if (total === 0) return req("fail", "the command record lists no commands");
    return failed.length === 0
      ? req("pass", `${total} of ${total} passed on the group head ${short(headSha)}`)
      : req("fail", `${failed.length} of ${total} required commands failed (${failed.join(", ")})`);
  }
  // A queue left waiting blocks the whole repository: past the deadline, waiting is failure.
  if (facts.deadline_passed) return req("fail", recordTimeoutReason(timeoutMs));
  const waiting = facts.evidence.find((e) => e.waiting);
  if (waiting?.waiting) return req("waiting", waiting.waiting);
  const refused = facts.evidence.find((e) => e.refused);
  if (refused?.refused) return req("waiting", `no believable command record: ${refused.refused}`);
  const workflow = facts.config.status === "ok" ? facts.config.config.evidence.workflow : "";
  return req(
    "waiting",
    `no merge_group record from ${workflow} yet; it fails after ${durationText(timeoutMs)}`,
  );
}

/**
 * The pull requests in the queue were gated (and escalated where needed) before they were
 * queued, so the queue does not escalate again; the summary says what changed all the same.
 */
function protectedRequirement(facts: MergeGroupFacts): Requirement {
  if (facts.config.status !== "ok") throw new Error("unreachable: config checked above");
  const changed = protectedChanges(facts.changed_files, facts.config.config);
  return {
    id: "protected_paths",
    name: "protected paths",
    status: "pass",
    reason:
      changed.length === 0
        ? "no protected path changed; not escalated in the merge queue (its pull requests were approved before they were queued)"
        : `${changed.join(", ")} changed; not escalated in the merge queue (its pull requests were approved before they were queued)`,
  };
}

/** The state and the single next action, for the summary's first line. */
function firstLine(decision: MergeGroupDecision, facts: MergeGroupFacts): string {
  if (decision.state === "not_gated") {
    return "**Not gated:** agate does not gate this repository's merge queue. Nothing to do.";
  }
  // gate.report_only: the check is neutral whatever the state, so the lead says so.
  const lead = reportOnlyOn(facts.config)
    ? `${REPORT_ONLY_LEAD} Enforced, it would be ${STATE_WORD[decision.state]}.`
    : {
        accepted: "**Accepted:** this merge group may merge.",
        pending: "**Waiting:** the evidence for the merge group is not complete yet.",
        rejected: "**Rejected:** this merge group may not merge.",
      }[decision.state];
  switch (decision.state) {
    case "accepted":
      return `${lead} Nothing to do.`;
    case "pending":
      return `${lead} Nothing to do yet: this check updates itself when it is in.`;
    case "rejected": {
      // Tried out, the group merges anyway: nothing to fix for it, only to look at.
      if (reportOnlyOn(facts.config))
        return `${lead} What failed is below. Nothing to do: the queue goes on.`;
      const pull = groupPullNumber(facts.merge_group.head_ref);
      const which = pull ? `#${pull}` : "the pull request this group was built for";
      const next =
        facts.config.status === "invalid"
          ? `ask a maintainer to fix ${facts.config.path} on the base branch (the problems are listed below), then queue ${which} again`
          : `fix what failed (below) in ${which}, which GitHub took out of the queue, and queue it again`;
      return `${lead} **Next:** ${next}.`;
    }
  }
}

/** " for #7, on top of the pull requests ahead of it in the queue", or nothing for an odd ref. */
function groupPull(ref: string): string {
  const pull = groupPullNumber(ref);
  return pull ? ` for #${pull}, on top of the pull requests ahead of it in the queue` : "";
}

/** The `agate` check summary on a merge group head. */
export function renderMergeGroupSummary(
  decision: MergeGroupDecision,
  facts: MergeGroupFacts,
  tailChars = 4_000,
): string {
  const group = facts.merge_group;
  const lines = [
    firstLine(decision, facts),
    "",
    `Merge group \`${short(group.head_sha)}\`${groupPull(group.head_ref)} (${codeSpan(group.head_ref, 200)}) on base \`${short(group.base_sha)}\`: the gate needs a command record made on merge_group for this exact head, with the config at the base.`,
    "",
  ];
  if (decision.state === "not_gated") return `${lines.join("\n")}\n`;
  lines.push(...requirementsTable(decision.requirements));
  lines.push(...configProblems(facts.config));
  const config = facts.config.status === "ok" ? facts.config.config : null;
  const believed = believedEvidence(facts.evidence);
  if (believed?.record) {
    lines.push(
      ...commandsSection({
        record: believed.record,
        evidence: believed,
        runFact: facts.evidence_run,
        names: config ? { job: config.evidence.job, step: config.evidence.step } : null,
        tailChars,
      }),
      "",
    );
  }
  const refused = facts.evidence.filter((e) => e.refused);
  if (refused.length > 0) {
    lines.push(
      "### Not believed",
      "",
      ...refused.map((e) => `- run ${e.run_id}, attempt ${e.run_attempt}: ${e.refused}`),
      "",
    );
  }
  const text = `${lines.join("\n")}\n`;
  return text.length <= GITHUB_TEXT_LIMIT || tailChars < 200
    ? text.slice(0, GITHUB_TEXT_LIMIT)
    : renderMergeGroupSummary(decision, facts, Math.floor(tailChars / 4));
}

/**
 * The base of the group the merge queue asked checks for, from our own check on its head; null
 * when there is none (a branch merely named like a queue branch gets no check from us).
 */
export function requestedBase(existing: AgateCheckRun | null, head: string): string | null {
  return mergeGroupBaseIn(existing?.externalId ?? null, head);
}

/** What `merge_queue.record_timeout` defaults to, for a base whose config cannot be read. */
const DEFAULT_RECORD_TIMEOUT_MS = 30 * 60_000;

/**
 * The deadline of a checks request, queued before anything else is done for it: whatever fails
 * after, the group still gets its answer within `merge_queue.record_timeout`.
 */
export function mergeGroupDeadline(
  group: MergeGroupRefFact,
  config: BaseConfigFact,
  installation: number,
  at: string,
): PhasedEffects {
  const none: PhasedEffects = { first: [], github: [], after: [] };
  if (config.status !== "ok") return none;
  const timeout = config.config.merge_queue.record_timeout ?? DEFAULT_RECORD_TIMEOUT_MS;
  const payload = {
    repository: group.repository,
    installation,
    head_sha: group.head_sha,
    head_ref: group.head_ref,
    base_sha: group.base_sha,
  };
  const spec = GATE_JOBS.mergeGroupDeadline;
  const runAt = new Date(Date.parse(at) + timeout).toISOString();
  const job = newJobSchema.parse(jobOf(spec, payload, { run_at: runAt }));
  return { ...none, first: [{ kind: "enqueue", job, dedupe: spec.dedupe?.(payload) ?? null }] };
}

/** What a merge group's pass saw besides its facts. */
export interface MergeGroupSeen {
  /** The App's check on the group head now; its start is when the checks request was answered. */
  existing: AgateCheckRun | null;
  /** The pass's time. */
  at: string;
  /** The deadline job is running: no verified record by now means failure. */
  deadline_reached: boolean;
  /** The job: the decision's audit entry is appended once, whichever run of it gets there. */
  job_id: number | null;
}

/**
 * A merge group's pass, as a pull request's: the decision on its facts and the effects it calls
 * for. The check is written only when it changes, its audit entry first: a run retried after the
 * check was written finds it unchanged and writes nothing, so the entry would be lost; with the
 * job's key it is appended once.
 */
export function decideMergeGroupPass(
  gathered: GatheredMergeGroupFacts,
  seen: MergeGroupSeen,
): { decision: MergeGroupDecision; facts: MergeGroupFacts; effects: PhasedEffects } {
  const config = gathered.config.status === "ok" ? gathered.config.config : null;
  // A re-evaluation after the deadline (a late event) must not put the check back in progress:
  // the check run's own start is when the checks request was answered.
  const started = seen.existing?.startedAt ? Date.parse(seen.existing.startedAt) : Number.NaN;
  // The evidence is judged first, from what gather read (evidence.ts): no verdict is handed in.
  const facts: MergeGroupFacts = {
    ...judgedMergeGroupFacts(gathered),
    deadline_passed:
      config !== null &&
      (seen.deadline_reached || Date.parse(seen.at) - started >= config.merge_queue.record_timeout),
  };
  const decision = decideMergeGroup(facts);
  const view = {
    conclusion: decision.conclusion,
    title: decision.title,
    summary: renderMergeGroupSummary(decision, facts),
    rerunEvaluator: false,
  };
  if (!checkChanges(seen.existing, view)) {
    return { decision, facts, effects: { first: [], github: [], after: [] } };
  }
  const group = facts.merge_group;
  const dedupeKey =
    seen.job_id === null
      ? null
      : `job:${seen.job_id}:merge-group@${group.head_sha}:${decision.state}`;
  // The audit entry is stored first: a run retried after the check was written finds it
  // unchanged and writes nothing.
  const effects: PhasedEffects = {
    first: [
      {
        kind: "audit",
        entry: {
          kind: "gate.merge_group.decision",
          subject: `${group.repository}@${group.head_sha}`,
          decision: JSON.parse(JSON.stringify(decision)),
          facts: JSON.parse(JSON.stringify(facts)),
          at: seen.at,
        },
        dedupe_key: dedupeKey,
      },
    ],
    github: [
      {
        kind: "check",
        head_sha: group.head_sha,
        existing: seen.existing,
        write: { ...view, externalId: mergeGroupExternalId(group) },
      },
    ],
    after: [],
  };
  return { decision, facts, effects };
}
