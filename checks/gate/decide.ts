import type { HandoffCheck } from "../../schemas/acceptance-record.js";
import type { CommandRecord } from "../../schemas/command-record.js";
import type { Config } from "../../schemas/config.js";
import type {
  AttemptFact,
  GateDecision,
  GateFacts,
  PriorRecord,
  Requirement,
} from "../../schemas/gate.js";
import { commandPassed } from "../command-results.js";
import { handoffRequiredBy } from "../handoff/required.js";
import { AGATE_CLI, verifyHandoff } from "../handoff/verify.js";
import {
  codeSpan,
  counted,
  cutTitle,
  displayTail,
  durationText,
  shortSha as short,
} from "../markdown.js";
import { holdPass } from "./base-requirement.js";
import { entriesRequirement, escalationTitle } from "./entries.js";
import { overrideCommand } from "./listing.js";
import {
  type Attempt,
  attemptOfRecord,
  cappedReason,
  noProgressStreak,
  replayedFailure,
  type Stall,
  stalledReason,
} from "./progress.js";
import { protectedChanges } from "./protected-paths.js";
import { reportOnly } from "./report-only.js";
import { selectGate } from "./select.js";

/**
 * The gate decision: a pure function of the facts the App collected (and stored beside the
 * decision, so it can be replayed). Nothing skipped, unevaluated or unsupported ever yields
 * success; only a pull request the base config does not gate concludes neutral.
 */
export function decideGate(facts: GateFacts): GateDecision {
  const decision = decideEnforced(facts);
  const reported = reportOnly(facts.config, decision);
  // A pass is written only on a base where it counts (checks/gate/base-requirement.ts).
  return holdPass(facts, reported === decision ? decision : { ...reported, report_only: true });
}

function decideEnforced(facts: GateFacts): GateDecision {
  const pr = facts.pull_request;
  const head = short(pr.head_sha);
  // Before anything else, whatever this pull request's config says: the check run is per
  // commit, so a decision here is also the check of every other pull request with this head.
  if (facts.head_shared_with.length > 0) return sharedHead(facts);
  if (facts.config.status === "missing") {
    // Once gated, stays gated: retargeting to a base without the config must not free it.
    if (facts.previously_gated) return ungatedBase(facts, facts.config.path);
    return notGated(
      `the base commit has no ${facts.config.path}, so this repository has not adopted agate`,
    );
  }
  if (facts.config.status === "invalid") {
    // Blocked, not rejected: the config is read from the base, so nothing this pull request
    // does can fix it. The parser's message is shown once, under the table (render.ts).
    const path = facts.config.path;
    const requirement: Requirement = {
      id: "config",
      name: "config",
      status: "blocked",
      reason: `${path} at the base commit ${short(pr.base_sha)} is invalid (its problems are listed below)`,
    };
    return {
      state: "blocked",
      conclusion: "failure",
      title: cutTitle(
        `Blocked on ${head}: the base branch's ${path} is invalid; a maintainer must fix it there`,
      ),
      requirements: [requirement],
      missing: [
        `Ask a maintainer to fix ${path} on ${codeSpan(pr.base_ref, 120)} (the problems are listed below); a change this pull request makes to it does not count, as the config is read from the base`,
      ],
      // Kept with the stored decision for the audit; the summary shows the facts' copy.
      reasons: [facts.config.message],
      gated: { gated: true, reason: "the config that would decide cannot be read" },
      carried_over_from: null,
      handoff: null,
    };
  }

  const config = facts.config.config;
  const gated = selectGate(config.gate, pr, facts.previously_gated);
  if (!gated.gated) return notGated(gated.reason);

  const progress = progressOf(facts);
  const commands = progress.replay ? replayedCommands(progress.replay) : commandsRequirement(facts);
  const handoff = handoffRequirement(facts, config, believedRecord(facts));
  // The cheap deterministic checks come first: the evaluator is asked only once they hold.
  const ready = commands.requirement.status === "pass" && handoff.requirement.status === "pass";
  const evaluator = evaluatorRequirement(facts, config, ready);
  const parts: Part[] = [
    commands,
    ...(progress.requirement
      ? [{ requirement: progress.requirement, items: progressItems(facts, progress) }]
      : []),
    protectedRequirement(facts, config),
    handoff,
    evaluator,
  ];
  // Entries linked to this pull request only ever hold it back (checks/gate/entries.ts).
  const entries = entriesRequirement(facts);
  if (entries) parts.push(entries);
  const override = overrideRequirement(facts);
  if (override) parts.push({ requirement: override, items: [] });
  const escalatedEntry = entries?.escalated[0];
  const requirements = parts.map((p) => p.requirement);
  const reasons = facts.evidence
    .filter((e) => e.refused)
    .map((e) => `command record refused: ${e.refused}`);

  const failed = requirements.filter((r) => r.status === "fail");
  const stalled = requirements.find((r) => r.status === "stalled");
  const attemptsCapped = requirements.find((r) => r.id === "progress" && r.status === "capped");
  const capped = requirements.filter((r) => r.status === "capped");
  const blocked = requirements.filter((r) => r.status === "blocked");
  const protectedWaiting = requirements.find(
    (r) => r.id === "protected_paths" && r.status === "waiting",
  );
  // The evaluator's own wait is only worth the title when nothing else is waited for.
  const allWaiting = requirements.filter((r) => r.status === "waiting");
  const others = allWaiting.filter((r) => r.id !== "evaluator");
  const waiting = others.length > 0 ? others : allWaiting;
  // The requirement that decides the state; its work comes first, as the summary's next action.
  const decisive =
    (escalatedEntry ? entries?.requirement : undefined) ??
    attemptsCapped ??
    stalled ??
    failed[0] ??
    capped[0] ??
    blocked[0] ??
    protectedWaiting ??
    parts.find((p) => p.requirement.status !== "pass" && p.items.length > 0)?.requirement;
  // The next work items: what someone can do, each requirement's own. A requirement that only
  // waits (a run in progress, the evaluator not asked yet) has none: nobody can act on it.
  const open = parts.filter((p) => p.requirement.status !== "pass");
  const missing = [
    ...open.filter((p) => p.requirement === decisive),
    ...open.filter((p) => p.requirement !== decisive),
  ].flatMap((p) => p.items);
  const base = {
    requirements,
    missing,
    reasons,
    gated,
    carried_over_from: commands.carriedOverFrom,
    replayed_from: progress.replay?.head_sha ?? null,
    handoff: handoff.check,
  };
  // A maintainer accepted this exact head: their decision stands over every other requirement,
  // which the summary still shows as it is.
  if (override && facts.override) {
    return {
      ...base,
      missing: [],
      state: "accepted",
      conclusion: "success",
      title: cutTitle(
        `Accepted on ${head} by ${facts.override.by}'s override: ${codeSpan(facts.override.reason)}`,
      ),
    };
  }
  // An escalated entry waits on a human decision the agent cannot make, whatever else holds; the
  // title says what the maintainer must decide.
  if (entries && escalatedEntry) {
    const more = entries.escalated.length > 1 ? ` (and ${entries.escalated.length - 1} more)` : "";
    return {
      ...base,
      state: "escalated",
      conclusion: "action_required",
      title: cutTitle(`Escalated on ${head}: ${escalationTitle(escalatedEntry)}${more}`),
    };
  }
  // Past the attempts budget this head is not graded at all: what it would have been is moot.
  if (attemptsCapped) {
    return {
      ...base,
      state: "capped",
      conclusion: "failure",
      title: cutTitle(`Capped on ${head}: ${attemptsCapped.reason}`),
    };
  }
  if (stalled) {
    return {
      ...base,
      state: "stalled",
      conclusion: "failure",
      title: cutTitle(`Stalled on ${head}: ${stalled.reason}`),
    };
  }
  if (failed.length > 0) {
    return {
      ...base,
      state: "rejected",
      conclusion: "failure",
      title: cutTitle(`Rejected on ${head}: ${failed.map((r) => r.reason).join("; ")}`),
    };
  }
  if (capped.length > 0) {
    return {
      ...base,
      state: "capped",
      conclusion: "failure",
      title: cutTitle(`Capped on ${head}: ${capped.map((r) => r.reason).join("; ")}`),
    };
  }
  if (blocked.length > 0) {
    return {
      ...base,
      state: "blocked",
      conclusion: "failure",
      title: cutTitle(`Blocked on ${head}: ${blocked.map((r) => r.reason).join("; ")}`),
    };
  }
  if (protectedWaiting) {
    return {
      ...base,
      state: "escalated",
      conclusion: "action_required",
      title: cutTitle(`Escalated on ${head}: ${protectedWaiting.reason}`),
    };
  }
  if (waiting.length > 0) {
    return {
      ...base,
      state: "pending",
      conclusion: null,
      title: cutTitle(`Waiting on ${head}: ${waiting.map((r) => r.reason).join("; ")}`),
    };
  }
  return {
    ...base,
    state: "accepted",
    conclusion: "success",
    title: commands.carriedOverFrom
      ? `Accepted on ${head}: carried over from an identical tree`
      : `Accepted on ${head}: every requirement passed`,
  };
}

/** The pull request's progress over its graded attempts (checks/gate/progress.ts). */
export interface ProgressView {
  /** Graded attempts, this head included when it is graded. */
  graded: number;
  /** The earlier failure this head replays (its tree unchanged), if any. */
  replay: AttemptFact | null;
  /** The stall, when this head's failure made no progress. */
  stall: Stall | null;
  /** capped or stalled, when one holds; null otherwise. */
  requirement: Requirement | null;
}

export function progressOf(facts: GateFacts): ProgressView {
  const none = { graded: facts.attempts.length, replay: null, stall: null, requirement: null };
  if (facts.config.status !== "ok") return none;
  const { config, digest } = facts.config;
  const budget = config.budgets.graded_attempts_per_pr;
  const req = (status: Requirement["status"], reason: string): Requirement => ({
    id: "progress",
    name: "progress",
    status,
    reason,
  });
  if (facts.attempts.length >= budget) {
    return {
      ...none,
      requirement: req("capped", cappedReason(config, facts.attempts.length)),
    };
  }
  const replay = replayedFailure(facts, digest);
  const record = believedRecord(facts);
  const judged = facts.evaluation.status === "judged" ? facts.evaluation.evaluation : null;
  const current: Attempt | null = replay
    ? { ...replay, head_sha: facts.pull_request.head_sha }
    : record
      ? attemptOfRecord(
          facts,
          record,
          judged?.outcome.status === "verdict" ? judged.outcome.verdict.missing : null,
        )
      : null;
  const graded = facts.attempts.length + (current ? 1 : 0);
  if (!current || current.failures.length === 0) return { ...none, graded, replay };
  const stall = noProgressStreak(facts.attempts, current);
  const limit = config.budgets.unchanged_failures_before_stalled;
  return {
    graded,
    replay,
    stall: stall.streak >= limit ? stall : null,
    requirement: stall.streak >= limit ? req("stalled", stalledReason(stall)) : null,
  };
}

/** What can be done about a spent attempts budget or a stall. */
function progressItems(facts: GateFacts, progress: ProgressView): string[] {
  const head = facts.pull_request.head_sha;
  if (progress.stall) {
    const limit = facts.config.status === "ok" ? facts.config.config.budgets : null;
    return [
      `Push a change that changes the failure (below): the same failure, or a tree already tried, ${limit ? `${limit.unchanged_failures_before_stalled} times in a row (budgets.unchanged_failures_before_stalled)` : "again and again"} is no progress`,
    ];
  }
  return [
    `Ask a maintainer to raise budgets.graded_attempts_per_pr in ${facts.config.path} on ${codeSpan(facts.pull_request.base_ref, 120)}, or to accept this exact commit with \`${overrideCommand(head)}\``,
  ];
}

/** The commands requirement of a head whose tree is an earlier failed attempt's: not graded again. */
function replayedCommands(replay: AttemptFact): Part & { carriedOverFrom: number | null } {
  const total = replay.failures.length + replay.passed.length;
  const names = replay.failures.map((f) => f.name).join(", ");
  return {
    requirement: {
      id: "commands",
      name: "required commands",
      status: "fail",
      reason: `work tree unchanged since the failure at ${short(replay.head_sha)}: ${replay.failures.length} of ${total} required commands failed there (${names}); not graded again`,
    },
    items: [
      `Change the code, not only the commit: this tree failed at ${short(replay.head_sha)} (${names}); fix that failure (its output is below) and push`,
    ],
    carriedOverFrom: null,
  };
}

/** The override requirement, when a maintainer accepted this exact head. */
function overrideRequirement(facts: GateFacts): Requirement | null {
  const override = facts.override;
  if (!override) return null;
  return {
    id: "override",
    name: "maintainer override",
    status: "pass",
    reason: `${override.by} accepted ${short(facts.pull_request.head_sha)} at ${override.at}: ${codeSpan(override.reason)}`,
  };
}

/**
 * A head seen in another pull request, or in this one under another base. GitHub's check runs
 * and workflow runs belong to commits, not pull requests: a run made for the other one (with its
 * base's workflow, which the author may control) is indistinguishable from this one's, and a
 * decision written here is that one's too. Nothing about such a head is believed or permissive.
 */
function sharedHead(facts: GateFacts): GateDecision {
  const pr = facts.pull_request;
  const others = facts.head_shared_with.map((h) =>
    h.pull_number === pr.number
      ? `this pull request into ${codeSpan(h.base_ref, 120)}`
      : `#${h.pull_number} into ${codeSpan(h.base_ref, 120)}`,
  );
  const reason = `this commit is also the head of ${others.join(", ")}: GitHub's checks and workflow runs are per commit, so agate cannot tell whose evidence is whose`;
  return {
    state: "blocked",
    conclusion: "failure",
    title: cutTitle(
      `Blocked on ${short(pr.head_sha)}: this commit is also the head of ${others.join(", ")}`,
    ),
    requirements: [{ id: "commands", name: "required commands", status: "blocked", reason }],
    missing: [
      "Push a new commit to this pull request (a head of its own), and close any other pull request made from the same commit",
    ],
    reasons: [reason],
    gated: {
      gated: true,
      reason: "a commit shared between pull requests is never decided permissively",
    },
    carried_over_from: null,
    handoff: null,
  };
}

/** A pull request gated before whose base now has no config: never neutral, never free. */
function ungatedBase(facts: GateFacts, path: string): GateDecision {
  const pr = facts.pull_request;
  const reason = `the base ${codeSpan(pr.base_ref, 120)} (${short(pr.base_sha)}) has no ${path}, but this pull request was gated before and stays gated`;
  return {
    state: "blocked",
    conclusion: "failure",
    title: cutTitle(
      `Blocked on ${short(pr.head_sha)}: the base ${codeSpan(pr.base_ref, 60)} has no ${path}; gated before, stays gated`,
    ),
    requirements: [{ id: "config", name: "config", status: "blocked", reason }],
    missing: [
      `Retarget the pull request to a base branch that has ${path}, or add ${path} to ${codeSpan(pr.base_ref, 120)}`,
    ],
    reasons: [reason],
    gated: { gated: true, reason: "gated earlier; a pull request once gated stays gated" },
    carried_over_from: null,
    handoff: null,
  };
}

function notGated(reason: string): GateDecision {
  return {
    state: "not_gated",
    conclusion: "neutral",
    title: cutTitle(reason.startsWith("not gated") ? capitalise(reason) : `Not gated: ${reason}`),
    requirements: [],
    missing: [],
    reasons: [reason],
    gated: { gated: false, reason },
    carried_over_from: null,
    handoff: null,
  };
}

/** A requirement with the concrete items that make up its next work, when it has them. */
interface Part {
  requirement: Requirement;
  items: string[];
}

/** The newest record agate believes on the head: the one that decides. */
export function believedRecord(facts: Pick<GateFacts, "evidence">): CommandRecord | null {
  return facts.evidence.filter((e) => e.record && !e.refused && !e.waiting).at(-1)?.record ?? null;
}

/**
 * What the gate waits for when no run of the evidence workflow has reported yet. Said as a fact,
 * not as "waiting for": the title already says Waiting, and names the head.
 */
export function awaitedEvidence(config: Config): string {
  // Short enough for a title; the summary names the job and what to check (render.ts).
  return `no command record from ${config.evidence.workflow} for this commit yet`;
}

function commandsRequirement(facts: GateFacts): Part & { carriedOverFrom: number | null } {
  const req = (status: Requirement["status"], reason: string): Requirement => ({
    id: "commands",
    name: "required commands",
    status,
    reason,
  });
  // The newest believed record decides; older ones on the same head are history.
  const verified = believedRecord(facts);
  if (verified) {
    const failed = verified.commands.filter((c) => !commandPassed(c));
    const total = verified.commands.length;
    return failed.length === 0
      ? {
          requirement: req("pass", `${total} of ${total} passed`),
          items: [],
          carriedOverFrom: null,
        }
      : {
          requirement: req(
            "fail",
            `${failed.length} of ${total} required commands failed (${failed.map((c) => c.name).join(", ")})`,
          ),
          // Names come from the base config (provenance checks the record's against it).
          items: failed.map(
            (c) =>
              `Make ${codeSpan(c.name, 80)} pass and push: ${
                c.timed_out
                  ? `it timed out after ${durationText(c.duration_ms)}`
                  : c.signal
                    ? `it was killed by ${c.signal}`
                    : `it exited ${c.exit_code}`
              }${displayTail(c.output.tail).trim() === "" ? ", printing nothing" : " (its last output is below)"}`,
          ),
          carriedOverFrom: null,
        };
  }
  const carried = carryOver(facts);
  if (carried) {
    return {
      requirement: req(
        "pass",
        `carried over from ${short(carried.head_sha)}, accepted on the identical tree ${short(carried.tree_sha ?? "")} under the same config and agate version`,
      ),
      items: [],
      carriedOverFrom: carried.id,
    };
  }
  // A run still going: nothing for anyone to do but wait, so no work item.
  const waiting = facts.evidence.find((e) => e.waiting);
  if (waiting?.waiting)
    return { requirement: req("waiting", waiting.waiting), items: [], carriedOverFrom: null };
  const refused = facts.evidence.find((e) => e.refused);
  if (refused?.refused) {
    return {
      requirement: req("waiting", `no believable command record: ${refused.refused}`),
      items: [
        'Fix what made agate refuse the command record (under "Not believed" below), then push or re-run the evidence workflow',
      ],
      carriedOverFrom: null,
    };
  }
  const config = facts.config.status === "ok" ? facts.config.config : null;
  return {
    requirement: req(
      "waiting",
      config ? awaitedEvidence(config) : "no command record for this commit yet",
    ),
    items: [],
    carriedOverFrom: null,
  };
}

/**
 * An acceptance may carry over to a new head only when nothing it judged changed: another SHA
 * with the same tree, under the same config digest and agate version, on the same base commit.
 * The same SHA coming back (a force-push back to it) is graded afresh, never resurrected. The
 * base commit too (issue 26): an acceptance computed while the pull request targeted another
 * branch (the agent's own, holding its workflow and a copy of the config, so the same digest)
 * was never this base's, and a new commit of the same tree must not inherit it.
 */
function carryOver(facts: GateFacts): PriorRecord | undefined {
  if (!facts.head_tree_sha || facts.config.status !== "ok") return undefined;
  const digest = facts.config.digest;
  return facts.prior_records.find(
    (r) =>
      r.state === "accepted" &&
      r.head_sha !== facts.pull_request.head_sha &&
      r.base_sha === facts.pull_request.base_sha &&
      r.tree_sha === facts.head_tree_sha &&
      r.config_digest === digest &&
      r.agate_version === facts.agate_version,
  );
}

function protectedRequirement(facts: GateFacts, config: Config): Part {
  const changed = protectedChanges(facts.changed_files, config);
  const req = (status: Requirement["status"], reason: string, items: string[] = []): Part => ({
    requirement: { id: "protected_paths", name: "protected paths", status, reason },
    items,
  });
  const head = facts.pull_request.head_sha;
  // A listing that may have been cut could hide any protected path: not decidable, so a
  // maintainer decides, on this exact commit.
  if (!facts.changed_files_listing.complete) {
    return req(
      "waiting",
      `${facts.changed_files_listing.reason ?? "the file list is incomplete"}; only a maintainer can accept this exact commit`,
      [`Ask a maintainer to accept this exact commit with \`${overrideCommand(head)}\``],
    );
  }
  if (changed.length === 0) return req("pass", "no protected path changed");
  const approval = facts.approvals.find((a) => a.maintainer && a.commit_id === head);
  // Paths are the author's text: each one a code span, so none is read as Markdown or a mention.
  const list = changed.map((path) => codeSpan(path, 120)).join(", ");
  if (approval)
    return req("pass", `${list} changed; approved by ${approval.login} on ${short(head)}`);
  const stale = facts.approvals.find((a) => a.maintainer);
  const note = stale
    ? ` (${stale.login}'s approval is for ${short(stale.commit_id)}, an older commit)`
    : "";
  return req(
    "waiting",
    `changes ${list}: needs a maintainer's approving review of this commit${note}`,
    [`Ask a maintainer to review and approve ${short(head)}, which changes ${list}`],
  );
}

function evaluatorRequirement(facts: GateFacts, config: Config, ready: boolean): Part {
  const req = (status: Requirement["status"], reason: string, items: string[] = []): Part => ({
    requirement: { id: "evaluator", name: "evaluator", status, reason },
    items,
  });
  const evaluator = config.evaluator;
  if (evaluator.kind === "none") return req("pass", "none configured (evaluator.kind: none)");
  if (evaluator.kind === "review") return reviewRequirement(facts, req);
  if (!ready) {
    return req(
      "waiting",
      "asked only after every required command passed and the handoff file holds (no evaluator call yet)",
    );
  }
  const tree = short(facts.head_tree_sha ?? "");
  const fact = facts.evaluation;
  if (fact.status === "not_asked") return req("waiting", `asking the evaluator about tree ${tree}`);
  // The budget's name first, for the title; the detail (how much, until when) in the row.
  if (fact.status === "over_budget")
    return req("capped", `budgets.${fact.budget} reached: ${fact.detail}`, [
      `Wait, or ask a maintainer to raise budgets.${fact.budget} in ${facts.config.status === "ok" ? facts.config.path : "the config"} on the base branch`,
    ]);
  const { outcome, run } = fact.evaluation;
  const who = [run.kind, run.provider, run.model].filter(Boolean).join(" ");
  if (outcome.status === "failed") {
    // What failed in the row and the title; the fix once, as the work item.
    return req("blocked", `evaluator unavailable (${who}): ${outcome.error}`, [
      `Ask agate's operator to fix the evaluator: ${outcome.fix}. Then choose "Re-run evaluator" on this check`,
    ]);
  }
  const verdict = outcome.verdict;
  const min = evaluator.min_score;
  const reused =
    fact.evaluation.head_sha !== facts.pull_request.head_sha
      ? `, judged on ${short(fact.evaluation.head_sha)} with the identical tree`
      : "";
  if (verdict.complete && verdict.score >= min && verdict.missing.length === 0) {
    return req("pass", `complete, score ${verdict.score} ≥ ${min} (${who}${reused})`);
  }
  const why = [
    verdict.complete ? null : "not complete",
    verdict.score < min ? `score ${verdict.score} < ${min}` : `score ${verdict.score}`,
    verdict.missing.length > 0 ? counted(verdict.missing.length, "missing item") : null,
  ].filter(Boolean);
  return req(
    "fail",
    `${why.join(", ")} (${who}${reused})`,
    // The evaluator read what the agent wrote; its words are shown as code, never as Markdown.
    verdict.missing.length > 0
      ? verdict.missing.map((item) => codeSpan(item))
      : [
          `Finish the task and push: the evaluator did not sign off (${why.join(", ")}) but named nothing missing`,
        ],
  );
}

/**
 * The `review` evaluator: the sign-off is a maintainer's approval of the exact head (not the
 * author's, not a bot's); a maintainer's outstanding request for changes holds it, and its body
 * becomes the work items.
 */
function reviewRequirement(
  facts: GateFacts,
  req: (status: Requirement["status"], reason: string, items?: string[]) => Part,
): Part {
  const head = facts.pull_request.head_sha;
  const changes = facts.reviews.filter((r) => r.state === "CHANGES_REQUESTED" && r.maintainer);
  if (changes.length > 0) {
    const items = changes.flatMap((r) => reviewItems(r.login, r.body));
    return req(
      "fail",
      `changes requested by ${changes.map((r) => `${r.login} on ${short(r.commit_id)}`).join(", ")}`,
      items,
    );
  }
  const approvals = facts.reviews.filter((r) => r.state === "APPROVED");
  const onHead = approvals.find((r) => r.maintainer && r.commit_id === head);
  if (onHead) return req("pass", `approved by ${onHead.login} on ${short(head)}`);
  const notes = approvals.map((r) =>
    !r.maintainer
      ? `${r.login}'s approval does not count (${r.login.endsWith("[bot]") ? "a bot" : "not a maintainer, or the author"})`
      : `${r.login}'s approval is for ${short(r.commit_id)}, an older commit`,
  );
  return req(
    "waiting",
    `needs a maintainer's approving review of this commit${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`,
    [`Ask a maintainer to review and approve ${short(head)}`],
  );
}

/** A review body as work items: its list items when it has any, else the whole text. */
function reviewItems(login: string, body: string): string[] {
  const items = body
    .split("\n")
    .map((line) => /^\s*(?:[-*+]|\d+[.)])\s+(?:\[ \]\s+)?(.+)$/.exec(line)?.[1]?.trim())
    .filter((item): item is string => Boolean(item));
  if (items.length > 0) return items.map((item) => codeSpan(item));
  const text = body.trim();
  return [
    text === ""
      ? `Address the changes ${login} requested`
      : `Address what ${login} asked for: ${codeSpan(text)}`,
  ];
}

function handoffRequirement(
  facts: GateFacts,
  config: Config,
  record: CommandRecord | null,
): Part & { check: HandoffCheck | null } {
  const path = config.handoff.path;
  const req = (status: Requirement["status"], reason: string, items: string[] = []) => ({
    requirement: { id: "handoff" as const, name: "handoff file", status, reason },
    items,
  });
  if (!facts.handoff) return { ...req("pass", "not read"), check: null };
  const requiredBy = handoffRequiredBy(config.handoff.required_when, {
    labels: facts.pull_request.labels,
    facts: facts.handoff,
  });
  const check = verifyHandoff({
    path,
    requiredBy,
    facts: facts.handoff,
    headRef: facts.pull_request.head_ref,
    changedFiles: facts.changed_files,
    record,
  });
  const why = `required by ${requiredBy.join(", ")}`;
  if (requiredBy.length === 0) {
    const note = check.blob_sha
      ? check.findings.length > 0
        ? `; ${path} is there with ${counted(check.findings.length, "finding")} (informational)`
        : `; ${path} is there and agrees with the pull request`
      : "";
    return {
      ...req("pass", `not required: no rule of handoff.required_when applies${note}`),
      check,
    };
  }
  if (!check.blob_sha) {
    return {
      ...req("fail", `${why}, but ${path} is not at the head commit`, [
        `Write ${path} and commit it: \`${AGATE_CLI} run\` then \`${AGATE_CLI} handoff --task "<the task>"\` fill it from the branch (${why})`,
      ]),
      check,
    };
  }
  if (check.findings.length > 0) {
    return {
      ...req(
        "fail",
        `${path} does not agree with the pull request (${why}): ${counted(check.findings.length, "finding")}`,
        check.findings.map((f) => `Fix ${path}: ${f}`),
      ),
      check,
    };
  }
  if (!record) {
    return {
      ...req(
        "waiting",
        `${path} agrees so far (${why}); its last command is checked against agate's command record of the head when it is in`,
      ),
      check,
    };
  }
  if (check.status === "blocked") {
    return {
      ...req("blocked", `${path} says status: blocked; its next step and open items say on what`, [
        `Resolve what ${path} says it is blocked on (its next step and open items), then set status: ready`,
      ]),
      check,
    };
  }
  if (check.status !== "ready") {
    return {
      ...req(
        "waiting",
        `${path} says status: ${check.status ?? "unknown"}; set status: ready when the task is done`,
        [`Set status: ready in ${path} once the task is done`],
      ),
      check,
    };
  }
  return {
    ...req("pass", `${path} is present, valid and true to the pull request (${why})`),
    check,
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
