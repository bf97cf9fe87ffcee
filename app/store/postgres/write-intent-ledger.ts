/**
 * The WriteIntentLedger port on PostgreSQL (../ports/write-intent-ledger.ts says what it
 * promises). Two replicas recording the same key at once: the second INSERT waits on the first's
 * unique entry, then does nothing, and reads the first's row.
 */
import type { WriteIntent } from "../../../schemas/store.js";
import type { WriteIntentLedger } from "../ports/write-intent-ledger.js";
import * as intentRows from "../rows/write-intent-ledger.js";
import type { PostgresContext } from "./context.js";

export class PostgresWriteIntents implements WriteIntentLedger {
  constructor(private readonly c: PostgresContext) {}

  async #byKey(key: string): Promise<WriteIntent | null> {
    const [row] = await this.c.rows(
      `SELECT ${intentRows.WRITE_INTENT_COLUMNS} FROM write_intents WHERE key = $1`,
      [key],
    );
    return row ? intentRows.writeIntentFromRow(row) : null;
  }

  recordWriteIntent: WriteIntentLedger["recordWriteIntent"] = async (input) => {
    const intent = intentRows.intentInput(input);
    const [inserted] = await this.c.rows(
      `INSERT INTO write_intents (key, scope, repository, target, kind, body, marker, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (key) DO NOTHING RETURNING ${intentRows.WRITE_INTENT_COLUMNS}`,
      [
        intent.key,
        intent.scope,
        intent.repository,
        intent.target,
        intent.kind,
        intent.body,
        intent.marker,
        this.c.nowIso(),
      ],
    );
    if (inserted) return { intent: intentRows.writeIntentFromRow(inserted), created: true };
    return { intent: (await this.#byKey(intent.key)) as WriteIntent, created: false };
  };

  completeWriteIntent: WriteIntentLedger["completeWriteIntent"] = async (query) => {
    const { key, githubId } = intentRows.completionInput(query);
    const [updated] = await this.c.rows(
      `UPDATE write_intents SET github_id = $2, done_at = $3
       WHERE key = $1 AND github_id IS NULL RETURNING ${intentRows.WRITE_INTENT_COLUMNS}`,
      [key, githubId, this.c.nowIso()],
    );
    return intentRows.checkCompleted(
      updated ? intentRows.writeIntentFromRow(updated) : await this.#byKey(key),
      key,
      githubId,
    );
  };

  listPendingWriteIntents: WriteIntentLedger["listPendingWriteIntents"] = async (query) => {
    const rows = await this.c.rows(
      `SELECT ${intentRows.WRITE_INTENT_COLUMNS} FROM write_intents
       WHERE scope = $1 AND github_id IS NULL ORDER BY id`,
      [query.scope],
    );
    return rows.map(intentRows.writeIntentFromRow);
  };
}
