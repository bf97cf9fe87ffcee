/**
 * The WriteIntentLedger port on PostgreSQL (../ports/write-intent-ledger.ts says what it
 * promises), kept out of postgres-store.ts, which delegates to it. Two replicas recording the
 * same key at once: the second INSERT waits on the first's unique entry, then does nothing, and
 * reads the first's row.
 */
import {
  type WriteIntent,
  type WriteIntentInput,
  writeIntentInputSchema,
  writeIntentSchema,
} from "../../../schemas/store.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { WriteIntentLedger } from "../ports/write-intent-ledger.js";
import type { Clock } from "../store.js";
import { completeWriteIntentSchema, parseInput, parseRow } from "../validate.js";

type Rows = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

const COLUMNS = `id, key, scope, repository, target, kind, body, marker, recorded_at, github_id,
  done_at`;

const parse = (row: Record<string, unknown>) =>
  parseRow(writeIntentSchema, row, "write_intents", String(row.key));

export class PostgresWriteIntents implements WriteIntentLedger {
  constructor(
    private readonly rows: Rows,
    private readonly now: Clock,
  ) {}

  async #byKey(key: string): Promise<WriteIntent | null> {
    const [row] = await this.rows(`SELECT ${COLUMNS} FROM write_intents WHERE key = $1`, [key]);
    return row ? parse(row) : null;
  }

  async recordWriteIntent(
    input: WriteIntentInput,
  ): Promise<{ intent: WriteIntent; created: boolean }> {
    const intent = parseInput(writeIntentInputSchema, input, "write intent");
    const [inserted] = await this.rows(
      `INSERT INTO write_intents (key, scope, repository, target, kind, body, marker, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (key) DO NOTHING RETURNING ${COLUMNS}`,
      [
        intent.key,
        intent.scope,
        intent.repository,
        intent.target,
        intent.kind,
        intent.body,
        intent.marker,
        this.now().toISOString(),
      ],
    );
    if (inserted) return { intent: parse(inserted), created: true };
    return { intent: (await this.#byKey(intent.key)) as WriteIntent, created: false };
  }

  async completeWriteIntent(query: { key: string; githubId: number }): Promise<WriteIntent> {
    const { key, githubId } = parseInput(completeWriteIntentSchema, query, "write intent");
    const [updated] = await this.rows(
      `UPDATE write_intents SET github_id = $2, done_at = $3
       WHERE key = $1 AND github_id IS NULL RETURNING ${COLUMNS}`,
      [key, githubId, this.now().toISOString()],
    );
    const done = updated ? parse(updated) : await this.#byKey(key);
    if (!done) throw new NotFoundError(`no write intent ${key}: record it before the write`);
    if (done.github_id !== githubId) {
      throw new InvalidInputError(
        "write intent",
        `${key} was completed with GitHub id ${done.github_id}, not ${githubId}: one intent is one write`,
      );
    }
    return done;
  }

  async listPendingWriteIntents(query: { scope: string }): Promise<WriteIntent[]> {
    const rows = await this.rows(
      `SELECT ${COLUMNS} FROM write_intents WHERE scope = $1 AND github_id IS NULL ORDER BY id`,
      [query.scope],
    );
    return rows.map(parse);
  }
}
