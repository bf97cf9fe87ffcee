/** The EvaluationStore port on SQLite (../ports/evaluation-store.ts says what it promises). */
import type { EvaluationStore } from "../ports/evaluation-store.js";
import * as evaluationRows from "../rows/evaluation-store.js";
import type { Row, SqliteContext } from "./context.js";

export class SqliteEvaluationStore implements EvaluationStore {
  constructor(private readonly c: SqliteContext) {}

  appendEvaluation: EvaluationStore["appendEvaluation"] = async (input) => {
    const evaluation = evaluationRows.evaluationInput(input);
    return this.c.write(() => {
      const { id } = this.c
        .sql(
          `INSERT INTO evaluations (repository, pull_number, head_sha, base_sha, merge_base_sha,
           tree_sha, config_digest, run, outcome, status, at, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .get(...evaluationRows.evaluationParams(evaluation, this.c.nowIso())) as { id: number };
      return { id, ...evaluation };
    });
  };

  listEvaluations: EvaluationStore["listEvaluations"] = async (query) => {
    // Instants, as PostgreSQL compares them: an evaluation's `at` keeps the offset it was
    // written with, and text order is time order only for one offset.
    const rows = this.c
      .sql(
        `SELECT ${evaluationRows.EVALUATION_COLUMNS} FROM evaluations
       WHERE repository = @repository AND pull_number = @pull_number
         AND (@tree IS NULL OR tree_sha = @tree)
         AND (@since IS NULL OR unixepoch(at, 'subsec') >= unixepoch(@since, 'subsec'))
       ORDER BY id`,
      )
      .all(evaluationRows.evaluationFilter(query)) as Row[];
    return rows.map(evaluationRows.evaluationFromRow);
  };
}
