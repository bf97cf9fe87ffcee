/**
 * The WriteIntentLedger port on SQLite (ports/write-intent-ledger.ts says what it promises),
 * kept out of sqlite-store.ts, which delegates to it. Each call is one immediate transaction.
 */
import type Database from "better-sqlite3";
import {
  type WriteIntent,
  type WriteIntentInput,
  writeIntentInputSchema,
  writeIntentSchema,
} from "../../schemas/store.js";
import { InvalidInputError, NotFoundError } from "./errors.js";
import type { WriteIntentLedger } from "./ports/write-intent-ledger.js";
import type { Clock } from "./store.js";
import { completeWriteIntentSchema, parseInput, parseRow } from "./validate.js";

const COLUMNS = `id, key, scope, repository, target, kind, body, marker, recorded_at, github_id,
  done_at`;

export class SqliteWriteIntents implements WriteIntentLedger {
  constructor(
    private readonly db: Database.Database,
    private readonly now: Clock,
  ) {}

  #byKey(key: string): WriteIntent | null {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM write_intents WHERE key = ?`).get(key);
    return row === undefined ? null : parseRow(writeIntentSchema, row, "write_intents", key);
  }

  async recordWriteIntent(
    input: WriteIntentInput,
  ): Promise<{ intent: WriteIntent; created: boolean }> {
    const intent = parseInput(writeIntentInputSchema, input, "write intent");
    return this.db
      .transaction(() => {
        const { changes } = this.db
          .prepare(
            `INSERT INTO write_intents
               (key, scope, repository, target, kind, body, marker, recorded_at)
             VALUES (@key, @scope, @repository, @target, @kind, @body, @marker, @recorded_at)
             ON CONFLICT (key) DO NOTHING`,
          )
          .run({ ...intent, recorded_at: this.now().toISOString() });
        return { intent: this.#byKey(intent.key) as WriteIntent, created: changes === 1 };
      })
      .immediate();
  }

  async completeWriteIntent(query: { key: string; githubId: number }): Promise<WriteIntent> {
    const { key, githubId } = parseInput(completeWriteIntentSchema, query, "write intent");
    return this.db
      .transaction(() => {
        this.db
          .prepare(
            `UPDATE write_intents SET github_id = ?, done_at = ?
             WHERE key = ? AND github_id IS NULL`,
          )
          .run(githubId, this.now().toISOString(), key);
        const done = this.#byKey(key);
        if (!done) throw new NotFoundError(`no write intent ${key}: record it before the write`);
        if (done.github_id !== githubId) {
          throw new InvalidInputError(
            "write intent",
            `${key} was completed with GitHub id ${done.github_id}, not ${githubId}: one intent is one write`,
          );
        }
        return done;
      })
      .immediate();
  }

  async listPendingWriteIntents(query: { scope: string }): Promise<WriteIntent[]> {
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM write_intents WHERE scope = ? AND github_id IS NULL ORDER BY id`,
      )
      .all(query.scope) as Record<string, unknown>[];
    return rows.map((row) => parseRow(writeIntentSchema, row, "write_intents", String(row.key)));
  }
}
