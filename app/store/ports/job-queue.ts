/** The durable job queue: claiming is one atomic step that takes a lease. */
import type { z } from "zod";
import type {
  claimJobOptionsSchema,
  enqueueOptionsSchema,
  Job,
  JobStatus,
  jobLeaseSchema,
  NewJob,
} from "../../../schemas/store.js";

/** Proof of a claim (schemas/store.ts says why it has an attempt). */
export type JobLease = z.infer<typeof jobLeaseSchema>;

export interface ClaimedJob {
  job: Job;
  lease: JobLease;
}

export type ClaimJobOptions = z.input<typeof claimJobOptionsSchema>;

export interface FailJobOptions {
  /** When the job may run again; now when absent. Ignored when the job goes dead. */
  retryAt?: Date;
  /** Do not retry (for example an unknown kind): the job goes dead now. */
  permanent?: boolean;
}

export interface ListJobsQuery {
  status?: JobStatus;
  deliveryId?: string;
  kind?: string;
  /** Jobs of one concurrency key (one pull request, one head). */
  concurrencyKey?: string;
}

/** A dedupe key and how long a job holds it (schemas/store.ts). */
export type EnqueueOptions = z.input<typeof enqueueOptionsSchema>;

export interface JobQueue {
  /**
   * Queues the job. With a dedupe key held by another job (see EnqueueOptions) nothing is
   * written and that job is returned instead: compare ids to tell.
   */
  enqueue(job: NewJob, options?: EnqueueOptions): Promise<Job>;
  /**
   * The oldest runnable job (queued and due, or running under an expired lease), leased to
   * `workerId` for `leaseMs`, attempts incremented; null when none. A job with a concurrency key
   * runs only when every older job of that key is done or dead: one at a time, in order. A job
   * whose lease expired on its last attempt goes dead instead.
   */
  claimJob(options: ClaimJobOptions): Promise<ClaimedJob | null>;
  /**
   * Extends the lease; LeaseLostError when the lease is no longer this one. A lease that expired
   * but was not yet claimed by anyone else is still held, and is extended.
   */
  heartbeat(lease: JobLease, leaseMs: number): Promise<Job>;
  /**
   * Marks the job done; LeaseLostError when the lease is no longer this one, NotFoundError when
   * there is no such job.
   */
  completeJob(lease: JobLease): Promise<Job>;
  /** Back to queued for a retry, or dead at max_attempts; LeaseLostError as above. */
  failJob(lease: JobLease, error: string, options?: FailJobOptions): Promise<Job>;
  getJob(id: number): Promise<Job | null>;
  /** Oldest first. */
  listJobs(query?: ListJobsQuery): Promise<Job[]>;
  /** How many listJobs would return, without reading them (health checks, the reconcile timer). */
  countJobs(query?: ListJobsQuery): Promise<number>;
}
