/**
 * Evaluations: append-only, one per evaluator call; a verdict binds to the tree it judged, on the
 * base commit it judged it against.
 */
import type { Evaluation, EvaluationInput } from "../../../schemas/evaluation.js";
import type { PullRequestKey } from "./keys.js";

export interface ListEvaluationsQuery extends PullRequestKey {
  treeSha?: string;
  /** ISO time: keeps those at or after it, for the per-day budget. */
  since?: string;
}

export interface EvaluationStore {
  /** InvalidInputError when the input is outside the schema; nothing is written then. */
  appendEvaluation(input: EvaluationInput): Promise<Evaluation>;
  /** Oldest first. */
  listEvaluations(query: ListEvaluationsQuery): Promise<Evaluation[]>;
}
