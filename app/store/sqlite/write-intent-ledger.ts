/**
 * The WriteIntentLedger port on SQLite (../ports/write-intent-ledger.ts says what it promises).
 * Each call is one immediate transaction.
 */
import type { WriteIntent } from "../../../schemas/store.js";
import type { WriteIntentLedger } from "../ports/write-intent-ledger.js";
import * as intentRows from "../rows/write-intent-ledger.js";
import type { Row, SqliteContext } from "./context.js";

export class SqliteWriteIntents implements WriteIntentLedger {
  constructor(private readonly c: SqliteContext) {}

  #byKey(key: string): WriteIntent | null {
    const row = this.c
      .sql(`SELECT ${intentRows.WRITE_INTENT_COLUMNS} FROM write_intents WHERE key = ?`)
      .get(key) as Row | undefined;
    return row === undefined ? null : intentRows.writeIntentFromRow(row);
  }

  recordWriteIntent: WriteIntentLedger["recordWriteIntent"] = async (input) => {
    const intent = intentRows.intentInput(input);
    return this.c.write(() => {
      const { changes } = this.c
        .sql(
          `INSERT INTO write_intents
             (key, scope, repository, target, kind, body, marker, recorded_at)
           VALUES (@key, @scope, @repository, @target, @kind, @body, @marker, @recorded_at)
           ON CONFLICT (key) DO NOTHING`,
        )
        .run({ ...intent, recorded_at: this.c.nowIso() });
      return { intent: this.#byKey(intent.key) as WriteIntent, created: changes === 1 };
    });
  };

  completeWriteIntent: WriteIntentLedger["completeWriteIntent"] = async (query) => {
    const { key, githubId } = intentRows.completionInput(query);
    return this.c.write(() => {
      this.c
        .sql(
          `UPDATE write_intents SET github_id = ?, done_at = ?
           WHERE key = ? AND github_id IS NULL`,
        )
        .run(githubId, this.c.nowIso(), key);
      return intentRows.checkCompleted(this.#byKey(key), key, githubId);
    });
  };

  listPendingWriteIntents: WriteIntentLedger["listPendingWriteIntents"] = async (query) => {
    const rows = this.c
      .sql(
        `SELECT ${intentRows.WRITE_INTENT_COLUMNS} FROM write_intents
         WHERE scope = ? AND github_id IS NULL ORDER BY id`,
      )
      .all(query.scope) as Row[];
    return rows.map(intentRows.writeIntentFromRow);
  };
}
