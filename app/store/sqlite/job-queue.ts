/** The JobQueue port on SQLite (../ports/job-queue.ts says what it promises). */
import type { ClaimedJob, JobLease, JobQueue } from "../ports/job-queue.js";
import * as jobRows from "../rows/job-queue.js";
import { holdsDedupeKey } from "../validate.js";
import type { Row, SqliteContext } from "./context.js";

/**
 * A job of the wanted kinds that is not waiting for an older job of its concurrency key (one
 * still queued or running): keyed jobs run one at a time, in order, even across retries.
 */
const RUNNABLE = `(@kinds IS NULL OR j.kind IN (SELECT value FROM json_each(@kinds)))
  AND (j.concurrency_key IS NULL OR NOT EXISTS (
    SELECT 1 FROM jobs o
    WHERE o.concurrency_key = j.concurrency_key AND o.id < j.id
      AND o.status IN ('queued', 'running')))`;

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

type Candidate = { id: number; run_at: string } | undefined;

/** The one that has been due longer (ties by id: enqueued first). */
function older(a: Candidate, b: Candidate): Candidate {
  if (!a || !b) return a ?? b;
  return a.run_at < b.run_at || (a.run_at === b.run_at && a.id < b.id) ? a : b;
}

/**
 * Inserts a job and returns its id only: the intake's path (a delivery's jobs) neither reads
 * the row back nor parses it (half of recordDelivery's time, docs/performance.md). Inside the
 * caller's transaction.
 */
export function insertJobId(
  c: SqliteContext,
  job: jobRows.NewJobRow,
  deliveryId: string | null,
  now: string,
  dedupe?: jobRows.Dedupe,
): number {
  return c
    .sql(
      `INSERT INTO jobs (kind, payload, concurrency_key, delivery_id, status, attempts,
         max_attempts, run_at, created_at, updated_at, dedupe_key, dedupe_until)
       VALUES (@kind, @payload, @concurrency_key, @delivery_id, 'queued', 0,
         @max_attempts, @run_at, @now, @now, @dedupe_key, @dedupe_until)
       RETURNING id`,
    )
    .pluck()
    .get(jobRows.jobParams(job, deliveryId, now, dedupe)) as number;
}

/** Jobs without a dedupe key, inside the caller's transaction. */
export function insertJobs(c: SqliteContext, jobs: readonly jobRows.NewJobRow[], now: string) {
  for (const job of jobs) insertJobId(c, job, null, now);
}

export class SqliteJobQueue implements JobQueue {
  constructor(private readonly c: SqliteContext) {}

  enqueue: JobQueue["enqueue"] = async (job, options = {}) => {
    const { job: parsed, dedupe } = jobRows.enqueueInput(job, options);
    return this.c.write(() => {
      // The write lock is held from here to the insert: no other enqueue of the key in between.
      if (dedupe.dedupeKey !== undefined) {
        const holder = this.c
          .sql(`SELECT * FROM jobs j WHERE dedupe_key = ? AND ${holdsDedupeKey("j")}`)
          .get(dedupe.dedupeKey) as Row | undefined;
        if (holder) return jobRows.jobFromRow(holder);
      }
      const id = insertJobId(this.c, parsed, null, this.c.nowIso(), dedupe);
      return jobRows.jobFromRow(this.c.sql("SELECT * FROM jobs WHERE id = ?").get(id) as Row);
    });
  };

  claimJob: JobQueue["claimJob"] = async (options) => {
    const { workerId, leaseMs, kinds } = jobRows.claimInput(options);
    return this.c.write((): ClaimedJob | null => {
      const now = this.c.now();
      const nowIso = now.toISOString();
      // A worker that died on its last attempt leaves a running job with an expired lease;
      // claiming it again would exceed max_attempts, so it is dead instead.
      this.c
        .sql(
          `UPDATE jobs INDEXED BY jobs_leased
         SET status = 'dead', lease_expires_at = NULL, updated_at = @now,
           last_error = 'the lease of ' || lease_owner || ' expired on attempt ' || attempts ||
             ' of ' || max_attempts || ' (the worker stopped or hung); last error: ' ||
             coalesce(last_error, 'none')
         WHERE status = 'running' AND lease_expires_at <= @now AND attempts >= max_attempts`,
        )
        .run({ now: nowIso });
      // Both reads and the lease write run in one immediate transaction, which serialises
      // claimers across connections and processes: nothing can take the row in between.
      const params = { now: nowIso, kinds: kinds ? JSON.stringify(kinds) : null };
      // INDEXED BY: without statistics the planner prefers jobs_by_status and sorts the queue.
      const due = this.c
        .sql(`SELECT id, run_at FROM jobs j INDEXED BY jobs_queued
         WHERE status = 'queued' AND run_at <= @now AND ${RUNNABLE} ORDER BY run_at, id LIMIT 1`)
        .get(params) as Candidate;
      const expired = this.c
        .sql(`SELECT id, run_at FROM jobs j INDEXED BY jobs_leased
         WHERE status = 'running' AND lease_expires_at <= @now AND ${RUNNABLE}
         ORDER BY run_at, id LIMIT 1`)
        .get(params) as Candidate;
      const pick = older(due, expired);
      if (!pick) return null;
      const row = this.c
        .sql(
          `UPDATE jobs SET status = 'running', lease_owner = @worker, lease_expires_at = @expires,
           attempts = attempts + 1, updated_at = @now
         WHERE id = @id RETURNING *`,
        )
        .get({
          id: pick.id,
          worker: workerId,
          expires: new Date(now.getTime() + leaseMs).toISOString(),
          now: nowIso,
        }) as Row | undefined;
      return jobRows.claimed(row, workerId);
    });
  };

  heartbeat: JobQueue["heartbeat"] = async (lease, leaseMs) => {
    const held = jobRows.leaseInput(lease);
    const ms = jobRows.leaseMsInput(leaseMs);
    return this.c.write(() => {
      const now = this.c.now();
      const row = this.c
        .sql(
          `UPDATE jobs SET lease_expires_at = @expires, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @worker AND attempts = @attempt
         RETURNING *`,
        )
        .get({
          ...jobRows.leaseParams(held),
          expires: new Date(now.getTime() + ms).toISOString(),
          now: now.toISOString(),
        }) as Row | undefined;
      if (!row) throw this.#leaseLost(held, "extend the lease of");
      return jobRows.jobFromRow(row);
    });
  };

  completeJob: JobQueue["completeJob"] = async (lease) => {
    const held = jobRows.leaseInput(lease);
    return this.c.write(() => {
      const row = this.c
        .sql(
          `UPDATE jobs SET status = 'done', lease_expires_at = NULL, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @worker AND attempts = @attempt
         RETURNING *`,
        )
        .get({ ...jobRows.leaseParams(held), now: this.c.nowIso() }) as Row | undefined;
      if (!row) throw this.#leaseLost(held, "complete");
      return jobRows.jobFromRow(row);
    });
  };

  failJob: JobQueue["failJob"] = async (lease, error, options = {}) => {
    const held = jobRows.leaseInput(lease);
    return this.c.write(() => {
      const now = this.c.nowIso();
      const row = this.c
        .sql(
          `UPDATE jobs SET
           status = CASE WHEN @permanent OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
           run_at = CASE WHEN @permanent OR attempts >= max_attempts THEN run_at ELSE @retry_at END,
           lease_owner = CASE WHEN @permanent OR attempts >= max_attempts
             THEN lease_owner ELSE NULL END,
           ${RETRY_GIVES_UP_DEDUPE_KEY},
           lease_expires_at = NULL, last_error = @error, updated_at = @now
         WHERE id = @id AND status = 'running' AND lease_owner = @worker AND attempts = @attempt
         RETURNING *`,
        )
        .get({
          ...jobRows.leaseParams(held),
          permanent: options.permanent ? 1 : 0,
          retry_at: jobRows.instant(options.retryAt ?? now),
          error: String(error).slice(-jobRows.MAX_ERROR_CHARS),
          now,
        }) as Row | undefined;
      if (!row) throw this.#leaseLost(held, "fail");
      return jobRows.jobFromRow(row);
    });
  };

  #leaseLost(lease: JobLease, action: string) {
    const row = this.c.sql("SELECT * FROM jobs WHERE id = ?").get(lease.jobId) as Row | undefined;
    return jobRows.leaseLost(lease, action, row);
  }

  getJob: JobQueue["getJob"] = async (id) => {
    const row = this.c.sql("SELECT * FROM jobs WHERE id = ?").get(id) as Row | undefined;
    return row ? jobRows.jobFromRow(row) : null;
  };

  listJobs: JobQueue["listJobs"] = async (query = {}) => {
    const rows = this.c
      .sql(`SELECT * FROM jobs WHERE ${JOB_FILTER} ORDER BY id`)
      .all(jobRows.jobFilter(query)) as Row[];
    return rows.map(jobRows.jobFromRow);
  };

  countJobs: JobQueue["countJobs"] = async (query = {}) => {
    const row = this.c
      .sql(`SELECT count(*) AS n FROM jobs WHERE ${JOB_FILTER}`)
      .get(jobRows.jobFilter(query)) as { n: number };
    return row.n;
  };
}
