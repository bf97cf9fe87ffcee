/**
 * The Store on better-sqlite3. better-sqlite3 is synchronous: each method does all its work in
 * one synchronous immediate transaction and only then returns its promise, so no transaction is
 * ever held across an await and the write lock is taken up front (the busy timeout then applies,
 * instead of a deferred transaction failing with SQLITE_BUSY when it tries to upgrade).
 * recordDelivery's writes join a batch first (group-commit.ts): one transaction per batch.
 */
import Database from "better-sqlite3";
import { z } from "zod";
import {
  type AcceptanceRecord,
  type AcceptanceRecordInput,
  acceptanceRecordInputSchema,
  acceptanceRecordSchema,
} from "../../schemas/acceptance-record.js";
import {
  type Evaluation,
  type EvaluationInput,
  evaluationInputSchema,
  evaluationSchema,
} from "../../schemas/evaluation.js";
import {
  type EntryEventInput,
  entryEventInputSchema,
  type HandoffEntry,
  type HandoffEntryDraft,
  type HandoffEntryEvent,
  handoffEntryDraftSchema,
  handoffEntryEventSchema,
  handoffEntrySchema,
} from "../../schemas/handoff-entry.js";
import {
  gitShaSchema,
  isoDateTimeSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "../../schemas/primitives.js";
import {
  type AgateCheckRun,
  type AuditEntry,
  type AuditEntryInput,
  agateCheckRunSchema,
  auditEntryInputSchema,
  auditEntrySchema,
  type BaseSighting,
  type CheckRunEntry,
  checkRunEntrySchema,
  type DeliveryRecord,
  deliveryRecordSchema,
  entryMentionsInputSchema,
  type HeadObservation,
  headObservationSchema,
  type Job,
  jobSchema,
  jobStatusSchema,
  type MergeCommitObservation,
  mergeCommitObservationSchema,
  type NewJob,
  newJobSchema,
  type OverrideInput,
  overrideInputSchema,
  type PullRequestSighting,
  pullRequestSightingSchema,
  type StoredDelivery,
  type StoredOverride,
  storedDeliverySchema,
  storedOverrideSchema,
} from "../../schemas/store.js";
import { parseDeliveryInput } from "./delivery-input.js";
import {
  CorruptRowError,
  DeliveryPrunedError,
  LeaseLostError,
  NotFoundError,
  StoreError,
  StoreOpenError,
} from "./errors.js";
import { GroupCommit } from "./group-commit.js";
import { migrate } from "./migrations.js";
import type { ListAuditQuery } from "./ports/audit-log.js";
import {
  DEFAULT_PRUNE_LIMIT,
  MIN_DELIVERY_RETENTION_MS,
  type PruneDeliveriesOptions,
  type PruneDeliveriesResult,
  type RecordDeliveryInput,
  type RecordDeliveryResult,
} from "./ports/delivery-log.js";
import {
  type EntryKey,
  EntryVersionConflictError,
  type ListEntriesQuery,
} from "./ports/entry-store.js";
import type { ListEvaluationsQuery } from "./ports/evaluation-store.js";
import type {
  ClaimedJob,
  ClaimJobOptions,
  EnqueueOptions,
  FailJobOptions,
  JobLease,
  ListJobsQuery,
} from "./ports/job-queue.js";
import type { AppendOnce, HeadKey, PullRequestKey } from "./ports/keys.js";
import type { HeadSighting } from "./ports/observation-store.js";
import type { ListRecordsQuery, MarkStaleInput } from "./ports/record-store.js";
import type { WriteIntentLedger } from "./ports/write-intent-ledger.js";
import { sqliteGroupFlush } from "./sqlite-group-commit.js";
import { SqliteWriteIntents } from "./sqlite-write-intents.js";
import type { Clock, Store } from "./store.js";
import {
  appendOnceSchema,
  enqueueOptionsSchema,
  holdsDedupeKey,
  parseInput,
  parseRow,
  parseRowWithJson,
  toJsonColumn,
} from "./validate.js";

type Row = Record<string, unknown>;

export interface SqliteStoreOptions {
  now?: Clock;
  /** How long a write waits for another connection's write lock before failing. */
  busyTimeoutMs?: number;
  /** How the database is named in error messages (the URL or path the user gave). */
  location?: string;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

const leaseSchema = z.strictObject({
  jobId: positiveIntSchema,
  workerId: z.string().min(1),
  attempt: positiveIntSchema,
});
const claimOptionsSchema = z.strictObject({
  workerId: z.string().min(1),
  leaseMs: positiveIntSchema,
  kinds: z.array(z.string().min(1)).optional(),
});
const pruneOptionsSchema = z.strictObject({
  retentionMs: z
    .number()
    .int()
    .min(MIN_DELIVERY_RETENTION_MS, {
      error: `the delivery retention must be at least ${MIN_DELIVERY_RETENTION_MS} ms (1h)`,
    }),
  limit: positiveIntSchema.default(DEFAULT_PRUNE_LIMIT),
});
const markStaleSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pullNumber: positiveIntSchema,
  supersededBy: gitShaSchema,
  at: isoDateTimeSchema,
});

const RECORD_COLUMNS = `r.id, r.repository, r.pull_number, r.head_sha, r.base_sha, r.tested,
  r.commands, r.provenance, r.runner, r.grader, r.verdict, r.verdict_by, r.handoff, r.override, r.decision,
  r.decided_at, r.recorded_at, m.superseded_by AS stale_superseded_by, m.at AS stale_at
  FROM acceptance_records r LEFT JOIN acceptance_record_stale_marks m ON m.record_id = r.id`;
const RECORD_JSON_COLUMNS = [
  "tested",
  "commands",
  "provenance",
  "runner",
  "grader",
  "verdict",
  "handoff",
  "override",
  "decision",
] as const;

/**
 * A job of the wanted kinds that is not waiting for an older job of its concurrency key (one
 * still queued or running): keyed jobs run one at a time, in order, even across retries.
 */
const RUNNABLE = `(@kinds IS NULL OR j.kind IN (SELECT value FROM json_each(@kinds)))
  AND (j.concurrency_key IS NULL OR NOT EXISTS (
    SELECT 1 FROM jobs o
    WHERE o.concurrency_key = j.concurrency_key AND o.id < j.id
      AND o.status IN ('queued', 'running')))`;

/** Run times are compared as text, so every stored instant has the same UTC format. */
function instant(value: string | Date): string {
  return (typeof value === "string" ? new Date(value) : value).toISOString();
}

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

type Candidate = { id: number; run_at: string } | undefined;

/** The one that has been due longer (ties by id: enqueued first). */
function older(a: Candidate, b: Candidate): Candidate {
  if (!a || !b) return a ?? b;
  return a.run_at < b.run_at || (a.run_at === b.run_at && a.id < b.id) ? a : b;
}

/** A failure is kept for people to read; a whole log in it would bloat every claim. */
const MAX_ERROR_CHARS = 16_384;

/** Every port on one SQLite file. */
/**
 * A retried job that held its key only until it started gives the key up when another job of
 * the key holds it now (both run), instead of breaking the unique index (migration 7).
 */
const RETRY_GIVES_UP_DEDUPE_KEY = `dedupe_key = CASE
  WHEN NOT (@permanent OR attempts >= max_attempts) AND EXISTS (
    SELECT 1 FROM jobs o WHERE o.dedupe_key = jobs.dedupe_key AND o.id <> jobs.id
      AND ${holdsDedupeKey("o")})
  THEN NULL ELSE dedupe_key END`;

/** The jobs a ListJobsQuery selects; an absent field selects all. */
const JOB_FILTER = `(@status IS NULL OR status = @status)
  AND (@delivery IS NULL OR delivery_id = @delivery)
  AND (@kind IS NULL OR kind = @kind)
  AND (@key IS NULL OR concurrency_key = @key)`;

export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #now: Clock;
  readonly #statements = new Map<string, Database.Statement>();

  readonly #intents: SqliteWriteIntents;
  /** Deliveries recorded together share one commit (group-commit.ts). */
  readonly #deliveries: GroupCommit<() => RecordDeliveryResult, RecordDeliveryResult>;

  private constructor(db: Database.Database, now: Clock) {
    this.#db = db;
    this.#now = now;
    this.#intents = new SqliteWriteIntents(db, now);
    this.#deliveries = new GroupCommit(sqliteGroupFlush(db));
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
    return new SqliteStore(db, now);
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

  /** Prepared once per connection, reused after. */
  #sql(source: string): Database.Statement {
    let statement = this.#statements.get(source);
    if (!statement) {
      statement = this.#db.prepare(source);
      this.#statements.set(source, statement);
    }
    return statement;
  }

  #write<T>(fn: () => T): T {
    return this.#db.transaction(fn).immediate();
  }

  #nowIso(): string {
    return this.#now().toISOString();
  }

  // ---- deliveries -------------------------------------------------------------------------------

  async recordDelivery(input: RecordDeliveryInput): Promise<RecordDeliveryResult> {
    const { delivery, payload, jobs, sightings } = parseDeliveryInput(input);
    return this.#deliveries.submit((): RecordDeliveryResult => {
      const existing = this.#sql("SELECT payload_sha256 FROM deliveries WHERE id = ?").get(
        delivery.id,
      ) as { payload_sha256: string } | undefined;
      if (existing) {
        if (existing.payload_sha256 !== delivery.payload_sha256) {
          return { status: "conflict", jobIds: [] };
        }
        const ids = this.#sql("SELECT id FROM jobs WHERE delivery_id = ? ORDER BY id")
          .pluck()
          .all(delivery.id) as number[];
        return { status: "duplicate", jobIds: ids };
      }
      const now = this.#nowIso();
      // The repository is read from the payload by SQLite (no second JSON.parse here); it stays
      // when the payload is pruned.
      this.#sql(
        `INSERT INTO deliveries (id, event, action, payload_sha256, received_at, recorded_at,
           repository)
         VALUES (@id, @event, @action, @payload_sha256, @received_at, @recorded_at,
           CASE WHEN json_valid(@payload)
             AND json_type(@payload, '$.repository.full_name') = 'text'
           THEN @payload ->> '$.repository.full_name' END)`,
      ).run({ ...delivery, payload, recorded_at: now });
      this.#sql("INSERT INTO delivery_payloads (delivery_id, payload) VALUES (?, ?)").run(
        delivery.id,
        payload,
      );
      const jobIds = jobs.map((job) => this.#insertJobId(job, delivery.id, now));
      const sighted = this.#sql(
        `INSERT INTO base_sightings
           (repository, head_sha, pull_number, base_ref, delivery_id, seen_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      );
      for (const seen of sightings) {
        sighted.run(
          seen.repository,
          seen.head_sha,
          seen.pull_number,
          seen.base_ref,
          delivery.id,
          delivery.received_at,
        );
      }
      return { status: "new", jobIds };
    });
  }

  async getDelivery(id: string): Promise<StoredDelivery | null> {
    const row = this.#sql(
      `SELECT d.id, d.event, d.action, d.payload_sha256, p.payload, d.received_at,
         x.pruned_at, x.retention_ms
       FROM deliveries d
       LEFT JOIN delivery_payloads p ON p.delivery_id = d.id
       LEFT JOIN delivery_payload_prunes x ON x.delivery_id = d.id
       WHERE d.id = ?`,
    ).get(id) as Row | undefined;
    if (!row) return null;
    const { pruned_at, retention_ms, ...delivery } = row;
    if (delivery.payload === null && typeof pruned_at === "string") {
      throw new DeliveryPrunedError(id, pruned_at, Number(retention_ms));
    }
    if (delivery.payload === null) {
      throw new CorruptRowError("delivery_payloads", `delivery ${id}`, "the payload is missing");
    }
    return parseRow(storedDeliverySchema, delivery, "deliveries", `id ${id}`);
  }

  async getDeliveryRecord(id: string): Promise<DeliveryRecord | null> {
    const row = this.#sql(
      `SELECT d.id, d.event, d.action, d.payload_sha256, d.received_at, d.repository,
         d.recorded_at, x.pruned_at, x.retention_ms
       FROM deliveries d LEFT JOIN delivery_payload_prunes x ON x.delivery_id = d.id
       WHERE d.id = ?`,
    ).get(id) as Row | undefined;
    if (!row) return null;
    const { pruned_at, retention_ms, ...delivery } = row;
    return parseRow(
      deliveryRecordSchema,
      { ...delivery, pruned: pruned_at === null ? null : { pruned_at, retention_ms } },
      "deliveries",
      `id ${id}`,
    );
  }

  async pruneDeliveryPayloads(options: PruneDeliveriesOptions): Promise<PruneDeliveriesResult> {
    const { retentionMs, limit } = parseInput(pruneOptionsSchema, options, "prune options");
    return this.#write((): PruneDeliveriesResult => {
      const now = this.#now();
      // Walks the payloads still stored (CROSS JOIN keeps them the outer loop; their primary
      // key index, not their pages), so a pass costs what the retention window holds, not
      // every delivery ever recorded, and no sort. The trigger on delivery_payload_prunes
      // checks each row again and deletes its payload.
      const pruned = this.#sql(
        `INSERT INTO delivery_payload_prunes (delivery_id, retention_ms, pruned_at)
         SELECT d.id, @retention, @now
         FROM delivery_payloads p INDEXED BY sqlite_autoindex_delivery_payloads_1
         CROSS JOIN deliveries d ON d.id = p.delivery_id
         WHERE d.recorded_at <= @cutoff
           AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.delivery_id = d.id
             AND j.status IN ('queued', 'running'))
         LIMIT @limit`,
      ).run({
        retention: retentionMs,
        now: now.toISOString(),
        cutoff: new Date(now.getTime() - retentionMs).toISOString(),
        limit,
      }).changes;
      return { pruned, more: pruned === limit };
    });
  }

  // ---- jobs -------------------------------------------------------------------------------------

  /**
   * Inserts a job and returns its id only: the intake's path (a delivery's jobs) neither reads
   * the row back nor parses it (half of recordDelivery's time, docs/performance.md).
   */
  #insertJobId(
    job: z.output<typeof newJobSchema>,
    deliveryId: string | null,
    now: string,
    dedupe: z.output<typeof enqueueOptionsSchema> = { until: "finished" },
  ): number {
    return this.#sql(
      `INSERT INTO jobs (kind, payload, concurrency_key, delivery_id, status, attempts,
         max_attempts, run_at, created_at, updated_at, dedupe_key, dedupe_until)
       VALUES (@kind, @payload, @concurrency_key, @delivery_id, 'queued', 0,
         @max_attempts, @run_at, @now, @now, @dedupe_key, @dedupe_until)
       RETURNING id`,
    )
      .pluck()
      .get({
        kind: job.kind,
        payload: JSON.stringify(job.payload),
        concurrency_key: job.concurrency_key,
        delivery_id: deliveryId,
        max_attempts: job.max_attempts,
        run_at: instant(job.run_at ?? now),
        now,
        dedupe_key: dedupe.dedupeKey ?? null,
        dedupe_until: dedupe.until,
      }) as number;
  }

  #insertJob(
    job: z.output<typeof newJobSchema>,
    deliveryId: string | null,
    now: string,
    dedupe: z.output<typeof enqueueOptionsSchema> = { until: "finished" },
  ): Job {
    const id = this.#insertJobId(job, deliveryId, now, dedupe);
    return this.#jobFromRow(this.#sql("SELECT * FROM jobs WHERE id = ?").get(id) as Row);
  }

  #jobFromRow(row: Row): Job {
    // The dedupe columns are the queue's own bookkeeping, not part of a Job.
    const { dedupe_key: _key, dedupe_until: _until, ...job } = row;
    return parseRowWithJson(jobSchema, job, "jobs", ["payload"]);
  }

  async enqueue(job: NewJob, options: EnqueueOptions = {}): Promise<Job> {
    const parsed = parseInput(newJobSchema, job, "job");
    const dedupe = parseInput(enqueueOptionsSchema, options, "enqueue options");
    return this.#write(() => {
      // The write lock is held from here to the insert: no other enqueue of the key in between.
      if (dedupe.dedupeKey !== undefined) {
        const holder = this.#sql(
          `SELECT * FROM jobs j WHERE dedupe_key = ? AND ${holdsDedupeKey("j")}`,
        ).get(dedupe.dedupeKey) as Row | undefined;
        if (holder) return this.#jobFromRow(holder);
      }
      return this.#insertJob(parsed, null, this.#nowIso(), dedupe);
    });
  }

  async claimJob(options: ClaimJobOptions): Promise<ClaimedJob | null> {
    const { workerId, leaseMs, kinds } = parseInput(claimOptionsSchema, options, "claim options");
    return this.#write((): ClaimedJob | null => {
      const now = this.#now();
      const nowIso = now.toISOString();
      // A worker that died on its last attempt leaves a running job with an expired lease;
      // claiming it again would exceed max_attempts, so it is dead instead.
      this.#sql(
        `UPDATE jobs INDEXED BY jobs_leased
         SET status = 'dead', lease_expires_at = NULL, updated_at = @now,
           last_error = 'the lease of ' || lease_owner || ' expired on attempt ' || attempts ||
             ' of ' || max_attempts || ' (the worker stopped or hung); last error: ' ||
             coalesce(last_error, 'none')
         WHERE status = 'running' AND lease_expires_at <= @now AND attempts >= max_attempts`,
      ).run({ now: nowIso });
      // Both reads and the lease write run in one immediate transaction, which serialises
      // claimers across connections and processes: nothing can take the row in between.
      const params = { now: nowIso, kinds: kinds ? JSON.stringify(kinds) : null };
      // INDEXED BY: without statistics the planner prefers jobs_by_status and sorts the queue.
      const due = this.#sql(`SELECT id, run_at FROM jobs j INDEXED BY jobs_queued
         WHERE status = 'queued' AND run_at <= @now AND ${RUNNABLE} ORDER BY run_at, id LIMIT 1`).get(
        params,
      ) as Candidate;
      const expired = this.#sql(`SELECT id, run_at FROM jobs j INDEXED BY jobs_leased
         WHERE status = 'running' AND lease_expires_at <= @now AND ${RUNNABLE}
         ORDER BY run_at, id LIMIT 1`).get(params) as Candidate;
      const pick = older(due, expired);
      if (!pick) return null;
      const row = this.#sql(
        `UPDATE jobs SET status = 'running', lease_owner = @worker, lease_expires_at = @expires,
           attempts = attempts + 1, updated_at = @now
         WHERE id = @id RETURNING *`,
      ).get({
        id: pick.id,
        worker: workerId,
        expires: new Date(now.getTime() + leaseMs).toISOString(),
        now: nowIso,
      }) as Row | undefined;
      if (!row) return null;
      const job = this.#jobFromRow(row);
      return { job, lease: { jobId: job.id, workerId, attempt: job.attempts } };
    });
  }

  async heartbeat(lease: JobLease, leaseMs: number): Promise<Job> {
    const held = parseInput(leaseSchema, lease, "job lease");
    const ms = parseInput(positiveIntSchema, leaseMs, "lease duration (ms)");
    return this.#write(() => {
      const now = this.#now();
      const row = this.#sql(
        `UPDATE jobs SET lease_expires_at = @expires, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @worker AND attempts = @attempt
         RETURNING *`,
      ).get({
        ...this.#leaseParams(held),
        expires: new Date(now.getTime() + ms).toISOString(),
        now: now.toISOString(),
      }) as Row | undefined;
      if (!row) throw this.#leaseLost(held, "extend the lease of");
      return this.#jobFromRow(row);
    });
  }

  async completeJob(lease: JobLease): Promise<Job> {
    const held = parseInput(leaseSchema, lease, "job lease");
    return this.#write(() => {
      const row = this.#sql(
        `UPDATE jobs SET status = 'done', lease_expires_at = NULL, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @worker AND attempts = @attempt
         RETURNING *`,
      ).get({ ...this.#leaseParams(held), now: this.#nowIso() }) as Row | undefined;
      if (!row) throw this.#leaseLost(held, "complete");
      return this.#jobFromRow(row);
    });
  }

  async failJob(lease: JobLease, error: string, options: FailJobOptions = {}): Promise<Job> {
    const held = parseInput(leaseSchema, lease, "job lease");
    return this.#write(() => {
      const now = this.#nowIso();
      const row = this.#sql(
        `UPDATE jobs SET
           status = CASE WHEN @permanent OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
           run_at = CASE WHEN @permanent OR attempts >= max_attempts THEN run_at ELSE @retry_at END,
           lease_owner = CASE WHEN @permanent OR attempts >= max_attempts
             THEN lease_owner ELSE NULL END,
           ${RETRY_GIVES_UP_DEDUPE_KEY},
           lease_expires_at = NULL, last_error = @error, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @worker AND attempts = @attempt
         RETURNING *`,
      ).get({
        ...this.#leaseParams(held),
        permanent: options.permanent ? 1 : 0,
        retry_at: instant(options.retryAt ?? now),
        error: String(error).slice(-MAX_ERROR_CHARS),
        now,
      }) as Row | undefined;
      if (!row) throw this.#leaseLost(held, "fail");
      return this.#jobFromRow(row);
    });
  }

  #leaseParams(lease: JobLease): Row {
    return { id: lease.jobId, worker: lease.workerId, attempt: lease.attempt };
  }

  /** Says what became of the job, so the log explains why the worker's result was dropped. */
  #leaseLost(lease: JobLease, action: string): StoreError {
    const row = this.#sql("SELECT * FROM jobs WHERE id = ?").get(lease.jobId) as Row | undefined;
    if (!row) return new NotFoundError(`cannot ${action} job ${lease.jobId}: there is no such job`);
    const job = this.#jobFromRow(row);
    const now =
      job.status === "running"
        ? `it is now leased to ${job.lease_owner} on attempt ${job.attempts}, claimed after this lease expired`
        : job.status === "queued"
          ? "it went back to the queue"
          : `it is ${job.status}`;
    return new LeaseLostError(
      lease.jobId,
      `cannot ${action} job ${lease.jobId}: worker ${lease.workerId} no longer holds its lease ` +
        `(attempt ${lease.attempt}); ${now}. Stop working on it and do not write its results.`,
    );
  }

  async getJob(id: number): Promise<Job | null> {
    const row = this.#sql("SELECT * FROM jobs WHERE id = ?").get(id) as Row | undefined;
    return row ? this.#jobFromRow(row) : null;
  }

  async listJobs(query: ListJobsQuery = {}): Promise<Job[]> {
    const rows = this.#sql(`SELECT * FROM jobs WHERE ${JOB_FILTER} ORDER BY id`).all(
      this.#jobFilter(query),
    ) as Row[];
    return rows.map((row) => this.#jobFromRow(row));
  }

  async countJobs(query: ListJobsQuery = {}): Promise<number> {
    const row = this.#sql(`SELECT count(*) AS n FROM jobs WHERE ${JOB_FILTER}`).get(
      this.#jobFilter(query),
    ) as { n: number };
    return row.n;
  }

  #jobFilter(query: ListJobsQuery) {
    return {
      status: query.status ? parseInput(jobStatusSchema, query.status, "job status") : null,
      delivery: query.deliveryId ?? null,
      kind: query.kind ?? null,
      key: query.concurrencyKey ?? null,
    };
  }

  // ---- acceptance records -----------------------------------------------------------------------

  async appendRecord(
    input: AcceptanceRecordInput,
    options: AppendOnce = {},
  ): Promise<AcceptanceRecord> {
    const record = parseInput(acceptanceRecordInputSchema, input, "acceptance record");
    const { dedupeKey = null } = parseInput(appendOnceSchema, options, "append options");
    return this.#write(() => {
      const inserted = this.#sql(
        `INSERT INTO acceptance_records (repository, pull_number, head_sha, base_sha, tested,
           commands, provenance, runner, grader, verdict, verdict_by, handoff, override, decision,
           decided_at, recorded_at, dedupe_key)
         VALUES (@repository, @pull_number, @head_sha, @base_sha, @tested, @commands, @provenance,
           @runner, @grader, @verdict, @verdict_by, @handoff, @override, @decision, @decided_at,
           @recorded_at, @dedupe_key)
         ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING id`,
      ).get({
        dedupe_key: dedupeKey,
        repository: record.repository,
        pull_number: record.pull_number,
        head_sha: record.head_sha,
        base_sha: record.base_sha,
        tested: toJsonColumn(record.tested),
        commands: JSON.stringify(record.commands),
        provenance: toJsonColumn(record.provenance),
        runner: toJsonColumn(record.runner),
        grader: JSON.stringify(record.grader),
        verdict: toJsonColumn(record.verdict),
        verdict_by: record.verdict_by,
        handoff: toJsonColumn(record.handoff),
        override: toJsonColumn(record.override),
        decision: JSON.stringify(record.decision),
        decided_at: record.decided_at,
        recorded_at: this.#nowIso(),
      }) as { id: number } | undefined;
      const id =
        inserted?.id ??
        (
          this.#sql("SELECT id FROM acceptance_records WHERE dedupe_key = ?").get(dedupeKey) as {
            id: number;
          }
        ).id;
      return this.#recordById(id) as AcceptanceRecord;
    });
  }

  async markStale(input: MarkStaleInput): Promise<number> {
    const mark = parseInput(markStaleSchema, input, "stale mark");
    return this.#write(
      () =>
        this.#sql(
          `INSERT INTO acceptance_record_stale_marks (record_id, superseded_by, at, recorded_at)
           SELECT r.id, @superseded_by, @at, @now FROM acceptance_records r
           WHERE r.repository = @repository AND r.pull_number = @pull_number
             AND r.head_sha <> @superseded_by
             AND NOT EXISTS (
               SELECT 1 FROM acceptance_record_stale_marks m WHERE m.record_id = r.id)`,
        ).run({
          repository: mark.repository,
          pull_number: mark.pullNumber,
          superseded_by: mark.supersededBy,
          at: mark.at,
          now: this.#nowIso(),
        }).changes,
    );
  }

  #recordById(id: number): AcceptanceRecord | null {
    const row = this.#sql(`SELECT ${RECORD_COLUMNS} WHERE r.id = ?`).get(id) as Row | undefined;
    return row ? this.#recordFromRow(row) : null;
  }

  #recordFromRow(row: Row): AcceptanceRecord {
    const { stale_superseded_by, stale_at, ...rest } = row;
    const stale =
      stale_superseded_by === null ? null : { superseded_by: stale_superseded_by, at: stale_at };
    return parseRowWithJson(
      acceptanceRecordSchema,
      { ...rest, stale },
      "acceptance_records",
      RECORD_JSON_COLUMNS,
    );
  }

  async listRecords(query: ListRecordsQuery): Promise<AcceptanceRecord[]> {
    const rows = this.#sql(
      `SELECT ${RECORD_COLUMNS}
       WHERE r.repository = @repository AND r.pull_number = @pull_number
         AND (@head IS NULL OR r.head_sha = @head) AND (@tree IS NULL OR r.tested_tree_sha = @tree)
       ORDER BY r.id`,
    ).all({
      repository: query.repository,
      pull_number: query.pullNumber,
      head: query.headSha ?? null,
      tree: query.treeSha ?? null,
    }) as Row[];
    return rows.map((row) => this.#recordFromRow(row));
  }

  async listRepositories(): Promise<string[]> {
    const rows = this.#sql(
      `SELECT repository AS name FROM deliveries WHERE repository IS NOT NULL
       UNION SELECT repository AS name FROM acceptance_records
       ORDER BY name`,
    ).all() as { name: string }[];
    return rows.map((row) => row.name);
  }

  // ---- audit log --------------------------------------------------------------------------------

  async appendAudit(input: AuditEntryInput, options: AppendOnce = {}): Promise<AuditEntry> {
    const entry = parseInput(auditEntryInputSchema, input, "audit entry");
    const { dedupeKey = null } = parseInput(appendOnceSchema, options, "append options");
    return this.#write(() => {
      const inserted = this.#sql(
        `INSERT INTO audit_log (kind, subject, decision, facts, at, recorded_at, dedupe_key)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
      ).get(
        entry.kind,
        entry.subject,
        JSON.stringify(entry.decision),
        JSON.stringify(entry.facts),
        entry.at,
        this.#nowIso(),
        dedupeKey,
      ) as { id: number } | undefined;
      if (inserted) return { id: inserted.id, ...entry };
      const row = this.#sql(
        "SELECT id, kind, subject, decision, facts, at FROM audit_log WHERE dedupe_key = ?",
      ).get(dedupeKey) as Row;
      return parseRowWithJson(auditEntrySchema, row, "audit_log", ["decision", "facts"]);
    });
  }

  async listAudit(query: ListAuditQuery = {}): Promise<AuditEntry[]> {
    const limit =
      query.limit === undefined ? -1 : parseInput(positiveIntSchema, query.limit, "audit limit");
    const order = query.order === "desc" ? "DESC" : "ASC";
    const rows = this.#sql(
      `SELECT id, kind, subject, decision, facts, at FROM audit_log
       WHERE (@subject IS NULL OR subject = @subject) AND (@kind IS NULL OR kind = @kind)
       ORDER BY id ${order} LIMIT @limit`,
    ).all({ subject: query.subject ?? null, kind: query.kind ?? null, limit }) as Row[];
    return rows.map((row) =>
      parseRowWithJson(auditEntrySchema, row, "audit_log", ["decision", "facts"]),
    );
  }

  // ---- evaluations ------------------------------------------------------------------------------

  async appendEvaluation(input: EvaluationInput): Promise<Evaluation> {
    const evaluation = parseInput(evaluationInputSchema, input, "evaluation");
    return this.#write(() => {
      const { id } = this.#sql(
        `INSERT INTO evaluations
           (repository, pull_number, head_sha, tree_sha, config_digest, run, outcome, status, at, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ).get(
        evaluation.repository,
        evaluation.pull_number,
        evaluation.head_sha,
        evaluation.tree_sha,
        evaluation.config_digest,
        JSON.stringify(evaluation.run),
        JSON.stringify(evaluation.outcome),
        evaluation.outcome.status,
        evaluation.at,
        this.#nowIso(),
      ) as { id: number };
      return { id, ...evaluation };
    });
  }

  async listEvaluations(query: ListEvaluationsQuery): Promise<Evaluation[]> {
    const rows = this.#sql(
      `SELECT id, repository, pull_number, head_sha, tree_sha, config_digest, run, outcome, at
       FROM evaluations
       WHERE repository = @repository AND pull_number = @pull_number
         AND (@tree IS NULL OR tree_sha = @tree)
         AND (@since IS NULL OR unixepoch(at, 'subsec') >= unixepoch(@since, 'subsec'))
       ORDER BY id`,
    ).all({
      repository: query.repository,
      pull_number: query.pullNumber,
      tree: query.treeSha ?? null,
      // Instants, as PostgreSQL compares them: an evaluation's `at` keeps the offset it was
      // written with, and text order is time order only for one offset.
      since:
        query.since === undefined
          ? null
          : parseInput(isoDateTimeSchema, query.since, "evaluations since"),
    }) as Row[];
    return rows.map((row) =>
      parseRowWithJson(evaluationSchema, row, "evaluations", ["run", "outcome"]),
    );
  }

  // ---- maintainer overrides ---------------------------------------------------------------------

  async appendOverride(input: OverrideInput, options: AppendOnce = {}): Promise<StoredOverride> {
    const override = parseInput(overrideInputSchema, input, "maintainer override");
    const { dedupeKey = null } = parseInput(appendOnceSchema, options, "append options");
    return this.#write(() => {
      const inserted = this.#sql(
        `INSERT INTO maintainer_overrides (repository, pull_number, head_sha, base_ref, by,
           reason, comment_url, at, recorded_at, dedupe_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
      ).get(
        override.repository,
        override.pull_number,
        override.head_sha,
        override.base_ref,
        override.by,
        override.reason,
        override.comment_url,
        override.at,
        this.#nowIso(),
        dedupeKey,
      ) as { id: number } | undefined;
      if (inserted) return { id: inserted.id, ...override };
      const row = this.#sql(
        `SELECT id, repository, pull_number, head_sha, base_ref, by, reason, comment_url, at
         FROM maintainer_overrides WHERE dedupe_key = ?`,
      ).get(dedupeKey) as Row;
      return parseRowWithJson(storedOverrideSchema, row, "maintainer_overrides", []);
    });
  }

  async listOverrides(query: HeadKey): Promise<StoredOverride[]> {
    const rows = this.#sql(
      `SELECT id, repository, pull_number, head_sha, base_ref, by, reason, comment_url, at
       FROM maintainer_overrides
       WHERE repository = ? AND pull_number = ? AND head_sha = ? ORDER BY id`,
    ).all(query.repository, query.pullNumber, query.headSha) as Row[];
    return rows.map((row) =>
      parseRowWithJson(storedOverrideSchema, row, "maintainer_overrides", []),
    );
  }

  // ---- observations of GitHub -------------------------------------------------------------------

  async recordMergeCommit(observation: MergeCommitObservation): Promise<void> {
    const seen = parseInput(mergeCommitObservationSchema, observation, "merge commit");
    this.#write(() =>
      this.#sql(
        `INSERT INTO merge_commits (repository, pull_number, head_sha, merge_sha, observed_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ).run(seen.repository, seen.pull_number, seen.head_sha, seen.merge_sha, seen.observed_at),
    );
  }

  async listMergeCommits(query: HeadKey): Promise<string[]> {
    const rows = this.#sql(
      `SELECT merge_sha FROM merge_commits
       WHERE repository = ? AND pull_number = ? AND head_sha = ? ORDER BY observed_at, merge_sha`,
    ).all(query.repository, query.pullNumber, query.headSha) as { merge_sha: string }[];
    return rows.map((row) => row.merge_sha);
  }

  async recordHeadObservation(observation: HeadObservation): Promise<void> {
    const seen = parseInput(headObservationSchema, observation, "head observation");
    this.#write(() =>
      this.#sql(
        `INSERT INTO head_observations (repository, head_sha, pull_number, base_ref, observed_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ).run(seen.repository, seen.head_sha, seen.pull_number, seen.base_ref, seen.observed_at),
    );
  }

  async listHeadObservations(query: {
    repository: string;
    headSha: string;
  }): Promise<HeadSighting[]> {
    return this.#sql(
      `SELECT pull_number, base_ref FROM head_observations
       WHERE repository = ? AND head_sha = ? ORDER BY observed_at, pull_number, base_ref`,
    ).all(query.repository, query.headSha) as HeadSighting[];
  }

  async listBaseSightings(query: { repository: string; headSha: string }): Promise<BaseSighting[]> {
    return this.#sql(
      `SELECT repository, pull_number, head_sha, base_ref, delivery_id, seen_at
       FROM base_sightings WHERE repository = ? AND head_sha = ?
       ORDER BY seen_at, pull_number, base_ref`,
    ).all(query.repository, query.headSha) as BaseSighting[];
  }

  async recordPullRequestSighting(sighting: PullRequestSighting): Promise<void> {
    const seen = parseInput(pullRequestSightingSchema, sighting, "pull request sighting");
    this.#write(() =>
      this.#sql(
        `INSERT INTO pull_request_sightings
           (repository, pull_number, updated_at, digest, observed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (repository, pull_number) DO UPDATE SET
           updated_at = excluded.updated_at, digest = excluded.digest,
           observed_at = excluded.observed_at
         WHERE unixepoch(excluded.updated_at, 'subsec') >= unixepoch(updated_at, 'subsec')`,
      ).run(seen.repository, seen.pull_number, seen.updated_at, seen.digest, seen.observed_at),
    );
  }

  async latestPullRequestSighting(query: PullRequestKey): Promise<PullRequestSighting | null> {
    const row = this.#sql(
      `SELECT repository, pull_number, updated_at, digest, observed_at FROM pull_request_sightings
       WHERE repository = ? AND pull_number = ?`,
    ).get(query.repository, query.pullNumber);
    return row === undefined
      ? null
      : parseRow(
          pullRequestSightingSchema,
          row,
          "pull_request_sightings",
          `${query.repository}#${query.pullNumber}`,
        );
  }

  async beginCheckRunWrite(query: { repository: string; headSha: string }): Promise<void> {
    this.#write(() =>
      this.#sql("UPDATE agate_check_runs SET known = 0 WHERE repository = ? AND head_sha = ?").run(
        query.repository,
        query.headSha,
      ),
    );
  }

  async recordCheckRun(entry: CheckRunEntry): Promise<void> {
    const known = parseInput(checkRunEntrySchema, entry, "check run entry");
    this.#write(() =>
      this.#sql(
        `INSERT INTO agate_check_runs (repository, head_sha, known, check_run, written_at)
         VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (repository, head_sha) DO UPDATE SET
           known = 1, check_run = excluded.check_run, written_at = excluded.written_at`,
      ).run(known.repository, known.head_sha, JSON.stringify(known.check), known.written_at),
    );
  }

  async knownCheckRun(query: {
    repository: string;
    headSha: string;
  }): Promise<AgateCheckRun | null> {
    const row = this.#sql(
      "SELECT check_run FROM agate_check_runs WHERE repository = ? AND head_sha = ? AND known = 1",
    ).get(query.repository, query.headSha) as { check_run: string } | undefined;
    if (row === undefined) return null;
    const key = `${query.repository}@${query.headSha}`;
    let value: unknown;
    try {
      value = JSON.parse(row.check_run);
    } catch (error) {
      throw new CorruptRowError("agate_check_runs", key, "check_run is not valid JSON", {
        cause: error,
      });
    }
    return parseRow(agateCheckRunSchema, value, "agate_check_runs", key);
  }

  // ---- the write-intent ledger (sqlite-write-intents.ts) ---------------------------------------

  recordWriteIntent(...args: Parameters<WriteIntentLedger["recordWriteIntent"]>) {
    return this.#intents.recordWriteIntent(...args);
  }

  completeWriteIntent(...args: Parameters<WriteIntentLedger["completeWriteIntent"]>) {
    return this.#intents.completeWriteIntent(...args);
  }

  listPendingWriteIntents(...args: Parameters<WriteIntentLedger["listPendingWriteIntents"]>) {
    return this.#intents.listPendingWriteIntents(...args);
  }

  // ---- handoff entries ---------------------------------------------------------------------------

  #entryInput(input: {
    entry: HandoffEntryDraft;
    event: EntryEventInput;
    jobs?: readonly NewJob[] | undefined;
  }) {
    const entry = parseInput(handoffEntryDraftSchema, input.entry, "handoff entry");
    const event = parseInput(entryEventInputSchema, input.event, "handoff entry event");
    const jobs = parseInput(z.array(newJobSchema), input.jobs ?? [], "jobs of a handoff entry");
    return { entry, event, jobs };
  }

  #entryRow(key: EntryKey): HandoffEntry | null {
    const row = this.#sql(
      "SELECT entry, version FROM handoff_entries WHERE repository = ? AND issue_number = ?",
    ).get(key.repository, key.issueNumber) as { entry: string; version: number } | undefined;
    return row ? this.#entryFromRow(row, `${key.repository}#${key.issueNumber}`) : null;
  }

  #entryFromRow(row: { entry: string; version: number }, key: string): HandoffEntry {
    let value: unknown;
    try {
      value = { ...JSON.parse(row.entry), version: row.version };
    } catch (error) {
      throw new CorruptRowError("handoff_entries", key, "entry is not valid JSON", {
        cause: error,
      });
    }
    return parseRow(handoffEntrySchema, value, "handoff_entries", key);
  }

  #appendEntryEvent(
    entry: HandoffEntry,
    from: HandoffEntry["state"] | null,
    event: EntryEventInput,
  ): void {
    this.#sql(
      `INSERT INTO handoff_entry_events (repository, issue_number, version, kind, actor,
         comment_id, from_state, to_state, event, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.repository,
      entry.issue_number,
      entry.version,
      event.kind,
      event.actor,
      event.comment_id,
      from,
      entry.state,
      JSON.stringify(event),
      this.#nowIso(),
    );
  }

  async createEntry(input: {
    entry: HandoffEntryDraft;
    event: EntryEventInput;
    jobs?: readonly NewJob[];
  }): Promise<{ created: boolean; entry: HandoffEntry }> {
    const { entry, event, jobs } = this.#entryInput(input);
    const key = { repository: entry.repository, issueNumber: entry.issue_number };
    return this.#write(() => {
      const existing = this.#entryRow(key);
      if (existing) return { created: false, entry: existing };
      const now = this.#nowIso();
      this.#sql(
        `INSERT INTO handoff_entries (repository, issue_number, entry, version, updated_at)
         VALUES (?, ?, ?, 1, ?)`,
      ).run(entry.repository, entry.issue_number, JSON.stringify(entry), now);
      const stored = { ...entry, version: 1 };
      this.#appendEntryEvent(stored, null, event);
      for (const job of jobs) this.#insertJobId(job, null, now);
      return { created: true, entry: stored };
    });
  }

  async getEntry(key: EntryKey): Promise<HandoffEntry | null> {
    return this.#entryRow(key);
  }

  async updateEntry(input: {
    expectedVersion: number;
    entry: HandoffEntryDraft;
    event: EntryEventInput;
    jobs?: readonly NewJob[];
  }): Promise<HandoffEntry> {
    const { entry, event, jobs } = this.#entryInput(input);
    const expected = parseInput(positiveIntSchema, input.expectedVersion, "expected version");
    const key = { repository: entry.repository, issueNumber: entry.issue_number };
    return this.#write(() => {
      const current = this.#entryRow(key);
      if (!current) {
        throw new NotFoundError(
          `no handoff entry ${key.repository}#${key.issueNumber} to update: create it first`,
        );
      }
      if (current.version !== expected) {
        throw new EntryVersionConflictError(
          key,
          `it is at version ${current.version}, not ${expected}`,
        );
      }
      if (event.comment_id !== null) {
        const seen = this.#sql(
          `SELECT version FROM handoff_entry_events
           WHERE repository = ? AND issue_number = ? AND comment_id = ?`,
        ).get(key.repository, key.issueNumber, event.comment_id) as { version: number } | undefined;
        if (seen) {
          throw new EntryVersionConflictError(
            key,
            `comment ${event.comment_id} was recorded at version ${seen.version} already`,
          );
        }
      }
      const now = this.#nowIso();
      const next = { ...entry, version: expected + 1 };
      this.#sql(
        `UPDATE handoff_entries SET entry = ?, version = ?, updated_at = ?
         WHERE repository = ? AND issue_number = ? AND version = ?`,
      ).run(JSON.stringify(entry), next.version, now, key.repository, key.issueNumber, expected);
      this.#appendEntryEvent(next, current.state, event);
      for (const job of jobs) this.#insertJobId(job, null, now);
      return next;
    });
  }

  async listEntryEvents(key: EntryKey): Promise<HandoffEntryEvent[]> {
    const rows = this.#sql(
      `SELECT e.id, e.repository, e.issue_number, e.version, e.from_state, e.to_state, e.event,
         p.posted_at
       FROM handoff_entry_events e LEFT JOIN handoff_entry_event_posts p ON p.event_id = e.id
       WHERE e.repository = ? AND e.issue_number = ? ORDER BY e.version`,
    ).all(key.repository, key.issueNumber) as Row[];
    return rows.map((row) => {
      const { event, ...rest } = parseRowWithJson(
        z.looseObject({ event: z.record(z.string(), z.unknown()) }),
        row,
        "handoff_entry_events",
        ["event"],
      );
      return parseRow(
        handoffEntryEventSchema,
        { ...event, ...rest },
        "handoff_entry_events",
        `id ${String(row.id)}`,
      );
    });
  }

  async markEntryEventPosted(key: EntryKey & { version: number; at: string }): Promise<void> {
    const at = parseInput(isoDateTimeSchema, key.at, "posted time");
    this.#write(() => {
      const event = this.#sql(
        `SELECT id FROM handoff_entry_events
         WHERE repository = ? AND issue_number = ? AND version = ?`,
      ).get(key.repository, key.issueNumber, key.version) as { id: number } | undefined;
      if (!event) {
        throw new NotFoundError(
          `handoff entry ${key.repository}#${key.issueNumber} has no event at version ${key.version}`,
        );
      }
      this.#sql(
        "INSERT INTO handoff_entry_event_posts (event_id, posted_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
      ).run(event.id, at);
    });
  }

  async listEntries(query: ListEntriesQuery = {}): Promise<HandoffEntry[]> {
    const rows = this.#sql(
      `SELECT repository, issue_number, entry, version FROM handoff_entries
       WHERE (@repository IS NULL OR repository = @repository)
         AND (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
       ORDER BY repository, issue_number`,
    ).all({
      repository: query.repository ?? null,
      states: query.states ? JSON.stringify(query.states) : null,
    }) as (Row & { entry: string; version: number })[];
    return rows.map((row) =>
      this.#entryFromRow(row, `${String(row.repository)}#${String(row.issue_number)}`),
    );
  }

  async replaceEntryMentions(
    input: PullRequestKey & { issues: readonly number[]; jobs?: readonly NewJob[] },
  ): Promise<number[]> {
    const { repository, pull_number, issues } = parseInput(
      entryMentionsInputSchema,
      { repository: input.repository, pull_number: input.pullNumber, issues: [...input.issues] },
      "entry mentions",
    );
    const jobs = parseInput(z.array(newJobSchema), input.jobs ?? [], "jobs of entry mentions");
    return this.#write(() => {
      const before = this.#sql(
        `SELECT issue_number FROM entry_mentions WHERE repository = ? AND pull_number = ?
         ORDER BY issue_number`,
      )
        .all(repository, pull_number)
        .map((row) => Number((row as { issue_number: number }).issue_number));
      this.#sql("DELETE FROM entry_mentions WHERE repository = ? AND pull_number = ?").run(
        repository,
        pull_number,
      );
      const insert = this.#sql(
        `INSERT INTO entry_mentions (repository, pull_number, issue_number) VALUES (?, ?, ?)
         ON CONFLICT DO NOTHING`,
      );
      for (const issue of issues) insert.run(repository, pull_number, issue);
      const now = this.#nowIso();
      for (const job of jobs) this.#insertJobId(job, null, now);
      return before;
    });
  }

  async listEntryMentions(query: PullRequestKey): Promise<number[]> {
    return this.#sql(
      `SELECT issue_number FROM entry_mentions WHERE repository = ? AND pull_number = ?
       ORDER BY issue_number`,
    )
      .all(query.repository, query.pullNumber)
      .map((row) => Number((row as { issue_number: number }).issue_number));
  }

  async listMentioningPullRequests(query: EntryKey): Promise<number[]> {
    return this.#sql(
      `SELECT pull_number FROM entry_mentions WHERE repository = ? AND issue_number = ?
       ORDER BY pull_number`,
    )
      .all(query.repository, query.issueNumber)
      .map((row) => Number((row as { pull_number: number }).pull_number));
  }

  async close(): Promise<void> {
    // Writes already accepted are committed (or refused) before the database closes.
    if (this.#db.open) await this.#deliveries.drain();
    if (this.#db.open) this.#db.close();
  }
}
