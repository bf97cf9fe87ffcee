/**
 * What the store says about the evaluator for one pull request's head tree: its stored verdict
 * under this config and prompt version, whether to ask now, and the daily budget (gather.ts).
 */
import {
  answeringEvaluation,
  dailyBudget,
  dayStart,
  evaluatorDue,
} from "../../checks/evaluator/budget.js";
import type { Config } from "../../schemas/config.js";
import type { EvaluationFact, GateFacts, PullRequestSnapshot } from "../../schemas/gate.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { EvaluationStore } from "../store/ports/evaluation-store.js";

/** The evaluator found a tree's bundle over budget: no call, and no evaluation, was made. */
export const BUNDLE_OVER_BUDGET = "gate.evaluator.over_budget";
export const bundleSubject = (pr: { repository: string; number: number }, treeSha: string) =>
  `${pr.repository}#${pr.number}@tree:${treeSha}`;

/**
 * The stored evaluation that answers the head's tree (checks/evaluator/budget.ts), or the bundle
 * found over budget for it; `records`: the pull request's.
 */
export async function storedEvaluation(
  store: EvaluationStore & AuditLog,
  pr: PullRequestSnapshot,
  treeSha: string | null,
  configDigest: string,
  records: readonly { head_sha: string; base_sha: string }[] = [],
): Promise<EvaluationFact> {
  if (!treeSha) return { status: "not_asked" };
  const stored = await store.listEvaluations({
    repository: pr.repository,
    pullNumber: pr.number,
    treeSha,
  });
  const latest = answeringEvaluation(stored, pr, configDigest, records);
  if (latest) return { status: "judged", evaluation: latest };
  // A tree whose bundle was over the token budget stays so until the config (its digest) changes.
  const [over] = await store.listAudit({
    kind: BUNDLE_OVER_BUDGET,
    subject: bundleSubject(pr, treeSha),
    order: "desc",
    limit: 1,
  });
  const found = over?.decision as { config_digest?: string; detail?: string } | undefined;
  if (found?.config_digest === configDigest && found.detail) {
    return { status: "over_budget", budget: "evaluator_bundle_tokens", detail: found.detail };
  }
  return { status: "not_asked" };
}

/** Whether to ask now (checks/evaluator/budget.ts): the tree's evaluations count on a re-run. */
export async function evaluatorIsDue(
  store: EvaluationStore,
  facts: GateFacts,
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
