/**
 * The Store on better-sqlite3: opening the file (WAL, synchronous FULL, migrations) and the
 * ports of sqlite/ on its one connection. better-sqlite3 is synchronous: each method does all
 * its work in one synchronous immediate transaction and only then returns its promise, so no
 * transaction is ever held across an await (sqlite/context.ts). recordDelivery's writes join a
 * batch first (group-commit.ts, sqlite-group-commit.ts): one transaction per batch.
 */
import Database from "better-sqlite3";
import { PortedStore } from "./compose.js";
import { StoreError, StoreOpenError } from "./errors.js";
import { SqliteAuditLog } from "./sqlite/audit-log.js";
import { SqliteBaseSightings } from "./sqlite/base-sighting-store.js";
import { SqliteCheckRunLedger } from "./sqlite/check-run-ledger.js";
import { sqliteContext } from "./sqlite/context.js";
import { SqliteDeliveryLog } from "./sqlite/delivery-log.js";
import { SqliteEntryMentions } from "./sqlite/entry-mention-store.js";
import { SqliteEntryStore } from "./sqlite/entry-store.js";
import { SqliteEvaluationStore } from "./sqlite/evaluation-store.js";
import { SqliteJobQueue } from "./sqlite/job-queue.js";
import { migrate } from "./sqlite/migrate.js";
import { SqliteObservationStore } from "./sqlite/observation-store.js";
import { SqliteOverrideStore } from "./sqlite/override-store.js";
import { SqliteRecordStore } from "./sqlite/record-store.js";
import { SqliteWriteIntents } from "./sqlite/write-intent-ledger.js";
import { SqliteCheckpointer } from "./sqlite-checkpointer.js";
import type { Clock, Store } from "./store.js";

export interface SqliteStoreOptions {
  now?: Clock;
  /** How long a write waits for another connection's write lock before failing. */
  busyTimeoutMs?: number;
  /** How the database is named in error messages (the URL or path the user gave). */
  location?: string;
  /** Commits before checkpoints move to their thread (sqlite-checkpointer.ts); tests lower it. */
  checkpointThreadAfter?: number;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Retries `fn` while SQLite answers SQLITE_BUSY, until `timeoutMs` has passed. Needed at open:
 * when several processes open a new file at once, switching it to WAL fails with "database is
 * locked" at once, without the busy handler (seen in the concurrent-open test). Both steps are
 * safe to repeat: the switch is idempotent and migrate() re-reads the version under its lock.
 */
function whenNotBusy<T>(timeoutMs: number, fn: () => T): T {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      return fn();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !code.startsWith("SQLITE_BUSY") || Date.now() >= deadline) {
        throw error;
      }
      Atomics.wait(pause, 0, 0, delay); // a synchronous sleep: open() is synchronous
    }
  }
}

/** Every port on one SQLite file. */
export class SqliteStore extends PortedStore implements Store {
  readonly #db: Database.Database;
  readonly #deliveries: SqliteDeliveryLog;
  readonly #checkpointer: SqliteCheckpointer | null;

  private constructor(db: Database.Database, now: Clock, options: SqliteStoreOptions) {
    // A file's checkpoints run on a thread of their own; an in-memory database has no WAL.
    const checkpointer = db.memory
      ? null
      : new SqliteCheckpointer(db, db.name, {
          busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
          startAfterCommits: options.checkpointThreadAfter,
        });
    const c = sqliteContext(db, now, () => checkpointer?.committed());
    const deliveries = new SqliteDeliveryLog(c);
    super({
      deliveries,
      jobs: new SqliteJobQueue(c),
      records: new SqliteRecordStore(c),
      evaluations: new SqliteEvaluationStore(c),
      overrides: new SqliteOverrideStore(c),
      observations: new SqliteObservationStore(c),
      baseSightings: new SqliteBaseSightings(c),
      checkRuns: new SqliteCheckRunLedger(c),
      audit: new SqliteAuditLog(c),
      entries: new SqliteEntryStore(c),
      mentions: new SqliteEntryMentions(c),
      writeIntents: new SqliteWriteIntents(c),
    });
    this.#db = db;
    this.#deliveries = deliveries;
    this.#checkpointer = checkpointer;
  }

  /** Opens (creating if needed) and migrates the database at `filename` (or ":memory:"). */
  static open(filename: string, options: SqliteStoreOptions = {}): SqliteStore {
    const location = options.location ?? filename;
    const now = options.now ?? (() => new Date());
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    let db: Database.Database;
    try {
      db = new Database(filename, { timeout: busyTimeoutMs });
    } catch (error) {
      throw new StoreOpenError(
        location,
        `cannot open the agate database ${location}: ${(error as Error).message}; check that ` +
          "the directory exists and is writable, or set AGATE_DATABASE_URL to another file",
        { cause: error },
      );
    }
    let step = "configuring the connection";
    try {
      // busy_timeout first: the journal-mode switch and the migration may wait on another
      // process opening the same new file.
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      db.pragma("foreign_keys = ON");
      step = "switching to WAL";
      const mode = whenNotBusy(busyTimeoutMs, () =>
        db.pragma("journal_mode = WAL", { simple: true }),
      );
      if (!db.memory && mode !== "wal") {
        throw new StoreOpenError(
          location,
          `the agate database ${location} cannot use WAL journaling (got "${String(mode)}"); ` +
            "put it on a local disk (not a network file system)",
        );
      }
      // FULL: a commit is fsynced before it returns, so a stored record survives power loss.
      db.pragma("synchronous = FULL");
      step = "migrating";
      whenNotBusy(busyTimeoutMs, () => migrate(db, location, now));
    } catch (error) {
      db.close();
      if (error instanceof StoreError) throw error;
      throw new StoreOpenError(
        location,
        `cannot open the agate database ${location} (${step}): ${(error as Error).message}; if it is not ` +
          "an agate SQLite database, point AGATE_DATABASE_URL at another file",
        { cause: error },
      );
    }
    return new SqliteStore(db, now, options);
  }

  /** The connection's durability settings as SQLite reports them, for start-up logs and tests. */
  settings(): {
    journalMode: string;
    synchronous: string;
    foreignKeys: boolean;
    busyTimeoutMs: number;
  } {
    const synchronous = ["off", "normal", "full", "extra"];
    return {
      journalMode: String(this.#db.pragma("journal_mode", { simple: true })),
      synchronous:
        synchronous[Number(this.#db.pragma("synchronous", { simple: true }))] ?? "unknown",
      foreignKeys: this.#db.pragma("foreign_keys", { simple: true }) === 1,
      busyTimeoutMs: Number(this.#db.pragma("busy_timeout", { simple: true })),
    };
  }

  /** The checkpoint thread's state (sqlite-checkpointer.ts), null for an in-memory database. */
  checkpoints(): SqliteCheckpointer["state"] | null {
    return this.#checkpointer?.state ?? null;
  }

  async close(): Promise<void> {
    // Writes already accepted are committed (or refused) before the database closes.
    if (this.#db.open) await this.#deliveries.drain();
    await this.#checkpointer?.close();
    if (this.#db.open) this.#db.close();
  }
}
