/**
 * The JobQueue port on PostgreSQL (../ports/job-queue.ts says what it promises). Jobs are
 * claimed with FOR UPDATE SKIP LOCKED; a dedupe key is held by a unique index, not a lock.
 */
import type { Job } from "../../../schemas/store.js";
import { StoreError } from "../errors.js";
import type { JobLease, JobQueue } from "../ports/job-queue.js";
import * as jobRows from "../rows/job-queue.js";
import { holdsDedupeKey } from "../validate.js";
import type { PostgresContext } from "./context.js";
import type { Queryable } from "./group-commit.js";

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

/** The new job; undefined only when `dedupe` names a key another job holds. */
async function insertJob(
  c: PostgresContext,
  on: Queryable,
  job: jobRows.NewJobRow,
  deliveryId: string | null,
  now: string,
  dedupe?: jobRows.Dedupe,
): Promise<Job | undefined> {
  const [row] = await c.rows(
    `INSERT INTO jobs (kind, payload, concurrency_key, delivery_id, status, attempts,
       max_attempts, run_at, created_at, updated_at, dedupe_key, dedupe_until)
     VALUES ($1, $2, $3, $4, 'queued', 0, $5, $6, $7, $7, $8, $9)
     ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND ${holdsDedupeKey()}
     DO NOTHING
     RETURNING *`,
    Object.values(jobRows.jobParams(job, deliveryId, now, dedupe)),
    on,
  );
  return row ? jobRows.jobFromRow(row) : undefined;
}

/** Jobs without a dedupe key, inside the caller's transaction: each insert writes a row. */
export async function insertPlainJobs(
  c: PostgresContext,
  on: Queryable,
  jobs: readonly jobRows.NewJobRow[],
  now: string,
): Promise<void> {
  for (const job of jobs) {
    const inserted = await insertJob(c, on, job, null, now);
    if (!inserted) throw new Error("a job without a dedupe key was not inserted");
  }
}

export class PostgresJobQueue implements JobQueue {
  constructor(private readonly c: PostgresContext) {}

  enqueue: JobQueue["enqueue"] = async (job, options = {}) => {
    const { job: parsed, dedupe } = jobRows.enqueueInput(job, options);
    // A concurrent enqueue of the key waits on the first one's index entry, then does nothing;
    // the holder it then reads may have finished in between, so the insert is tried again.
    for (let attempt = 1; ; attempt++) {
      const inserted = await insertJob(this.c, this.c.pool, parsed, null, this.c.nowIso(), dedupe);
      if (inserted) return inserted;
      const [holder] = await this.c.rows(
        `SELECT * FROM jobs j WHERE dedupe_key = $1 AND ${holdsDedupeKey("j")}`,
        [dedupe.dedupeKey],
      );
      if (holder) return jobRows.jobFromRow(holder);
      if (attempt >= 5) {
        throw new StoreError(
          "dedupe_contention",
          `jobs of dedupe key ${dedupe.dedupeKey} kept finishing while one was enqueued: ` +
            "nothing was written; enqueue again",
        );
      }
    }
  };

  claimJob: JobQueue["claimJob"] = async (options) => {
    const { workerId, leaseMs, kinds } = jobRows.claimInput(options);
    const now = this.c.now();
    const nowIso = now.toISOString();
    // A worker that died on its last attempt leaves a running job with an expired lease;
    // claiming it again would exceed max_attempts, so it is dead instead.
    await this.c.query(
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
    const [row] = await this.c.rows(
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
    return jobRows.claimed(row, workerId);
  };

  heartbeat: JobQueue["heartbeat"] = async (lease, leaseMs) => {
    const held = jobRows.leaseInput(lease);
    const ms = jobRows.leaseMsInput(leaseMs);
    const now = this.c.now();
    const [row] = await this.c.rows(
      `UPDATE jobs SET lease_expires_at = $4, updated_at = $5
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 AND attempts = $3
       RETURNING *`,
      [
        ...Object.values(jobRows.leaseParams(held)),
        new Date(now.getTime() + ms).toISOString(),
        now.toISOString(),
      ],
    );
    if (!row) throw await this.#leaseLost(held, "extend the lease of");
    return jobRows.jobFromRow(row);
  };

  completeJob: JobQueue["completeJob"] = async (lease) => {
    const held = jobRows.leaseInput(lease);
    const [row] = await this.c.rows(
      `UPDATE jobs SET status = 'done', lease_expires_at = NULL, updated_at = $4
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 AND attempts = $3
       RETURNING *`,
      [...Object.values(jobRows.leaseParams(held)), this.c.nowIso()],
    );
    if (!row) throw await this.#leaseLost(held, "complete");
    return jobRows.jobFromRow(row);
  };

  failJob: JobQueue["failJob"] = async (lease, error, options = {}) => {
    const held = jobRows.leaseInput(lease);
    const now = this.c.nowIso();
    // PostgreSQL text cannot hold NUL, and a command's output may: shown as ␀ instead.
    const message = String(error).slice(-jobRows.MAX_ERROR_CHARS).replaceAll("\u0000", "\u2400");
    const fail = () =>
      this.c.rows(
        `UPDATE jobs SET
           status = CASE WHEN $4 OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
           run_at = CASE WHEN $4 OR attempts >= max_attempts THEN run_at ELSE $5 END,
           lease_owner = CASE WHEN $4 OR attempts >= max_attempts THEN lease_owner ELSE NULL END,
           ${RETRY_GIVES_UP_DEDUPE_KEY},
           lease_expires_at = NULL, last_error = $6, updated_at = $7
         WHERE id = $1 AND status = 'running' AND lease_owner = $2 AND attempts = $3
         RETURNING *`,
        [
          ...Object.values(jobRows.leaseParams(held)),
          options.permanent === true,
          jobRows.instant(options.retryAt ?? now),
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
    return jobRows.jobFromRow(row);
  };

  async #leaseLost(lease: JobLease, action: string) {
    const [row] = await this.c.rows("SELECT * FROM jobs WHERE id = $1", [lease.jobId]);
    return jobRows.leaseLost(lease, action, row);
  }

  getJob: JobQueue["getJob"] = async (id) => {
    const [row] = await this.c.rows("SELECT * FROM jobs WHERE id = $1", [id]);
    return row ? jobRows.jobFromRow(row) : null;
  };

  listJobs: JobQueue["listJobs"] = async (query = {}) => {
    const rows = await this.c.rows(
      `SELECT * FROM jobs WHERE ${JOB_FILTER} ORDER BY id`,
      Object.values(jobRows.jobFilter(query)),
    );
    return rows.map(jobRows.jobFromRow);
  };

  countJobs: JobQueue["countJobs"] = async (query = {}) => {
    const [row] = await this.c.rows<{ n: number }>(
      `SELECT count(*) AS n FROM jobs WHERE ${JOB_FILTER}`,
      Object.values(jobRows.jobFilter(query)),
    );
    return row?.n ?? 0;
  };
}
