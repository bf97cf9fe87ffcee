/**
 * Progress of one pull request across its graded attempts: busy is not progress. A graded
 * attempt is a head with a believed command record, or a head whose unchanged tree replayed an
 * earlier failure. Pure: the attempts come from the stored records (app/gate/gather.ts).
 *
 * - capped: past `budgets.graded_attempts_per_pr` graded heads, a new head is not graded;
 * - replay: a head whose tree (and base, config and agate version) equals an earlier failed
 *   attempt's is not graded again; the stored failure stands, and the attempt counts;
 * - stalled: `budgets.unchanged_failures_before_stalled` failed attempts in a row without
 *   progress. An attempt makes no progress when its failure (the failing commands and the digest
 *   of their normalised output) or its tree was already seen since the last progress: a repeated
 *   failure, and an edit → revert oscillation (trees A, B, A, B), are the same thing here.
 */
import type { CommandRecord } from "../../schemas/command-record.js";
import type { Config } from "../../schemas/config.js";
import { ATTEMPT_TAIL_CHARS, type AttemptFact, type GateFacts } from "../../schemas/gate.js";
import { outcomePassed } from "../command-results.js";
import { counted, shortSha as short } from "../markdown.js";

export type AttemptFailure = AttemptFact["failures"][number];

/** What progress is judged on: an attempt's head, tree, failures and open evaluator items. */
export type Attempt = Pick<
  AttemptFact,
  "head_sha" | "head_tree_sha" | "failures" | "passed" | "missing"
>;

/** The current head as an attempt, from its believed record. */
export function attemptOfRecord(
  facts: Pick<GateFacts, "pull_request" | "head_tree_sha">,
  record: CommandRecord,
  missing: string[] | null,
): Attempt {
  return {
    head_sha: facts.pull_request.head_sha,
    head_tree_sha: facts.head_tree_sha,
    failures: failuresOf(record.commands),
    passed: record.commands.filter(outcomePassed).map((c) => c.name),
    missing,
  };
}

/** The failing commands of a record, as an attempt keeps them. */
export function failuresOf(
  commands: readonly Pick<
    CommandRecord["commands"][number],
    "name" | "exit_code" | "timed_out" | "signal" | "output"
  >[],
): AttemptFailure[] {
  return commands
    .filter((c) => !outcomePassed(c))
    .map((c) => ({
      name: c.name,
      exit_code: c.exit_code,
      timed_out: c.timed_out,
      output_digest: c.output.normalized_sha256,
      tail: c.output.tail.slice(-ATTEMPT_TAIL_CHARS),
    }));
}

/**
 * The earlier failed attempt whose failure the head replays: the same head tree on the same base,
 * graded under the same config and agate version. Its newest such attempt, or null.
 */
export function replayedFailure(
  facts: Pick<GateFacts, "pull_request" | "head_tree_sha" | "agate_version" | "attempts">,
  configDigest: string,
): AttemptFact | null {
  const tree = facts.head_tree_sha;
  if (!tree) return null;
  return (
    facts.attempts.findLast(
      (a) =>
        a.failures.length > 0 &&
        a.head_tree_sha === tree &&
        a.base_sha === facts.pull_request.base_sha &&
        a.config_digest === configDigest &&
        a.agate_version === facts.agate_version,
    ) ?? null
  );
}

/** The failure, as one comparable key: which commands failed and with what normalised output. */
const signatureOf = (attempt: Attempt) =>
  attempt.failures
    .map((f) => `${f.name}\u0000${f.output_digest}`)
    .sort()
    .join("\u0001");

export interface Stall {
  /** Failed attempts in a row without progress, the current one included. */
  streak: number;
  /** The attempts of the streak, oldest first. */
  attempts: Attempt[];
  /** What the pull request achieved before it stalled, in words. */
  achieved: string[];
}

/**
 * The trailing run of failed attempts without progress, ending with `current`. The first failure
 * of the run counts as one; each later one counts when its failure or its tree was already seen
 * since the last attempt that made progress (passed, or failed in a new way on a new tree).
 */
export function noProgressStreak(earlier: readonly Attempt[], current: Attempt): Stall {
  const all: Attempt[] = [...earlier, current];
  let start = all.length - 1;
  // Walk back while attempts failed; the run starts after the last passing attempt.
  while (start > 0 && (all[start - 1]?.failures.length ?? 0) > 0) start--;
  const run = all.slice(start);
  let streakStart = 0;
  const signatures = new Set<string>();
  const trees = new Set<string>();
  run.forEach((attempt, index) => {
    const signature = signatureOf(attempt);
    const tree = attempt.head_tree_sha;
    const repeated = signatures.has(signature) || (tree !== null && trees.has(tree));
    // Progress: a failure never seen on a tree never seen. The streak restarts here.
    if (!repeated && index > 0) streakStart = index;
    signatures.add(signature);
    if (tree) trees.add(tree);
  });
  const streak = run.slice(streakStart);
  return {
    streak: current.failures.length > 0 ? streak.length : 0,
    attempts: streak,
    achieved: achievedBefore(all, current),
  };
}

/**
 * What changed for the better over the pull request's attempts: commands that failed in an
 * earlier attempt and pass now, and evaluator items open in an earlier verdict and closed in the
 * newest one (attempts the evaluator did not judge say nothing about its items).
 */
function achievedBefore(all: readonly Attempt[], current: Attempt): string[] {
  const everFailed = new Set(all.slice(0, -1).flatMap((a) => a.failures.map((f) => f.name)));
  const nowPassing = current.passed.filter((name) => everFailed.has(name));
  const judged = all.filter((a) => a.missing !== null);
  const latest = judged.at(-1)?.missing ?? [];
  const earlier = new Set(judged.slice(0, -1).flatMap((a) => a.missing ?? []));
  const done = [...earlier].filter((item) => !latest.includes(item));
  return [
    ...nowPassing.map((name) => `${name} passes now (it failed in an earlier attempt)`),
    ...done.map((item) => `no longer missing: ${item}`),
  ];
}

/** The budget's words when the pull request has used its graded attempts. */
export function cappedReason(config: Config, graded: number): string {
  const budget = config.budgets.graded_attempts_per_pr;
  // The way out (raise the budget, or a maintainer accepts the commit) is the work item.
  return `${counted(graded, "graded attempt")} used, all of budgets.graded_attempts_per_pr (${budget}); this head is not graded`;
}

/** The words for a stalled pull request's requirement. */
export function stalledReason(stall: Stall): string {
  const heads = stall.attempts.map((a) => short(a.head_sha)).join(", ");
  // Short: it is the title too. What counts as no progress, and the limit, are in the work item.
  return `${counted(stall.streak, "failed attempt")} in a row without progress (${heads})`;
}
