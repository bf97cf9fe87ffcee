/** The evaluations' rows on either backend. */
import {
  type Evaluation,
  type EvaluationInput,
  evaluationInputSchema,
  evaluationSchema,
} from "../../../schemas/evaluation.js";
import { isoDateTimeSchema } from "../../../schemas/primitives.js";
import type { ListEvaluationsQuery } from "../ports/evaluation-store.js";
import { inputOf, parseInput, parseRowWithJson } from "../validate.js";

export const EVALUATION_COLUMNS =
  "id, repository, pull_number, head_sha, base_sha, merge_base_sha, tree_sha, config_digest, run, outcome, at";

/** An evaluation's columns, in the order of the INSERT's parameters. */
export function evaluationParams(evaluation: EvaluationInput, recordedAt: string) {
  return [
    evaluation.repository,
    evaluation.pull_number,
    evaluation.head_sha,
    evaluation.base_sha,
    evaluation.merge_base_sha,
    evaluation.tree_sha,
    evaluation.config_digest,
    JSON.stringify(evaluation.run),
    JSON.stringify(evaluation.outcome),
    evaluation.outcome.status,
    evaluation.at,
    recordedAt,
  ];
}

/** A query's values, in the order of the filter's parameters on PostgreSQL ($1..$4). */
export function evaluationFilter(query: ListEvaluationsQuery) {
  return {
    repository: query.repository,
    pull_number: query.pullNumber,
    tree: query.treeSha ?? null,
    since:
      query.since === undefined
        ? null
        : parseInput(isoDateTimeSchema, query.since, "evaluations since"),
  };
}

export function evaluationFromRow(row: Record<string, unknown>): Evaluation {
  return parseRowWithJson(evaluationSchema, row, "evaluations", ["run", "outcome"]);
}

export const evaluationInput = inputOf(evaluationInputSchema, "evaluation");
