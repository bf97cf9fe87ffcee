/**
 * The Store on PostgreSQL, for several App replicas on one database. One pool per store; each
 * method is one statement or one READ COMMITTED transaction. Where SQLite relies on its single
 * writer, this relies on row locks: jobs are claimed with FOR UPDATE SKIP LOCKED, an entry is
 * locked before its compare-and-set, and inserts that two replicas may race on (a delivery, an
 * entry, a stale mark) use ON CONFLICT so the loser sees the winner's row instead of an error.
 * Time comes from the injected clock, never from the server's now() (one guard excepted: the
 * prune trigger compares with the database host's clock, as SQLite's does).
 */
import pg from "pg";
import { z } from "zod";
import {
  type AcceptanceRecord,
  type AcceptanceRecordInput,
  acceptanceRecordInputSchema,
  acceptanceRecordSchema,
} from "../../../schemas/acceptance-record.js";
import {
  type Evaluation,
  type EvaluationInput,
  evaluationInputSchema,
  evaluationSchema,
} from "../../../schemas/evaluation.js";
import {
  type EntryEventInput,
  entryEventInputSchema,
  type HandoffEntry,
  type HandoffEntryDraft,
  type HandoffEntryEvent,
  handoffEntryDraftSchema,
  handoffEntryEventSchema,
  handoffEntrySchema,
} from "../../../schemas/handoff-entry.js";
import {
  gitShaSchema,
  isoDateTimeSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "../../../schemas/primitives.js";
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
} from "../../../schemas/store.js";
import { parseDeliveryInput } from "../delivery-input.js";
import {
  CorruptRowError,
  DeliveryPrunedError,
  LeaseLostError,
  NotFoundError,
  StoreError,
  StoreOpenError,
} from "../errors.js";
import { GroupCommit } from "../group-commit.js";
import type { ListAuditQuery } from "../ports/audit-log.js";
import {
  DEFAULT_PRUNE_LIMIT,
  MIN_DELIVERY_RETENTION_MS,
  type PruneDeliveriesOptions,
  type PruneDeliveriesResult,
  type RecordDeliveryInput,
  type RecordDeliveryResult,
} from "../ports/delivery-log.js";
import {
  type EntryKey,
  EntryVersionConflictError,
  type ListEntriesQuery,
} from "../ports/entry-store.js";
import type { ListEvaluationsQuery } from "../ports/evaluation-store.js";
import type {
  ClaimedJob,
  ClaimJobOptions,
  EnqueueOptions,
  FailJobOptions,
  JobLease,
  ListJobsQuery,
} from "../ports/job-queue.js";
import type { AppendOnce, HeadKey, PullRequestKey } from "../ports/keys.js";
import type { HeadSighting } from "../ports/observation-store.js";
import type { ListRecordsQuery, MarkStaleInput } from "../ports/record-store.js";
import type { WriteIntentLedger } from "../ports/write-intent-ledger.js";
import type { Clock, Store } from "../store.js";
import {
  appendOnceSchema,
  enqueueOptionsSchema,
  holdsDedupeKey,
  parseInput,
  parseRow,
  parseRowWithJson,
  toJsonColumn,
} from "../validate.js";
import { AGATE_TYPES, connectError, isRetriable, queryError, redactUrl } from "./connection.js";
import { type BatchWork, postgresGroupFlush, type Queryable } from "./group-commit.js";
import { migratePostgres } from "./migrations.js";
import { recordDeliveryRows } from "./record-delivery.js";
import { PostgresWriteIntents } from "./write-intents.js";

type Row = Record<string, unknown>;

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
const schemaNameSchema = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: "use lower-case letters, digits and _" });

const RECORD_COLUMNS = `r.id, r.repository, r.pull_number, r.head_sha, r.base_sha, r.tested,
  r.commands, r.provenance, r.runner, r.grader, r.verdict, r.verdict_by, r.handoff, r.override,
  r.decision, r.decided_at, r.recorded_at, m.superseded_by AS stale_superseded_by,
  m.at AS stale_at
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
 * A job of the wanted kinds ($2, a text[] or NULL) that is not waiting for an older job of its
 * concurrency key. Safe under SKIP LOCKED: an older job of the key is queued or running until
 * it is done or dead, so a claimer that skips it (locked by another) still sees it and waits.
 */
const RUNNABLE = `($2::text[] IS NULL OR j.kind = ANY ($2::text[]))
  AND (j.concurrency_key IS NULL OR NOT EXISTS (
    SELECT 1 FROM jobs o
    WHERE o.concurrency_key = j.concurrency_key AND o.id < j.id
      AND o.status IN ('queued', 'running')))`;

/**
 * A retried job ($4: failed for good) that held its key only until it started gives the key up
 * when another job of the key holds it now (both run), instead of breaking the unique index.
 */
const RETRY_GIVES_UP_DEDUPE_KEY = `dedupe_key = CASE
  WHEN NOT ($4 OR attempts >= max_attempts) AND EXISTS (
    SELECT 1 FROM jobs o WHERE o.dedupe_key = jobs.dedupe_key AND o.id <> jobs.id
      AND ${holdsDedupeKey("o")})
  THEN NULL ELSE dedupe_key END`;

/** The jobs a ListJobsQuery selects ($1..$4); an absent field selects all. */
const JOB_FILTER = `($1::text IS NULL OR status = $1::text)
  AND ($2::text IS NULL OR delivery_id = $2::text)
  AND ($3::text IS NULL OR kind = $3::text)
  AND ($4::text IS NULL OR concurrency_key = $4::text)`;

/** A failure is kept for people to read; a whole log in it would bloat every claim. */
const MAX_ERROR_CHARS = 16_384;

function instant(value: string | Date): string {
  return (typeof value === "string" ? new Date(value) : value).toISOString();
}

export class PostgresStore implements Store {
  readonly #pool: pg.Pool;
  readonly #now: Clock;
  readonly #location: string;
  readonly #statementTimeoutMs: number;
  #closed = false;

  readonly #intents: PostgresWriteIntents;
  /** Deliveries recorded together share one transaction (../group-commit.ts). */
  readonly #deliveries: GroupCommit<BatchWork<RecordDeliveryResult>, RecordDeliveryResult>;

  private constructor(pool: pg.Pool, now: Clock, location: string, statementTimeoutMs: number) {
    this.#pool = pool;
    this.#now = now;
    this.#location = location;
    this.#statementTimeoutMs = statementTimeoutMs;
    this.#intents = new PostgresWriteIntents((text, values) => this.#rows(text, values), now);
    this.#deliveries = new GroupCommit(
      postgresGroupFlush({
        pool,
        alone: (work) => this.#tx(work),
        describe: (error) => queryError(location, statementTimeoutMs, error),
      }),
      // Half the pool: batches in flight side by side, and connections left for the workers.
      { maxFlushes: Math.max(1, Math.floor((pool.options.max ?? DEFAULT_POOL_SIZE) / 2)) },
    );
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

  #nowIso(): string {
    return this.#now().toISOString();
  }

  async #query<R extends Row = Row>(
    text: string,
    values: unknown[] = [],
    on: Queryable = this.#pool,
  ): Promise<pg.QueryResult<R>> {
    try {
      return await on.query<R>(text, values);
    } catch (error) {
      throw queryError(this.#location, this.#statementTimeoutMs, error);
    }
  }

  async #rows<R extends Row = Row>(
    text: string,
    values: unknown[] = [],
    on: Queryable = this.#pool,
  ): Promise<R[]> {
    return (await this.#query<R>(text, values, on)).rows;
  }

  /**
   * One READ COMMITTED transaction; run again from the start (at most three times) when the
   * server rolled it back for a deadlock or serialisation failure.
   */
  async #tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.#pool.connect();
      } catch (error) {
        throw queryError(this.#location, this.#statementTimeoutMs, error);
      }
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await fn(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        if (attempt < 3 && isRetriable(error)) continue;
        throw queryError(this.#location, this.#statementTimeoutMs, error);
      } finally {
        client.release(broken);
      }
    }
  }

  // ---- deliveries -------------------------------------------------------------------------------

  async recordDelivery(input: RecordDeliveryInput): Promise<RecordDeliveryResult> {
    const { delivery, payload, jobs, sightings } = parseDeliveryInput(input);
    return this.#deliveries.submit((client) =>
      recordDeliveryRows((text, values) => this.#query(text, values, client), {
        delivery,
        payload,
        jobs,
        sightings,
        now: this.#nowIso(),
      }),
    );
  }

  async getDelivery(id: string): Promise<StoredDelivery | null> {
    const [row] = await this.#rows(
      `SELECT d.id, d.event, d.action, d.payload_sha256, p.payload, d.received_at,
         x.pruned_at, x.retention_ms
       FROM deliveries d
       LEFT JOIN delivery_payloads p ON p.delivery_id = d.id
       LEFT JOIN delivery_payload_prunes x ON x.delivery_id = d.id
       WHERE d.id = $1`,
      [id],
    );
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
    const [row] = await this.#rows(
      `SELECT d.id, d.event, d.action, d.payload_sha256, d.received_at, d.repository,
         d.recorded_at, x.pruned_at, x.retention_ms
       FROM deliveries d LEFT JOIN delivery_payload_prunes x ON x.delivery_id = d.id
       WHERE d.id = $1`,
      [id],
    );
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
    const now = this.#now();
    // SKIP LOCKED: two replicas pruning at once take different payloads instead of one of them
    // failing in the trigger on a payload the other just removed. The trigger on
    // delivery_payload_prunes checks each row again and deletes its payload.
    const result = await this.#query(
      `WITH candidates AS (
         SELECT p.delivery_id FROM delivery_payloads p
         JOIN deliveries d ON d.id = p.delivery_id
         WHERE d.recorded_at <= $1
           AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.delivery_id = d.id
             AND j.status IN ('queued', 'running'))
         LIMIT $2
         FOR UPDATE OF p SKIP LOCKED)
       INSERT INTO delivery_payload_prunes (delivery_id, retention_ms, pruned_at)
       SELECT delivery_id, $3, $4 FROM candidates`,
      [new Date(now.getTime() - retentionMs).toISOString(), limit, retentionMs, now.toISOString()],
    );
    const pruned = result.rowCount ?? 0;
    return { pruned, more: pruned === limit };
  }

  // ---- jobs -------------------------------------------------------------------------------------

  /** The new job; undefined only when `dedupe` names a key another job holds. */
  async #insertJob(
    on: Queryable,
    job: z.output<typeof newJobSchema>,
    deliveryId: string | null,
    now: string,
    dedupe: z.output<typeof enqueueOptionsSchema> = { until: "finished" },
  ): Promise<Job | undefined> {
    const [row] = await this.#rows(
      `INSERT INTO jobs (kind, payload, concurrency_key, delivery_id, status, attempts,
         max_attempts, run_at, created_at, updated_at, dedupe_key, dedupe_until)
       VALUES ($1, $2, $3, $4, 'queued', 0, $5, $6, $7, $7, $8, $9)
       ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND ${holdsDedupeKey()}
       DO NOTHING
       RETURNING *`,
      [
        job.kind,
        JSON.stringify(job.payload),
        job.concurrency_key,
        deliveryId,
        job.max_attempts,
        instant(job.run_at ?? now),
        now,
        dedupe.dedupeKey ?? null,
        dedupe.until,
      ],
      on,
    );
    return row ? this.#jobFromRow(row) : undefined;
  }

  /** A job without a dedupe key: its insert always writes a row. */
  async #insertPlainJob(
    on: Queryable,
    job: z.output<typeof newJobSchema>,
    deliveryId: string | null,
    now: string,
  ): Promise<Job> {
    const inserted = await this.#insertJob(on, job, deliveryId, now);
    if (!inserted) throw new Error("a job without a dedupe key was not inserted");
    return inserted;
  }

  #jobFromRow(row: Row): Job {
    // The dedupe columns are the queue's own bookkeeping, not part of a Job.
    const { dedupe_key: _key, dedupe_until: _until, ...job } = row;
    return parseRowWithJson(jobSchema, job, "jobs", ["payload"]);
  }

  async enqueue(job: NewJob, options: EnqueueOptions = {}): Promise<Job> {
    const parsed = parseInput(newJobSchema, job, "job");
    const dedupe = parseInput(enqueueOptionsSchema, options, "enqueue options");
    // A concurrent enqueue of the key waits on the first one's index entry, then does nothing;
    // the holder it then reads may have finished in between, so the insert is tried again.
    for (let attempt = 1; ; attempt++) {
      const inserted = await this.#insertJob(this.#pool, parsed, null, this.#nowIso(), dedupe);
      if (inserted) return inserted;
      const [holder] = await this.#rows(
        `SELECT * FROM jobs j WHERE dedupe_key = $1 AND ${holdsDedupeKey("j")}`,
        [dedupe.dedupeKey],
      );
      if (holder) return this.#jobFromRow(holder);
      if (attempt >= 5) {
        throw new StoreError(
          "dedupe_contention",
          `jobs of dedupe key ${dedupe.dedupeKey} kept finishing while one was enqueued: ` +
            "nothing was written; enqueue again",
        );
      }
    }
  }

  async claimJob(options: ClaimJobOptions): Promise<ClaimedJob | null> {
    const { workerId, leaseMs, kinds } = parseInput(claimOptionsSchema, options, "claim options");
    const now = this.#now();
    const nowIso = now.toISOString();
    // A worker that died on its last attempt leaves a running job with an expired lease;
    // claiming it again would exceed max_attempts, so it is dead instead.
    await this.#query(
      `UPDATE jobs
       SET status = 'dead', lease_expires_at = NULL, updated_at = $1,
         last_error = 'the lease of ' || lease_owner || ' expired on attempt ' || attempts ||
           ' of ' || max_attempts || ' (the worker stopped or hung); last error: ' ||
           coalesce(last_error, 'none')
       WHERE status = 'running' AND lease_expires_at <= $1 AND attempts >= max_attempts`,
      [nowIso],
    );
    // One statement, one round trip: the oldest due job and the oldest expired lease, each
    // locked (SKIP LOCKED: a job another replica is claiming right now is passed over, not
    // waited for), and the older of the two leased; the other's lock ends with the statement.
    // An expired lease on its last attempt is left for the UPDATE above (it expired since).
    const [row] = await this.#rows(
      `WITH due AS (
         SELECT id, run_at FROM jobs j
         WHERE status = 'queued' AND run_at <= $1 AND ${RUNNABLE}
         ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
       ), expired AS (
         SELECT id, run_at FROM jobs j
         WHERE status = 'running' AND lease_expires_at <= $1 AND attempts < max_attempts
           AND ${RUNNABLE}
         ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
       ), pick AS (
         SELECT id FROM (SELECT * FROM due UNION ALL SELECT * FROM expired) c
         ORDER BY run_at, id LIMIT 1
       )
       UPDATE jobs SET status = 'running', lease_owner = $3, lease_expires_at = $4,
         attempts = attempts + 1, updated_at = $1
       FROM pick WHERE jobs.id = pick.id RETURNING jobs.*`,
      [nowIso, kinds ?? null, workerId, new Date(now.getTime() + leaseMs).toISOString()],
    );
    if (!row) return null;
    const job = this.#jobFromRow(row);
    return { job, lease: { jobId: job.id, workerId, attempt: job.attempts } };
  }

  async heartbeat(lease: JobLease, leaseMs: number): Promise<Job> {
    const held = parseInput(leaseSchema, lease, "job lease");
    const ms = parseInput(positiveIntSchema, leaseMs, "lease duration (ms)");
    const now = this.#now();
    const [row] = await this.#rows(
      `UPDATE jobs SET lease_expires_at = $4, updated_at = $5
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 AND attempts = $3
       RETURNING *`,
      [...this.#leaseParams(held), new Date(now.getTime() + ms).toISOString(), now.toISOString()],
    );
    if (!row) throw await this.#leaseLost(held, "extend the lease of");
    return this.#jobFromRow(row);
  }

  async completeJob(lease: JobLease): Promise<Job> {
    const held = parseInput(leaseSchema, lease, "job lease");
    const [row] = await this.#rows(
      `UPDATE jobs SET status = 'done', lease_expires_at = NULL, updated_at = $4
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 AND attempts = $3
       RETURNING *`,
      [...this.#leaseParams(held), this.#nowIso()],
    );
    if (!row) throw await this.#leaseLost(held, "complete");
    return this.#jobFromRow(row);
  }

  async failJob(lease: JobLease, error: string, options: FailJobOptions = {}): Promise<Job> {
    const held = parseInput(leaseSchema, lease, "job lease");
    const now = this.#nowIso();
    // PostgreSQL text cannot hold NUL, and a command's output may: shown as ␀ instead.
    const message = String(error).slice(-MAX_ERROR_CHARS).replaceAll("\u0000", "\u2400");
    const fail = () =>
      this.#rows(
        `UPDATE jobs SET
           status = CASE WHEN $4 OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
           run_at = CASE WHEN $4 OR attempts >= max_attempts THEN run_at ELSE $5 END,
           lease_owner = CASE WHEN $4 OR attempts >= max_attempts THEN lease_owner ELSE NULL END,
           ${RETRY_GIVES_UP_DEDUPE_KEY},
           lease_expires_at = NULL, last_error = $6, updated_at = $7
         WHERE id = $1 AND status = 'running' AND lease_owner = $2 AND attempts = $3
         RETURNING *`,
        [
          ...this.#leaseParams(held),
          options.permanent === true,
          instant(options.retryAt ?? now),
          message,
          now,
        ],
      );
    // A job of the key enqueued while this statement ran is seen only when it runs again.
    const [row] = await fail().catch((cause: unknown) => {
      if ((cause as { code?: unknown }).code === "23505") return fail();
      throw cause;
    });
    if (!row) throw await this.#leaseLost(held, "fail");
    return this.#jobFromRow(row);
  }

  #leaseParams(lease: JobLease): [number, string, number] {
    return [lease.jobId, lease.workerId, lease.attempt];
  }

  /** Says what became of the job, so the log explains why the worker's result was dropped. */
  async #leaseLost(lease: JobLease, action: string): Promise<StoreError> {
    const [row] = await this.#rows("SELECT * FROM jobs WHERE id = $1", [lease.jobId]);
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
    const [row] = await this.#rows("SELECT * FROM jobs WHERE id = $1", [id]);
    return row ? this.#jobFromRow(row) : null;
  }

  async listJobs(query: ListJobsQuery = {}): Promise<Job[]> {
    const rows = await this.#rows(
      `SELECT * FROM jobs WHERE ${JOB_FILTER} ORDER BY id`,
      this.#jobFilter(query),
    );
    return rows.map((row) => this.#jobFromRow(row));
  }

  async countJobs(query: ListJobsQuery = {}): Promise<number> {
    const [row] = await this.#rows<{ n: number }>(
      `SELECT count(*) AS n FROM jobs WHERE ${JOB_FILTER}`,
      this.#jobFilter(query),
    );
    return row?.n ?? 0;
  }

  #jobFilter(query: ListJobsQuery): (string | null)[] {
    return [
      query.status ? parseInput(jobStatusSchema, query.status, "job status") : null,
      query.deliveryId ?? null,
      query.kind ?? null,
      query.concurrencyKey ?? null,
    ];
  }

  // ---- acceptance records -----------------------------------------------------------------------

  async appendRecord(
    input: AcceptanceRecordInput,
    options: AppendOnce = {},
  ): Promise<AcceptanceRecord> {
    const record = parseInput(acceptanceRecordInputSchema, input, "acceptance record");
    const { dedupeKey = null } = parseInput(appendOnceSchema, options, "append options");
    return this.#tx(async (client) => {
      const [inserted] = await this.#rows<{ id: number }>(
        `INSERT INTO acceptance_records (repository, pull_number, head_sha, base_sha, tested,
           commands, provenance, runner, grader, verdict, verdict_by, handoff, override, decision,
           decided_at, recorded_at, dedupe_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING id`,
        [
          record.repository,
          record.pull_number,
          record.head_sha,
          record.base_sha,
          toJsonColumn(record.tested),
          JSON.stringify(record.commands),
          toJsonColumn(record.provenance),
          toJsonColumn(record.runner),
          JSON.stringify(record.grader),
          toJsonColumn(record.verdict),
          record.verdict_by,
          toJsonColumn(record.handoff),
          toJsonColumn(record.override),
          JSON.stringify(record.decision),
          record.decided_at,
          this.#nowIso(),
          dedupeKey,
        ],
        client,
      );
      const [row] = await this.#rows(
        `SELECT ${RECORD_COLUMNS} WHERE ${inserted ? "r.id = $1" : "r.dedupe_key = $1"}`,
        [inserted ? inserted.id : dedupeKey],
        client,
      );
      return this.#recordFromRow(row as Row);
    });
  }

  async markStale(input: MarkStaleInput): Promise<number> {
    const mark = parseInput(markStaleSchema, input, "stale mark");
    // ON CONFLICT: two replicas handling the same push mark each record once between them.
    const result = await this.#query(
      `INSERT INTO acceptance_record_stale_marks (record_id, superseded_by, at, recorded_at)
       SELECT r.id, $3, $4, $5 FROM acceptance_records r
       WHERE r.repository = $1 AND r.pull_number = $2 AND r.head_sha <> $3
         AND NOT EXISTS (
           SELECT 1 FROM acceptance_record_stale_marks m WHERE m.record_id = r.id)
       ON CONFLICT (record_id) DO NOTHING`,
      [mark.repository, mark.pullNumber, mark.supersededBy, mark.at, this.#nowIso()],
    );
    return result.rowCount ?? 0;
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
    const rows = await this.#rows(
      `SELECT ${RECORD_COLUMNS}
       WHERE r.repository = $1 AND r.pull_number = $2
         AND ($3::text IS NULL OR r.head_sha = $3::text)
         AND ($4::text IS NULL OR r.tested_tree_sha = $4::text)
       ORDER BY r.id`,
      [query.repository, query.pullNumber, query.headSha ?? null, query.treeSha ?? null],
    );
    return rows.map((row) => this.#recordFromRow(row));
  }

  async listRepositories(): Promise<string[]> {
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
    const rows = await this.#rows<{ name: string }>(
      `SELECT name FROM (
         SELECT repository AS name FROM deliveries WHERE repository IS NOT NULL
         UNION SELECT repository FROM acceptance_records) AS known
       ORDER BY name COLLATE "C"`,
    );
    return rows.map((row) => row.name);
  }

  // ---- audit log --------------------------------------------------------------------------------

  async appendAudit(input: AuditEntryInput, options: AppendOnce = {}): Promise<AuditEntry> {
    const entry = parseInput(auditEntryInputSchema, input, "audit entry");
    const { dedupeKey = null } = parseInput(appendOnceSchema, options, "append options");
    const [row] = await this.#rows<{ id: number }>(
      `INSERT INTO audit_log (kind, subject, decision, facts, at, recorded_at, dedupe_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
      [
        entry.kind,
        entry.subject,
        JSON.stringify(entry.decision),
        JSON.stringify(entry.facts),
        entry.at,
        this.#nowIso(),
        dedupeKey,
      ],
    );
    if (row) return { id: row.id, ...entry };
    const [stored] = await this.#rows(
      "SELECT id, kind, subject, decision, facts, at FROM audit_log WHERE dedupe_key = $1",
      [dedupeKey],
    );
    return parseRowWithJson(auditEntrySchema, stored as Row, "audit_log", ["decision", "facts"]);
  }

  async listAudit(query: ListAuditQuery = {}): Promise<AuditEntry[]> {
    // LIMIT NULL is no limit.
    const limit =
      query.limit === undefined ? null : parseInput(positiveIntSchema, query.limit, "audit limit");
    const order = query.order === "desc" ? "DESC" : "ASC";
    const rows = await this.#rows(
      `SELECT id, kind, subject, decision, facts, at FROM audit_log
       WHERE ($1::text IS NULL OR subject = $1::text) AND ($2::text IS NULL OR kind = $2::text)
       ORDER BY id ${order} LIMIT $3`,
      [query.subject ?? null, query.kind ?? null, limit],
    );
    return rows.map((row) =>
      parseRowWithJson(auditEntrySchema, row, "audit_log", ["decision", "facts"]),
    );
  }

  // ---- evaluations ------------------------------------------------------------------------------

  async appendEvaluation(input: EvaluationInput): Promise<Evaluation> {
    const evaluation = parseInput(evaluationInputSchema, input, "evaluation");
    const [row] = await this.#rows<{ id: number }>(
      `INSERT INTO evaluations
         (repository, pull_number, head_sha, tree_sha, config_digest, run, outcome, status, at,
          recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
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
      ],
    );
    return { id: row?.id as number, ...evaluation };
  }

  async listEvaluations(query: ListEvaluationsQuery): Promise<Evaluation[]> {
    // `since` compares instants (an offset-written time is placed right), as SQLite does.
    const rows = await this.#rows(
      `SELECT id, repository, pull_number, head_sha, tree_sha, config_digest, run, outcome, at
       FROM evaluations
       WHERE repository = $1 AND pull_number = $2
         AND ($3::text IS NULL OR tree_sha = $3::text)
         AND ($4::timestamptz IS NULL OR at::timestamptz >= $4::timestamptz)
       ORDER BY id`,
      [
        query.repository,
        query.pullNumber,
        query.treeSha ?? null,
        query.since === undefined
          ? null
          : parseInput(isoDateTimeSchema, query.since, "evaluations since"),
      ],
    );
    return rows.map((row) =>
      parseRowWithJson(evaluationSchema, row, "evaluations", ["run", "outcome"]),
    );
  }

  // ---- maintainer overrides ---------------------------------------------------------------------

  async appendOverride(input: OverrideInput, options: AppendOnce = {}): Promise<StoredOverride> {
    const override = parseInput(overrideInputSchema, input, "maintainer override");
    const { dedupeKey = null } = parseInput(appendOnceSchema, options, "append options");
    const [row] = await this.#rows<{ id: number }>(
      `INSERT INTO maintainer_overrides (repository, pull_number, head_sha, base_ref, by, reason,
         comment_url, at, recorded_at, dedupe_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
      [
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
      ],
    );
    if (row) return { id: row.id, ...override };
    const [stored] = await this.#rows(
      `SELECT id, repository, pull_number, head_sha, base_ref, by, reason, comment_url, at
       FROM maintainer_overrides WHERE dedupe_key = $1`,
      [dedupeKey],
    );
    return parseRowWithJson(storedOverrideSchema, stored as Row, "maintainer_overrides", []);
  }

  async listOverrides(query: HeadKey): Promise<StoredOverride[]> {
    const rows = await this.#rows(
      `SELECT id, repository, pull_number, head_sha, base_ref, by, reason, comment_url, at
       FROM maintainer_overrides
       WHERE repository = $1 AND pull_number = $2 AND head_sha = $3 ORDER BY id`,
      [query.repository, query.pullNumber, query.headSha],
    );
    return rows.map((row) =>
      parseRowWithJson(storedOverrideSchema, row, "maintainer_overrides", []),
    );
  }

  // ---- observations of GitHub -------------------------------------------------------------------

  async recordMergeCommit(observation: MergeCommitObservation): Promise<void> {
    const seen = parseInput(mergeCommitObservationSchema, observation, "merge commit");
    await this.#query(
      `INSERT INTO merge_commits (repository, pull_number, head_sha, merge_sha, observed_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [seen.repository, seen.pull_number, seen.head_sha, seen.merge_sha, seen.observed_at],
    );
  }

  async listMergeCommits(query: HeadKey): Promise<string[]> {
    const rows = await this.#rows<{ merge_sha: string }>(
      `SELECT merge_sha FROM merge_commits
       WHERE repository = $1 AND pull_number = $2 AND head_sha = $3
       ORDER BY observed_at COLLATE "C", merge_sha COLLATE "C"`,
      [query.repository, query.pullNumber, query.headSha],
    );
    return rows.map((row) => row.merge_sha);
  }

  async recordHeadObservation(observation: HeadObservation): Promise<void> {
    const seen = parseInput(headObservationSchema, observation, "head observation");
    await this.#query(
      `INSERT INTO head_observations (repository, head_sha, pull_number, base_ref, observed_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [seen.repository, seen.head_sha, seen.pull_number, seen.base_ref, seen.observed_at],
    );
  }

  async listHeadObservations(query: {
    repository: string;
    headSha: string;
  }): Promise<HeadSighting[]> {
    return this.#rows<HeadSighting>(
      `SELECT pull_number, base_ref FROM head_observations
       WHERE repository = $1 AND head_sha = $2
       ORDER BY observed_at COLLATE "C", pull_number, base_ref COLLATE "C"`,
      [query.repository, query.headSha],
    );
  }

  async listBaseSightings(query: { repository: string; headSha: string }): Promise<BaseSighting[]> {
    return this.#rows<BaseSighting>(
      `SELECT repository, pull_number, head_sha, base_ref, delivery_id, seen_at
       FROM base_sightings WHERE repository = $1 AND head_sha = $2
       ORDER BY seen_at COLLATE "C", pull_number, base_ref COLLATE "C"`,
      [query.repository, query.headSha],
    );
  }

  async recordPullRequestSighting(sighting: PullRequestSighting): Promise<void> {
    const seen = parseInput(pullRequestSightingSchema, sighting, "pull request sighting");
    await this.#query(
      `INSERT INTO pull_request_sightings
         (repository, pull_number, updated_at, digest, observed_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (repository, pull_number) DO UPDATE SET
         updated_at = excluded.updated_at, digest = excluded.digest,
         observed_at = excluded.observed_at
       WHERE excluded.updated_at::timestamptz
         >= pull_request_sightings.updated_at::timestamptz`,
      [seen.repository, seen.pull_number, seen.updated_at, seen.digest, seen.observed_at],
    );
  }

  async latestPullRequestSighting(query: PullRequestKey): Promise<PullRequestSighting | null> {
    const [row] = await this.#rows(
      `SELECT repository, pull_number, updated_at, digest, observed_at FROM pull_request_sightings
       WHERE repository = $1 AND pull_number = $2`,
      [query.repository, query.pullNumber],
    );
    return row === undefined
      ? null
      : parseRow(
          pullRequestSightingSchema,
          row,
          "pull_request_sightings",
          `${query.repository}#${query.pullNumber}`,
        );
  }

  // ---- the write-intent ledger (write-intents.ts) -------------------------------------------------

  recordWriteIntent(...args: Parameters<WriteIntentLedger["recordWriteIntent"]>) {
    return this.#intents.recordWriteIntent(...args);
  }

  completeWriteIntent(...args: Parameters<WriteIntentLedger["completeWriteIntent"]>) {
    return this.#intents.completeWriteIntent(...args);
  }

  listPendingWriteIntents(...args: Parameters<WriteIntentLedger["listPendingWriteIntents"]>) {
    return this.#intents.listPendingWriteIntents(...args);
  }

  async beginCheckRunWrite(query: { repository: string; headSha: string }): Promise<void> {
    await this.#query(
      "UPDATE agate_check_runs SET known = false WHERE repository = $1 AND head_sha = $2",
      [query.repository, query.headSha],
    );
  }

  async recordCheckRun(entry: CheckRunEntry): Promise<void> {
    const known = parseInput(checkRunEntrySchema, entry, "check run entry");
    await this.#query(
      `INSERT INTO agate_check_runs (repository, head_sha, known, check_run, written_at)
       VALUES ($1, $2, true, $3, $4)
       ON CONFLICT (repository, head_sha) DO UPDATE SET
         known = true, check_run = excluded.check_run, written_at = excluded.written_at`,
      [known.repository, known.head_sha, JSON.stringify(known.check), known.written_at],
    );
  }

  async knownCheckRun(query: {
    repository: string;
    headSha: string;
  }): Promise<AgateCheckRun | null> {
    const [row] = await this.#rows<{ check_run: string }>(
      "SELECT check_run FROM agate_check_runs WHERE repository = $1 AND head_sha = $2 AND known",
      [query.repository, query.headSha],
    );
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

  async #entryRow(on: Queryable, key: EntryKey, lock = false): Promise<HandoffEntry | null> {
    const [row] = await this.#rows<{ entry: string; version: number }>(
      `SELECT entry, version FROM handoff_entries WHERE repository = $1 AND issue_number = $2
       ${lock ? "FOR UPDATE" : ""}`,
      [key.repository, key.issueNumber],
      on,
    );
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

  async #appendEntryEvent(
    on: Queryable,
    entry: HandoffEntry,
    from: HandoffEntry["state"] | null,
    event: EntryEventInput,
  ): Promise<void> {
    await this.#query(
      `INSERT INTO handoff_entry_events (repository, issue_number, version, kind, actor,
         comment_id, from_state, to_state, event, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
      on,
    );
  }

  async createEntry(input: {
    entry: HandoffEntryDraft;
    event: EntryEventInput;
    jobs?: readonly NewJob[];
  }): Promise<{ created: boolean; entry: HandoffEntry }> {
    const { entry, event, jobs } = this.#entryInput(input);
    const key = { repository: entry.repository, issueNumber: entry.issue_number };
    return this.#tx(async (client) => {
      const now = this.#nowIso();
      // ON CONFLICT: two replicas opening the same issue's entry; the second returns the first's.
      const inserted = await this.#query(
        `INSERT INTO handoff_entries (repository, issue_number, entry, version, updated_at)
         VALUES ($1, $2, $3, 1, $4) ON CONFLICT DO NOTHING`,
        [entry.repository, entry.issue_number, JSON.stringify(entry), now],
        client,
      );
      if (inserted.rowCount === 0) {
        const existing = await this.#entryRow(client, key);
        if (existing) return { created: false, entry: existing };
      }
      const stored = { ...entry, version: 1 };
      await this.#appendEntryEvent(client, stored, null, event);
      for (const job of jobs) await this.#insertPlainJob(client, job, null, now);
      return { created: true, entry: stored };
    });
  }

  async getEntry(key: EntryKey): Promise<HandoffEntry | null> {
    return this.#entryRow(this.#pool, key);
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
    return this.#tx(async (client) => {
      // Locked: a second writer waits here, then reads the version the first one wrote.
      const current = await this.#entryRow(client, key, true);
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
        const [seen] = await this.#rows<{ version: number }>(
          `SELECT version FROM handoff_entry_events
           WHERE repository = $1 AND issue_number = $2 AND comment_id = $3`,
          [key.repository, key.issueNumber, event.comment_id],
          client,
        );
        if (seen) {
          throw new EntryVersionConflictError(
            key,
            `comment ${event.comment_id} was recorded at version ${seen.version} already`,
          );
        }
      }
      const now = this.#nowIso();
      const next = { ...entry, version: expected + 1 };
      await this.#query(
        `UPDATE handoff_entries SET entry = $1, version = $2, updated_at = $3
         WHERE repository = $4 AND issue_number = $5 AND version = $6`,
        [JSON.stringify(entry), next.version, now, key.repository, key.issueNumber, expected],
        client,
      );
      await this.#appendEntryEvent(client, next, current.state, event);
      for (const job of jobs) await this.#insertPlainJob(client, job, null, now);
      return next;
    });
  }

  async listEntryEvents(key: EntryKey): Promise<HandoffEntryEvent[]> {
    const rows = await this.#rows(
      `SELECT e.id, e.repository, e.issue_number, e.version, e.from_state, e.to_state, e.event,
         p.posted_at
       FROM handoff_entry_events e LEFT JOIN handoff_entry_event_posts p ON p.event_id = e.id
       WHERE e.repository = $1 AND e.issue_number = $2 ORDER BY e.version`,
      [key.repository, key.issueNumber],
    );
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
    await this.#tx(async (client) => {
      const [event] = await this.#rows<{ id: number }>(
        `SELECT id FROM handoff_entry_events
         WHERE repository = $1 AND issue_number = $2 AND version = $3`,
        [key.repository, key.issueNumber, key.version],
        client,
      );
      if (!event) {
        throw new NotFoundError(
          `handoff entry ${key.repository}#${key.issueNumber} has no event at version ${key.version}`,
        );
      }
      await this.#query(
        `INSERT INTO handoff_entry_event_posts (event_id, posted_at) VALUES ($1, $2)
         ON CONFLICT DO NOTHING`,
        [event.id, at],
        client,
      );
    });
  }

  async listEntries(query: ListEntriesQuery = {}): Promise<HandoffEntry[]> {
    const rows = await this.#rows<Row & { entry: string; version: number }>(
      `SELECT repository, issue_number, entry, version FROM handoff_entries
       WHERE ($1::text IS NULL OR repository = $1::text)
         AND ($2::text[] IS NULL OR state = ANY ($2::text[]))
       ORDER BY repository COLLATE "C", issue_number`,
      [query.repository ?? null, query.states ? [...query.states] : null],
    );
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
    return this.#tx(async (client) => {
      const before = await this.#rows<{ issue_number: number }>(
        `DELETE FROM entry_mentions WHERE repository = $1 AND pull_number = $2
         RETURNING issue_number`,
        [repository, pull_number],
        client,
      );
      if (issues.length > 0) {
        await this.#query(
          `INSERT INTO entry_mentions (repository, pull_number, issue_number)
           SELECT $1, $2, issue FROM unnest($3::integer[]) AS issue
           ON CONFLICT DO NOTHING`,
          [repository, pull_number, issues],
          client,
        );
      }
      const now = this.#nowIso();
      for (const job of jobs) await this.#insertPlainJob(client, job, null, now);
      return before.map((row) => Number(row.issue_number)).sort((a, b) => a - b);
    });
  }

  async listEntryMentions(query: PullRequestKey): Promise<number[]> {
    const rows = await this.#rows<{ issue_number: number }>(
      `SELECT issue_number FROM entry_mentions WHERE repository = $1 AND pull_number = $2
       ORDER BY issue_number`,
      [query.repository, query.pullNumber],
    );
    return rows.map((row) => Number(row.issue_number));
  }

  async listMentioningPullRequests(query: EntryKey): Promise<number[]> {
    const rows = await this.#rows<{ pull_number: number }>(
      `SELECT pull_number FROM entry_mentions WHERE repository = $1 AND issue_number = $2
       ORDER BY pull_number`,
      [query.repository, query.issueNumber],
    );
    return rows.map((row) => Number(row.pull_number));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Deliveries already accepted are committed (or refused) before the pool ends.
    await this.#deliveries.drain();
    await this.#pool.end();
  }
}
