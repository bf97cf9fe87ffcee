/**
 * What the store says about the evaluator for one pull request's head tree: its stored verdict
 * under this config and prompt version, whether to ask now, and the daily budget (gather.ts).
 */
import {
  answeringEvaluation,
  dailyBudget,
  dayStart,
  evaluationFact,
  evaluatorDue,
} from "../../checks/evaluator/budget.js";
import type { Config } from "../../schemas/config.js";
import type { EvaluationFact, GatheredFacts, PullRequestSnapshot } from "../../schemas/gate.js";
import type { EvaluationStore } from "../store/ports/evaluation-store.js";

/**
 * The stored evaluation that answers the head's tree on the pull request's base commit
 * (checks/evaluator/budget.ts), a bundle found over budget included. `mergeBaseSha`: the pass's
 * comparison's, where the diff the evaluator would be shown starts.
 */
export async function storedEvaluation(
  store: EvaluationStore,
  pr: PullRequestSnapshot,
  treeSha: string | null,
  mergeBaseSha: string,
  configDigest: string,
): Promise<EvaluationFact> {
  if (!treeSha) return { status: "not_asked" };
  const stored = await store.listEvaluations({
    repository: pr.repository,
    pullNumber: pr.number,
    treeSha,
  });
  const at = { headSha: pr.head_sha, baseSha: pr.base_sha, mergeBaseSha };
  return evaluationFact(answeringEvaluation(stored, at, configDigest));
}

/** Whether to ask now (checks/evaluator/budget.ts): the tree's evaluations count on a re-run. */
export async function evaluatorIsDue(
  store: EvaluationStore,
  facts: Pick<GatheredFacts, "pull_request" | "evaluation">,
  config: Config,
  rerun: boolean,
): Promise<boolean> {
  const fact = facts.evaluation;
  const sameTree =
    rerun && fact.status === "judged"
      ? await store.listEvaluations({
          repository: facts.pull_request.repository,
          pullNumber: facts.pull_request.number,
          treeSha: fact.evaluation.tree_sha,
        })
      : [];
  return evaluatorDue(fact, rerun, sameTree, config);
}

/** The pull request's evaluator calls in the last 24 hours, when they reached the day's budget. */
export async function dailyBudgetSpent(
  store: EvaluationStore,
  pr: PullRequestSnapshot,
  config: Config,
  now: Date,
): Promise<EvaluationFact | null> {
  const key = { repository: pr.repository, pullNumber: pr.number };
  return dailyBudget(await store.listEvaluations({ ...key, since: dayStart(now) }), config, now);
}
