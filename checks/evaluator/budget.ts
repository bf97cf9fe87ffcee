/**
 * Whether the evaluator is asked, written once for the pass that decides to ask
 * (app/gate/evaluation-facts.ts) and the job that asks (app/gate/evaluator-job.ts): a tree
 * already answered is not asked again, and three budgets hold: calls per tree (a person's
 * re-run), calls per pull request per day, tokens per bundle. Pure: the stored evaluations and
 * the time are facts handed in, never read here.
 */
import type { Config } from "../../schemas/config.js";
import {
  EVALUATOR_PROMPT_VERSION,
  type Evaluation,
  type EvaluationBundle,
  type EvaluationOutcome,
} from "../../schemas/evaluation.js";
import type { EvaluationFact } from "../../schemas/gate.js";
import { counted } from "../markdown.js";

/** The day of budgets.evaluator_calls_per_pr_per_day: the 24 hours before now, not a date. */
export const DAY_MS = 24 * 60 * 60 * 1000;

export type OverBudget = Extract<EvaluationFact, { status: "over_budget" }>;

/** Where the pull request is now: its head, its base commit, and GitHub's merge base of the two. */
export interface EvaluatedAt {
  headSha: string;
  baseSha: string;
  /** null: not known here; then only a verdict on this same head answers. */
  mergeBaseSha: string | null;
}

/**
 * The stored evaluation that answers the head's tree on the pull request's base commit, if any:
 * the newest under this config and prompt version. A verdict binds to the tree it judged, so a
 * new SHA with the same tree reuses it, and to the base commit it was judged against: the
 * evaluator read the diff against that base, and its instructions and rubric from it. A verdict
 * given while the pull request targeted another branch (the agent's own, with a copy of the
 * config: the same digest) judged another diff, and answers nothing on this base, for the same
 * head too (issue 26). One stored before agate kept its base (null) answers nothing: the tree is
 * asked once more.
 *
 * The diff it was shown ran from GitHub's merge base to the head, and the merge base follows
 * the head's history, which the agent writes: a head built on an older commit of the base that
 * still held code a later commit removed shows that code as unchanged, while a head of the same
 * tree on the newest commit shows it put back. So a verdict on another head answers only from
 * the same merge base; the same head on the same base commit has the same merge base.
 */
export function answeringEvaluation(
  sameTree: readonly Evaluation[],
  at: EvaluatedAt,
  configDigest: string,
): Evaluation | null {
  return (
    sameTree
      .filter(
        (e) =>
          e.base_sha === at.baseSha &&
          (e.head_sha === at.headSha ||
            (e.merge_base_sha !== null && e.merge_base_sha === at.mergeBaseSha)) &&
          e.config_digest === configDigest &&
          e.run.prompt_version === EVALUATOR_PROMPT_VERSION,
      )
      .at(-1) ?? null
  );
}

/**
 * What the evaluator requirement reads of the evaluation that answers the tree: a bundle found
 * over budgets.evaluator_bundle_tokens is over budget (capped, and not asked again under this
 * config), anything else is judged.
 */
export function evaluationFact(answering: Evaluation | null): EvaluationFact {
  if (!answering) return { status: "not_asked" };
  const outcome = answering.outcome;
  if (outcome.status === "over_budget") {
    return { status: "over_budget", budget: outcome.budget, detail: outcome.detail };
  }
  return { status: "judged", evaluation: answering };
}

/**
 * Whether to ask about the head's tree now: nothing answers it yet on this base, or a person
 * asked again ("Re-run evaluator") after a failure, or about a verdict while
 * budgets.evaluator_calls_per_tree allows another call. `sameTree`: the tree's stored
 * evaluations, counted only for that re-run, on every base: it is a spend limit, and a retarget
 * must not refill it. A base nothing answers on is asked once all the same (a verdict judged
 * against another base is not this one's); calls per day bound those.
 */
export function evaluatorDue(
  fact: EvaluationFact,
  rerun: boolean,
  sameTree: readonly Evaluation[],
  config: Config,
): boolean {
  if (fact.status === "not_asked") return true;
  if (!rerun || fact.status !== "judged") return false;
  if (fact.evaluation.outcome.status === "failed") return true;
  const verdicts = sameTree.filter(
    (e) => e.outcome.status === "verdict" && e.config_digest === fact.evaluation.config_digest,
  ).length;
  return verdicts < config.budgets.evaluator_calls_per_tree;
}

/** Where the day's window starts: the pull request's evaluations since then are the day's. */
export function dayStart(now: Date): string {
  return new Date(now.getTime() - DAY_MS).toISOString();
}

/**
 * budgets.evaluator_calls_per_pr_per_day: null while the day's calls are under it; over budget,
 * saying when it opens again, once they reach it. `day`: the pull request's stored evaluations
 * since dayStart(now), oldest first. Only a call that sent a request counts: a refusal by the
 * operator's policy, or an App without an evaluator, cost nothing.
 */
export function dailyBudget(
  day: readonly Evaluation[],
  config: Config,
  now: Date,
): OverBudget | null {
  const budget = config.budgets.evaluator_calls_per_pr_per_day;
  const calls = day.filter((e) => e.run.requests > 0);
  if (calls.length < budget) return null;
  // The window opens again when enough of its calls have left it to go under the budget: with
  // more calls than the budget (a budget lowered), that is not the oldest one.
  const oldest = calls[calls.length - budget]?.at ?? now.toISOString();
  return {
    status: "over_budget",
    budget: "evaluator_calls_per_pr_per_day",
    detail: `${counted(calls.length, "evaluator call")} for this pull request in the last 24 h reached budgets.evaluator_calls_per_pr_per_day (${budget}); raise it in .github/agate.yml on the base branch, or wait until ${new Date(Date.parse(oldest) + DAY_MS).toISOString()}`,
  };
}

/**
 * budgets.evaluator_bundle_tokens: null when the bundle, cut down, fits; otherwise the outcome
 * stored for the tree (nothing is sent), which the capped row shows. Nothing is asked then,
 * however often the tree comes back under this config.
 */
export function bundleOverBudget(
  budget: EvaluationBundle["budget"],
): Extract<EvaluationOutcome, { status: "over_budget" }> | null {
  if (budget.estimated_tokens <= budget.token_limit) return null;
  return {
    status: "over_budget",
    budget: "evaluator_bundle_tokens",
    detail: `even cut down, what the evaluator must see is about ${budget.estimated_tokens} tokens, over budgets.evaluator_bundle_tokens (${budget.token_limit}); raise it in .github/agate.yml on the base branch`,
    estimated_tokens: budget.estimated_tokens,
    token_limit: budget.token_limit,
  };
}
