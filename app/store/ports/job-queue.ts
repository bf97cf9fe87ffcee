/** The durable job queue: claiming is one atomic step that takes a lease. */
import type { Job, JobStatus, NewJob } from "../../../schemas/store.js";

/**
 * Proof of a claim. `attempt` tells two claims of the same job by the same worker id apart, so
 * a stale execution can never complete the newer one.
 */
export interface JobLease {
  jobId: number;
  workerId: string;
  attempt: number;
}

export interface ClaimedJob {
  job: Job;
  lease: JobLease;
}

export interface ClaimJobOptions {
  workerId: string;
  leaseMs: number;
  /** Only these kinds; all kinds when absent. */
  kinds?: readonly string[];
}

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

/**
 * A dedupe key makes an enqueue a no-op while another job of the key holds it: what several
 * replicas schedule at once (the reconcile pass, a timer) is queued once. One key, one `until`.
 */
export interface EnqueueOptions {
  dedupeKey?: string;
  /**
   * How long a job holds its key. "finished" (the default): while queued or running, so at most
   * one job of the key is pending or in flight. "started": while queued only, so a running job
   * may enqueue its own successor under its key (a periodic pass); a job retried while another
   * of its key is queued gives its key up (both run).
   */
  until?: "started" | "finished";
}

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
