/**
 * The job queue's rows on either backend: the inputs it checks, the parameters of a new job, and
 * a row read back as a Job (or as the reason a lease is lost).
 */
import type { z } from "zod";
import { positiveIntSchema } from "../../../schemas/primitives.js";
import {
  claimJobOptionsSchema,
  enqueueOptionsSchema,
  type Job,
  jobLeaseSchema,
  jobSchema,
  jobStatusSchema,
  type NewJob,
  newJobSchema,
} from "../../../schemas/store.js";
import { LeaseLostError, NotFoundError, type StoreError } from "../errors.js";
import type { ClaimedJob, EnqueueOptions, JobLease, ListJobsQuery } from "../ports/job-queue.js";
import { inputOf, parseInput, parseRowWithJson } from "../validate.js";

export type NewJobRow = z.output<typeof newJobSchema>;
export type Dedupe = z.output<typeof enqueueOptionsSchema>;

/** A failure is kept for people to read; a whole log in it would bloat every claim. */
export const MAX_ERROR_CHARS = 16_384;

/** Run times are compared as text, so every stored instant has the same UTC format. */
export function instant(value: string | Date): string {
  return (typeof value === "string" ? new Date(value) : value).toISOString();
}

/**
 * A new job's columns, in the order of the INSERT's parameters on PostgreSQL ($1..$9; `now` is
 * both created_at and updated_at).
 */
export function jobParams(
  job: NewJobRow,
  deliveryId: string | null,
  now: string,
  dedupe: Dedupe = { until: "finished" },
) {
  return {
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    concurrency_key: job.concurrency_key,
    delivery_id: deliveryId,
    max_attempts: job.max_attempts,
    run_at: instant(job.run_at ?? now),
    now,
    dedupe_key: dedupe.dedupeKey ?? null,
    dedupe_until: dedupe.until,
  };
}

/** The row a claim leased, as the claimed job and the lease's proof; null where none was due. */
export function claimed(
  row: Record<string, unknown> | undefined,
  workerId: string,
): ClaimedJob | null {
  if (!row) return null;
  const job = jobFromRow(row);
  return { job, lease: { jobId: job.id, workerId, attempt: job.attempts } };
}

export function jobFromRow(row: Record<string, unknown>): Job {
  // The dedupe columns are the queue's own bookkeeping, not part of a Job.
  const { dedupe_key: _key, dedupe_until: _until, ...job } = row;
  return parseRowWithJson(jobSchema, job, "jobs", ["payload"]);
}

/** A ListJobsQuery's values, in the order of JOB_FILTER's parameters; absent selects all. */
export function jobFilter(query: ListJobsQuery) {
  return {
    status: query.status ? parseInput(jobStatusSchema, query.status, "job status") : null,
    delivery: query.deliveryId ?? null,
    kind: query.kind ?? null,
    key: query.concurrencyKey ?? null,
  };
}

/** A lease's columns, in the order of the lease checks' parameters ($1..$3). */
export function leaseParams(lease: JobLease) {
  return { id: lease.jobId, worker: lease.workerId, attempt: lease.attempt };
}

/**
 * Says what became of the job (its row now, if any), so the log explains why the worker's
 * result was dropped.
 */
export function leaseLost(
  lease: JobLease,
  action: string,
  row: Record<string, unknown> | undefined,
): StoreError {
  if (!row) return new NotFoundError(`cannot ${action} job ${lease.jobId}: there is no such job`);
  const job = jobFromRow(row);
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

/** enqueue's job and options, checked. */
export function enqueueInput(job: NewJob, options: EnqueueOptions) {
  return {
    job: parseInput(newJobSchema, job, "job"),
    dedupe: parseInput(enqueueOptionsSchema, options, "enqueue options"),
  };
}

export const claimInput = inputOf(claimJobOptionsSchema, "claim options");

export const leaseInput = inputOf(jobLeaseSchema, "job lease");

export const leaseMsInput = inputOf(positiveIntSchema, "lease duration (ms)");
