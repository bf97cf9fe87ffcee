/**
 * The Store on PostgreSQL, for several App replicas on one database: opening the pool (the
 * server checked, the schema migrated) and the ports of this folder on it. Each method is one
 * statement or one READ COMMITTED transaction (context.ts). Where SQLite relies on its single
 * writer, this relies on row locks: jobs are claimed with FOR UPDATE SKIP LOCKED, an entry is
 * locked before its compare-and-set, and inserts that two replicas may race on (a delivery, an
 * entry, a stale mark) use ON CONFLICT so the loser sees the winner's row instead of an error.
 * Time comes from the injected clock, never from the server's now() (one guard excepted: the
 * prune trigger compares with the database host's clock, as SQLite's does).
 */
import pg from "pg";
import { z } from "zod";
import { positiveIntSchema } from "../../../schemas/primitives.js";
import { PortedStore } from "../compose.js";
import { StoreError, StoreOpenError } from "../errors.js";
import type { Clock, Store } from "../store.js";
import { parseInput } from "../validate.js";
import { PostgresAuditLog } from "./audit-log.js";
import { PostgresBaseSightings } from "./base-sighting-store.js";
import { PostgresCheckRunLedger } from "./check-run-ledger.js";
import { AGATE_TYPES, connectError, redactUrl } from "./connection.js";
import { postgresContext } from "./context.js";
import { PostgresDeliveryLog } from "./delivery-log.js";
import { PostgresEntryMentions } from "./entry-mention-store.js";
import { PostgresEntryStore } from "./entry-store.js";
import { PostgresEvaluationStore } from "./evaluation-store.js";
import { PostgresJobQueue } from "./job-queue.js";
import { migratePostgres } from "./migrate.js";
import { PostgresObservationStore } from "./observation-store.js";
import { PostgresOverrideStore } from "./override-store.js";
import { PostgresRecordStore } from "./record-store.js";
import { PostgresWriteIntents } from "./write-intent-ledger.js";

export interface PostgresStoreOptions {
  /** postgres:// or postgresql://; libpq's sslmode, sslrootcert, sslcert, sslkey are read from it. */
  url: string;
  now?: Clock;
  /** Connections this store may hold at once (per replica). */
  poolSize?: number;
  /** A statement running longer is cancelled by the server (and the call fails, writing nothing). */
  statementTimeoutMs?: number;
  /** How long to wait for a connection, new or from the pool. */
  connectTimeoutMs?: number;
  /** Tables live in this existing schema (search_path) instead of the user's default. */
  schema?: string;
  /** How the database is named in error messages; the URL without its password by default. */
  location?: string;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The oldest PostgreSQL whose features the migrations use (stored generated columns). */
const MIN_SERVER_VERSION = 120000;

const schemaNameSchema = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: "use lower-case letters, digits and _" });

export class PostgresStore extends PortedStore implements Store {
  readonly #pool: pg.Pool;
  #closed = false;
  /** Deliveries already accepted, committed (or refused): before the pool ends. */
  readonly #drain: () => Promise<void>;

  private constructor(pool: pg.Pool, now: Clock, location: string, statementTimeoutMs: number) {
    const c = postgresContext(pool, now, location, statementTimeoutMs);
    // Half the pool: batches in flight side by side, and connections left for the workers.
    const maxFlushes = Math.max(1, Math.floor((pool.options.max ?? DEFAULT_POOL_SIZE) / 2));
    const deliveries = new PostgresDeliveryLog(c, maxFlushes);
    super({
      deliveries,
      jobs: new PostgresJobQueue(c),
      records: new PostgresRecordStore(c),
      evaluations: new PostgresEvaluationStore(c),
      overrides: new PostgresOverrideStore(c),
      observations: new PostgresObservationStore(c),
      baseSightings: new PostgresBaseSightings(c),
      checkRuns: new PostgresCheckRunLedger(c),
      audit: new PostgresAuditLog(c),
      entries: new PostgresEntryStore(c),
      mentions: new PostgresEntryMentions(c),
      writeIntents: new PostgresWriteIntents(c),
    });
    this.#pool = pool;
    this.#drain = () => deliveries.drain();
  }

  /** Connects, checks the server, and migrates the schema; StoreOpenError saying what to check. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const location = options.location ?? redactUrl(options.url);
    const now = options.now ?? (() => new Date());
    const statementTimeoutMs = parseInput(
      positiveIntSchema,
      options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      "statement timeout (ms)",
    );
    const schema =
      options.schema === undefined
        ? undefined
        : parseInput(schemaNameSchema, options.schema, "PostgreSQL schema name");
    const pool = new pg.Pool({
      connectionString: options.url,
      max: parseInput(positiveIntSchema, options.poolSize ?? DEFAULT_POOL_SIZE, "pool size"),
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statement_timeout: statementTimeoutMs,
      // A transaction left open by a stalled replica must not hold its row locks for ever.
      idle_in_transaction_session_timeout: Math.max(statementTimeoutMs, 60_000),
      application_name: "agate",
      types: AGATE_TYPES,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle connection the server closed (a restart, a failover) is dropped by the pool and
    // replaced on next use; without a listener its 'error' would end the process.
    pool.on("error", () => undefined);
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw connectError(options.url, error);
    }
    try {
      const version = Number(
        (await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v"))
          .rows[0]?.v,
      );
      if (version < MIN_SERVER_VERSION) {
        throw new StoreOpenError(
          location,
          `the agate database ${location} runs PostgreSQL ${version}, agate needs 12 or newer: ` +
            "upgrade the server, or point AGATE_DATABASE_URL at a newer one",
        );
      }
      await migratePostgres(client, location, now);
      client.release();
    } catch (error) {
      client.release(true);
      await pool.end().catch(() => undefined);
      if (error instanceof StoreError) throw error;
      throw new StoreOpenError(
        location,
        `cannot open the agate database ${location} (migrating): ${(error as Error).message}; ` +
          "check that the user may create tables, functions and triggers in its schema",
        { cause: error },
      );
    }
    return new PostgresStore(pool, now, location, statementTimeoutMs);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#drain();
    await this.#pool.end();
  }
}
