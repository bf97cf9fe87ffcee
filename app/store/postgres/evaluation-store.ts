/** The EvaluationStore port on PostgreSQL (../ports/evaluation-store.ts says what it promises). */
import type { EvaluationStore } from "../ports/evaluation-store.js";
import * as evaluationRows from "../rows/evaluation-store.js";
import type { PostgresContext } from "./context.js";

export class PostgresEvaluationStore implements EvaluationStore {
  constructor(private readonly c: PostgresContext) {}

  appendEvaluation: EvaluationStore["appendEvaluation"] = async (input) => {
    const evaluation = evaluationRows.evaluationInput(input);
    const [row] = await this.c.rows<{ id: number }>(
      `INSERT INTO evaluations
         (repository, pull_number, head_sha, base_sha, merge_base_sha, tree_sha, config_digest,
          run, outcome, status, at, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
      evaluationRows.evaluationParams(evaluation, this.c.nowIso()),
    );
    return { id: row?.id as number, ...evaluation };
  };

  listEvaluations: EvaluationStore["listEvaluations"] = async (query) => {
    // `since` compares instants (an offset-written time is placed right), as SQLite does.
    const rows = await this.c.rows(
      `SELECT ${evaluationRows.EVALUATION_COLUMNS} FROM evaluations
       WHERE repository = $1 AND pull_number = $2
         AND ($3::text IS NULL OR tree_sha = $3::text)
         AND ($4::timestamptz IS NULL OR at::timestamptz >= $4::timestamptz)
       ORDER BY id`,
      Object.values(evaluationRows.evaluationFilter(query)),
    );
    return rows.map(evaluationRows.evaluationFromRow);
  };
}
