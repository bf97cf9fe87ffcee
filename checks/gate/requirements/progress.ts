/**
 * The progress requirement: past the attempts budget a head is not graded, and failures that
 * make no progress stall the pull request (the rules in checks/gate/progress.ts).
 */
import type { AttemptFact, GateFacts, Requirement } from "../../../schemas/gate.js";
import { codeSpan } from "../../markdown.js";
import { overrideCommand } from "../listing.js";
import {
  type Attempt,
  attemptOfRecord,
  cappedReason,
  noProgressStreak,
  replayedFailure,
  type Stall,
  stalledReason,
} from "../progress.js";
import { believedRecord } from "./commands.js";
import { type Part, requirementOf } from "./part.js";

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
  const req = requirementOf("progress", "progress");
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

/** The progress requirement with its work, when capped or stalled holds. */
export function progressPart(facts: GateFacts, progress: ProgressView): Part | null {
  if (!progress.requirement) return null;
  return { requirement: progress.requirement, items: progressItems(facts, progress) };
}
