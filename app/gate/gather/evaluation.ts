/**
 * The evaluator's stored reads after the tree's evaluation (app/gate/evaluation-facts.ts), when
 * the read plan asks for them (checks/gate/reads.ts `evaluations`): whether to ask now, and, only
 * when it is due, the pull request's evaluations of the day. The budget rules are
 * checks/evaluator/budget.ts'.
 */
import type { Config } from "../../../schemas/config.js";
import type { EvaluationFact, GatheredFacts } from "../../../schemas/gate.js";
import type { EvaluationStore } from "../../store/ports/evaluation-store.js";
import { dailyBudgetSpent, evaluatorIsDue } from "../evaluation-facts.js";

/**
 * Whether the evaluator is asked in this pass, and the evaluation fact then: a pull request
 * whose evaluator calls of the last 24 hours spent the day's budget is not asked, and says so.
 */
export async function evaluatorDueNow(
  store: EvaluationStore,
  facts: GatheredFacts,
  config: Config,
  rerun: boolean,
  now: () => Date,
): Promise<{ due: boolean; evaluation: EvaluationFact }> {
  if (!(await evaluatorIsDue(store, facts, config, rerun))) {
    return { due: false, evaluation: facts.evaluation };
  }
  const spent = await dailyBudgetSpent(store, facts.pull_request, config, now());
  return spent ? { due: false, evaluation: spent } : { due: true, evaluation: facts.evaluation };
}
