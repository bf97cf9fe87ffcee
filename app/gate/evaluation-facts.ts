/**
 * What the store says about the evaluator for one pull request's head tree: its stored verdict
 * under this config and prompt version, whether to ask now, and the daily budget (gather.ts).
 */
import { counted } from "../../checks/markdown.js";
import type { Config } from "../../schemas/config.js";
import { EVALUATOR_PROMPT_VERSION } from "../../schemas/evaluation.js";
import type { EvaluationFact, GateFacts, PullRequestSnapshot } from "../../schemas/gate.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { EvaluationStore } from "../store/ports/evaluation-store.js";

/** The evaluator found a tree's bundle over budget: no call, and no evaluation, was made. */
export const BUNDLE_OVER_BUDGET = "gate.evaluator.over_budget";
export const bundleSubject = (pr: { repository: string; number: number }, treeSha: string) =>
  `${pr.repository}#${pr.number}@tree:${treeSha}`;

/**
 * The stored evaluation of the head's tree under this config and prompt version: a verdict
 * binds to the tree it judged, so a new SHA with the same tree reuses it, when that SHA was
 * decided on the same base commit (`records`: the pull request's). The evaluator read the diff
 * against the base of its time: a verdict given while the pull request targeted another branch
 * (the agent's own, with a copy of the config) judged another diff (issue 26).
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
  const sameBase = (head: string) =>
    head === pr.head_sha || records.some((r) => r.head_sha === head && r.base_sha === pr.base_sha);
  const latest = stored
    .filter(
      (e) =>
        e.config_digest === configDigest &&
        e.run.prompt_version === EVALUATOR_PROMPT_VERSION &&
        sameBase(e.head_sha),
    )
    .at(-1);
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

/**
 * Whether to ask now: nothing is stored for this tree, or a person asked again after a failure,
 * or asked again about a verdict while the per-tree budget allows another call.
 */
export async function evaluatorIsDue(
  store: EvaluationStore,
  facts: GateFacts,
  config: Config,
  rerun: boolean,
): Promise<boolean> {
  const fact = facts.evaluation;
  if (fact.status === "not_asked") return true;
  if (!rerun || fact.status !== "judged") return false;
  if (fact.evaluation.outcome.status === "failed") return true;
  const sameTree = await store.listEvaluations({
    repository: facts.pull_request.repository,
    pullNumber: facts.pull_request.number,
    treeSha: fact.evaluation.tree_sha,
  });
  const verdicts = sameTree.filter(
    (e) => e.outcome.status === "verdict" && e.config_digest === fact.evaluation.config_digest,
  ).length;
  return verdicts < config.budgets.evaluator_calls_per_tree;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Evaluator calls (requests actually sent) for the pull request in the last 24 hours, over budget. */
export async function dailyBudgetSpent(
  store: EvaluationStore,
  pr: PullRequestSnapshot,
  config: Config,
  now: Date,
): Promise<EvaluationFact | null> {
  const budget = config.budgets.evaluator_calls_per_pr_per_day;
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const today = (
    await store.listEvaluations({ repository: pr.repository, pullNumber: pr.number, since })
  ).filter((e) => e.run.requests > 0);
  if (today.length < budget) return null;
  const oldest = today[0]?.at ?? now.toISOString();
  return {
    status: "over_budget",
    budget: "evaluator_calls_per_pr_per_day",
    detail: `${counted(today.length, "evaluator call")} for this pull request in the last 24 h reached budgets.evaluator_calls_per_pr_per_day (${budget}); raise it in .github/agate.yml on the base branch, or wait until ${new Date(Date.parse(oldest) + DAY_MS).toISOString()}`,
  };
}
