/**
 * The durable store's port. Every method is async so that a PostgreSQL implementation can follow
 * without changing callers; the SQLite one (sqlite-store.ts) does its work synchronously inside
 * each call and never holds a transaction across an await.
 */
import type { AcceptanceRecord, AcceptanceRecordInput } from "../../schemas/acceptance-record.js";
import type { Evaluation, EvaluationInput } from "../../schemas/evaluation.js";
import type {
  HandoffEntry,
  HandoffEntryDraft,
  HandoffEntryEvent,
  HandoffEntryState,
} from "../../schemas/handoff-entry.js";
import type {
  AuditEntry,
  AuditEntryInput,
  Delivery,
  DeliveryRecord,
  HeadObservation,
  Job,
  JobStatus,
  MergeCommitObservation,
  NewJob,
  OverrideInput,
  StoredDelivery,
  StoredOverride,
} from "../../schemas/store.js";

export type { HandoffEntryDraft, HandoffEntryEvent } from "../../schemas/handoff-entry.js";
export type { DeliveryRecord, StoredDelivery } from "../../schemas/store.js";

/**
 * The shortest delivery retention there is (the database refuses a prune under it): a delivery
 * is kept whole at least this long after it was recorded, whatever the setting says.
 */
export const MIN_DELIVERY_RETENTION_MS = 3_600_000;

/** Where time comes from; tests freeze and advance it (lease expiry without sleeping). */
export type Clock = () => Date;

export interface RecordDeliveryInput {
  delivery: Delivery;
  /** The exact text that `delivery.payload_sha256` was computed from (checked). */
  payload: string;
  /** Enqueued in the same transaction as the delivery row, or not at all. */
  jobs: readonly NewJob[];
}

export interface RecordDeliveryResult {
  /**
   * new: stored, jobs enqueued. duplicate: same id and payload seen before, nothing enqueued.
   * conflict: same id with a different payload, nothing written (the first one is kept).
   */
  status: "new" | "duplicate" | "conflict";
  /** The delivery's jobs: the new ones, or for a duplicate the ones enqueued the first time. */
  jobIds: number[];
}

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

export interface PullRequestKey {
  repository: string;
  pullNumber: number;
}

export interface MarkStaleInput extends PullRequestKey {
  /** The new head SHA; every not-yet-stale record of another head is marked with it. */
  supersededBy: string;
  at: string;
}

export interface ListRecordsQuery extends PullRequestKey {
  headSha?: string;
  /** The tested tree SHA, to find an earlier attempt on the same tree. */
  treeSha?: string;
}

export interface ListHandoffEntriesQuery {
  repository?: string;
  states?: readonly HandoffEntryState[];
}

export interface ListAuditQuery {
  subject?: string;
  kind?: string;
  limit?: number;
  /** Oldest first by default; "desc" gives the newest first (with limit: the last N). */
  order?: "asc" | "desc";
}

export interface PruneDeliveriesOptions {
  /** Payloads of deliveries recorded at least this long ago, and processed, are pruned. */
  retentionMs: number;
  /** At most this many in one transaction (the write lock is held meanwhile); default 500. */
  limit?: number;
}

export interface PruneDeliveriesResult {
  /** Payloads pruned by this call. */
  pruned: number;
  /** True when the limit was reached: call again for the rest. */
  more: boolean;
}

export interface Store {
  // Webhook deliveries, each with the jobs it enqueues, in one transaction. A duplicate is
  // recognised by id and digest, also after its payload was pruned.
  recordDelivery(input: RecordDeliveryInput): Promise<RecordDeliveryResult>;
  /**
   * The delivery with its payload; null when unknown; DeliveryPrunedError when retention has
   * removed its payload (only a processed one: every job of it done or dead).
   */
  getDelivery(id: string): Promise<StoredDelivery | null>;
  /** What is kept of a delivery for good (no payload), pruned or not; null when unknown. */
  getDeliveryRecord(id: string): Promise<DeliveryRecord | null>;
  /**
   * Retention: removes the payloads of deliveries that are processed (no job of theirs queued
   * or running) and were recorded at least `retentionMs` ago, and appends a prune
   * for each. The database refuses any other removal or change of a delivery.
   */
  pruneDeliveryPayloads(options: PruneDeliveriesOptions): Promise<PruneDeliveriesResult>;

  // The job queue. Claiming is one atomic step that takes a lease.
  enqueue(job: NewJob): Promise<Job>;
  /**
   * The oldest runnable job (queued and due, or running under an expired lease), leased to
   * `workerId` for `leaseMs`, attempts incremented; null when none. A job with a concurrency key
   * runs only when every older job of that key is done or dead: one at a time, in order.
   */
  claimJob(options: ClaimJobOptions): Promise<ClaimedJob | null>;
  /**
   * Extends the lease; LeaseLostError when the lease is no longer this one. A lease that expired
   * but was not yet claimed by anyone else is still held, and is extended.
   */
  heartbeat(lease: JobLease, leaseMs: number): Promise<Job>;
  /** Marks the job done; LeaseLostError when the lease is no longer this one. */
  completeJob(lease: JobLease): Promise<Job>;
  /** Back to queued for a retry, or dead at max_attempts; LeaseLostError as above. */
  failJob(lease: JobLease, error: string, options?: FailJobOptions): Promise<Job>;
  getJob(id: number): Promise<Job | null>;
  listJobs(query?: { status?: JobStatus; deliveryId?: string }): Promise<Job[]>;

  // Acceptance records: append-only; a later push marks them stale, never rewrites them.
  appendRecord(input: AcceptanceRecordInput): Promise<AcceptanceRecord>;
  /** Returns how many records were marked. Records of `supersededBy` itself are left alone. */
  markStale(input: MarkStaleInput): Promise<number>;
  getRecord(id: number): Promise<AcceptanceRecord | null>;
  /** Oldest first. */
  listRecords(query: ListRecordsQuery): Promise<AcceptanceRecord[]>;
  /** Every repository agate has heard of (from deliveries or records), for the reconcile pass. */
  listRepositories(): Promise<string[]>;
  /** The newest record of the pull request (of that head when given), stale or not. */
  latestRecord(query: PullRequestKey & { headSha?: string }): Promise<AcceptanceRecord | null>;

  // Handoff entries: compare-and-set on version; every change is appended to an event log.
  /** Version 1; AlreadyExistsError when the issue already has an entry. */
  createHandoffEntry(entry: HandoffEntryDraft): Promise<HandoffEntry>;
  getHandoffEntry(repository: string, issueNumber: number): Promise<HandoffEntry | null>;
  /**
   * Writes `next` as version expectedVersion + 1 (a `version` in `next` is ignored);
   * VersionConflictError when the stored version is not expectedVersion.
   */
  updateHandoffEntry(
    next: HandoffEntryDraft,
    options: { expectedVersion: number },
  ): Promise<HandoffEntry>;
  listHandoffEntries(query?: ListHandoffEntriesQuery): Promise<HandoffEntry[]>;
  /** Oldest first. */
  listHandoffEntryEvents(repository: string, issueNumber: number): Promise<HandoffEntryEvent[]>;

  // Evaluations: append-only, one per evaluator call; a verdict binds to the tree it judged.
  appendEvaluation(input: EvaluationInput): Promise<Evaluation>;
  /** Oldest first; `since` (ISO time) keeps those at or after it, for the per-day budget. */
  listEvaluations(
    query: PullRequestKey & { treeSha?: string; since?: string },
  ): Promise<Evaluation[]>;

  // Maintainer overrides: append-only; each names one exact head, so a push voids it.
  appendOverride(input: OverrideInput): Promise<StoredOverride>;
  /** Oldest first. */
  listOverrides(query: PullRequestKey & { headSha: string }): Promise<StoredOverride[]>;

  // Test merge commits GitHub reported for a head: what a record may have tested besides it.
  /** Idempotent: observing the same commit again changes nothing. */
  recordMergeCommit(observation: MergeCommitObservation): Promise<void>;
  /** Merge SHAs observed for the head, oldest first. */
  listMergeCommits(query: PullRequestKey & { headSha: string }): Promise<string[]>;

  // Heads seen per pull request and base: a head in two of them cannot be told apart by GitHub.
  /** Idempotent. */
  recordHeadObservation(observation: HeadObservation): Promise<void>;
  /** Every pull request and base the head was seen in, oldest first. */
  listHeadObservations(query: {
    repository: string;
    headSha: string;
  }): Promise<{ pull_number: number; base_ref: string }[]>;

  // The audit log of decisions: append-only.
  appendAudit(entry: AuditEntryInput): Promise<AuditEntry>;
  listAudit(query?: ListAuditQuery): Promise<AuditEntry[]>;

  close(): Promise<void>;
}
