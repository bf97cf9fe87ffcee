import { z } from "zod";
import {
  gitShaSchema,
  isoDateTimeSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
  sha256HexSchema,
} from "./primitives.js";

/** A webhook delivery as received; the id is GitHub's X-GitHub-Delivery. */
export const deliverySchema = z.strictObject({
  id: z.string().min(1),
  event: z.string().min(1),
  action: z.string().nullable(),
  payload_sha256: sha256HexSchema,
  received_at: isoDateTimeSchema,
});

export const jobStatusSchema = z.enum(["queued", "running", "done", "dead"]);

export const newJobSchema = z.strictObject({
  kind: z.string().min(1),
  payload: z.json(),
  /** Jobs with the same key run one at a time, in order (for example one pull request). */
  concurrency_key: z.string().min(1).nullable().default(null),
  run_at: isoDateTimeSchema.optional(),
  max_attempts: positiveIntSchema.default(8),
});

export const jobSchema = z.strictObject({
  id: positiveIntSchema,
  kind: z.string(),
  payload: z.json(),
  concurrency_key: z.string().nullable(),
  delivery_id: z.string().nullable(),
  status: jobStatusSchema,
  attempts: z.number().int().nonnegative(),
  max_attempts: positiveIntSchema,
  run_at: isoDateTimeSchema,
  lease_owner: z.string().nullable(),
  lease_expires_at: isoDateTimeSchema.nullable(),
  last_error: z.string().nullable(),
  created_at: isoDateTimeSchema,
  updated_at: isoDateTimeSchema,
});

export const auditEntryInputSchema = z.strictObject({
  kind: z
    .string()
    .min(1)
    .meta({ description: "What was decided, e.g. gate.decision or entry.transition." }),
  subject: z.string().min(1).meta({ description: "What it was about, e.g. octo/repo#12@<sha>." }),
  decision: z.json(),
  facts: z
    .json()
    .meta({ description: "Everything the decision was computed from, so it can be replayed." }),
  at: isoDateTimeSchema,
});

export const auditEntrySchema = auditEntryInputSchema.extend({ id: positiveIntSchema });

export type Delivery = z.infer<typeof deliverySchema>;
export type JobStatus = z.infer<typeof jobStatusSchema>;
export type NewJob = z.input<typeof newJobSchema>;
export type Job = z.infer<typeof jobSchema>;
export type AuditEntryInput = z.infer<typeof auditEntryInputSchema>;
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A delivery with the exact payload text it was hashed from, so its jobs can be replayed. */
export const storedDeliverySchema = deliverySchema.extend({ payload: z.string() });
export type StoredDelivery = z.infer<typeof storedDeliverySchema>;

/** When retention removed a processed delivery's payload, and the retention it applied. */
export const deliveryPruneSchema = z.strictObject({
  pruned_at: isoDateTimeSchema,
  retention_ms: positiveIntSchema,
});

/**
 * What is kept of a delivery for good, payload or not: the delivery as received, the repository
 * it names, when it was recorded, and whether its payload was pruned. Its outcome is its jobs.
 */
export const deliveryRecordSchema = deliverySchema.extend({
  repository: z.string().nullable(),
  recorded_at: isoDateTimeSchema,
  pruned: deliveryPruneSchema.nullable(),
});
export type DeliveryRecord = z.infer<typeof deliveryRecordSchema>;

/** A maintainer's override as stored: one exact head of one pull request. */
export const overrideInputSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  head_sha: gitShaSchema,
  base_ref: z.string().min(1),
  by: z.string().min(1),
  reason: z.string().min(1),
  comment_url: z.string().nullable(),
  at: isoDateTimeSchema,
});
export const storedOverrideSchema = overrideInputSchema.extend({ id: positiveIntSchema });

/** A test merge commit GitHub reported for a head of a pull request. */
export const mergeCommitObservationSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  head_sha: gitShaSchema,
  merge_sha: gitShaSchema,
  observed_at: isoDateTimeSchema,
});

/** A head seen in a pull request against a base (its branch, and the commit it was at). */
export const headObservationSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  head_sha: gitShaSchema,
  pull_number: positiveIntSchema,
  base_ref: z.string().min(1),
  /**
   * The commit the base was at, kept for the pull request's newest head only (head_observations
   * keeps the branch); null: not known where it was seen (a row the migration carried over).
   */
  base_sha: gitShaSchema.nullable(),
  observed_at: isoDateTimeSchema,
});

/**
 * A head and base a pull request had, as one of GitHub's events named them (a `pull_request`
 * event's head and base, and for a retarget `changes.base` too; a run's or check's pull
 * requests). Stored with the delivery, before any read: a base the pull request held only for a
 * moment, under which a run may have been made for the head, is still known.
 */
export const eventBaseSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  head_sha: gitShaSchema,
  base_ref: z.string().min(1),
});

/** An event's base as stored: with the delivery that named it and when it was received. */
export const baseSightingSchema = eventBaseSchema.extend({
  delivery_id: z.string().min(1),
  seen_at: isoDateTimeSchema,
});

/**
 * The newest view of a pull request agate acted on, by GitHub's `updated_at`, and a digest of
 * what it showed: a webhook's copy is used instead of a fresh read only when it is not older.
 */
export const pullRequestSightingSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  updated_at: isoDateTimeSchema,
  digest: sha256HexSchema,
  observed_at: isoDateTimeSchema,
});

/**
 * The handoff entries (issue numbers) one pull request's description mentions, as its newest gate
 * pass read them: replaced whole by each pass.
 */
export const entryMentionsInputSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  issues: z.array(positiveIntSchema.max(2_147_483_647)).max(1_000),
});

/** The App's own `agate` check run on one commit, as GitHub returned it to a read or a write. */
export const agateCheckRunSchema = z.strictObject({
  id: positiveIntSchema,
  status: z.string(),
  conclusion: z.string().nullable(),
  title: z.string().nullable(),
  summary: z.string().nullable(),
  startedAt: isoDateTimeSchema.nullable(),
  externalId: z.string().nullable(),
});

/** One commit's `agate` check run as agate last wrote it (the ledger that spares a listing). */
export const checkRunEntrySchema = z.strictObject({
  repository: repositoryFullNameSchema,
  head_sha: gitShaSchema,
  check: agateCheckRunSchema,
  written_at: isoDateTimeSchema,
});

/**
 * A GitHub write agate makes once (a comment), recorded before it is sent: a run of the same job
 * retried after a crash finds it here and, by its marker, on GitHub (app/runtime/write-once.ts).
 */
export const writeIntentInputSchema = z.strictObject({
  /** What the write is for, unique: an intent recorded again under its key is the first one. */
  key: z.string().min(1).max(500),
  /** The job whose retry finishes it when an earlier run stopped part-way, e.g. `job:12`. */
  scope: z.string().min(1).max(200),
  repository: repositoryFullNameSchema,
  /** The issue or pull request written on. */
  target: positiveIntSchema,
  kind: z.enum(["comment"]),
  /** What is sent, without its marker. */
  body: z.string(),
  /** The hidden token the write carries, unique: how a retry recognises it on GitHub. */
  marker: z.string().regex(/^[0-9a-f]{16,64}$/, { error: "expected 16 to 64 hex digits" }),
});

export const writeIntentSchema = writeIntentInputSchema.extend({
  id: positiveIntSchema,
  recorded_at: isoDateTimeSchema,
  /** GitHub's id of what was written, once agate knows it was; null until then. */
  github_id: positiveIntSchema.nullable(),
  done_at: isoDateTimeSchema.nullable(),
});

export type WriteIntentInput = z.infer<typeof writeIntentInputSchema>;
export type WriteIntent = z.infer<typeof writeIntentSchema>;
export type OverrideInput = z.infer<typeof overrideInputSchema>;
export type HeadObservation = z.infer<typeof headObservationSchema>;
export type EventBase = z.infer<typeof eventBaseSchema>;
export type BaseSighting = z.infer<typeof baseSightingSchema>;
export type StoredOverride = z.infer<typeof storedOverrideSchema>;
export type MergeCommitObservation = z.infer<typeof mergeCommitObservationSchema>;
export type PullRequestSighting = z.infer<typeof pullRequestSightingSchema>;
export type AgateCheckRun = z.infer<typeof agateCheckRunSchema>;
export type CheckRunEntry = z.infer<typeof checkRunEntrySchema>;

// ---- the options and queries the store's ports take (app/store/ports/), checked by both
// backends: the types the ports name are inferred from these.

/**
 * A claim's proof. `attempt` tells two claims of the same job by the same worker id apart, so a
 * stale execution can never complete the newer one.
 */
export const jobLeaseSchema = z.strictObject({
  jobId: positiveIntSchema,
  workerId: z.string().min(1),
  attempt: positiveIntSchema,
});

export const claimJobOptionsSchema = z.strictObject({
  workerId: z.string().min(1),
  leaseMs: positiveIntSchema,
  /** Only these kinds; all kinds when absent. */
  kinds: z.array(z.string().min(1)).readonly().optional(),
});

/**
 * A dedupe key makes an enqueue a no-op while another job of the key holds it: what several
 * replicas schedule at once (the reconcile pass, a timer) is queued once. One key, one `until`.
 */
export const enqueueOptionsSchema = z.strictObject({
  dedupeKey: z.string().min(1).optional(),
  /**
   * How long a job holds its key. "finished" (the default): while queued or running, so at most
   * one job of the key is pending or in flight. "started": while queued only, so a running job
   * may enqueue its own successor under its key (a periodic pass); a job retried while another
   * of its key is queued gives its key up (both run).
   */
  until: z.enum(["started", "finished"]).default("finished"),
});

/**
 * A key that makes an append once: a run of a job retried after a crash appends with the key its
 * first run used, and gets that run's row back instead of a second one (enforced by a unique
 * index). Derived from the job (or what it answers), never from the time.
 */
export const appendOnceSchema = z.strictObject({ dedupeKey: z.string().min(1).optional() });

/**
 * The shortest delivery retention there is (the database refuses a prune under it): a delivery
 * is kept whole at least this long after it was recorded, whatever the setting says.
 */
export const MIN_DELIVERY_RETENTION_MS = 3_600_000;

/** Payloads pruned per call by default: each call holds the write lock briefly, webhooks go between. */
export const DEFAULT_PRUNE_LIMIT = 500;

export const pruneDeliveriesOptionsSchema = z.strictObject({
  /** Payloads of deliveries recorded at least this long ago, and processed, are pruned. */
  retentionMs: z
    .number()
    .int()
    .min(MIN_DELIVERY_RETENTION_MS, {
      error: `the delivery retention must be at least ${MIN_DELIVERY_RETENTION_MS} ms (1h)`,
    }),
  /** At most this many in one transaction (the write lock is held meanwhile). */
  limit: positiveIntSchema.default(DEFAULT_PRUNE_LIMIT),
});

/** One pull request of one repository: the key most of the store's queries take. */
export const pullRequestKeySchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pullNumber: positiveIntSchema,
});

/** The records of a pull request not of `supersededBy` marked stale by the push to it. */
export const markStaleInputSchema = pullRequestKeySchema.extend({
  /** The new head SHA; every not-yet-stale record of another head is marked with it. */
  supersededBy: gitShaSchema,
  at: isoDateTimeSchema,
});

/** WriteIntentLedger.completeWriteIntent's query: the write was made, GitHub's id for it. */
export const completeWriteIntentSchema = z.strictObject({
  key: z.string().min(1),
  githubId: positiveIntSchema,
});
