/**
 * What a gate pass writes, as data: checks/gate/plan.ts (`decidePass`) lists the effects of one
 * decision, checks/gate/holds.ts those of a hold, and app/gate/apply.ts (`applyEffects`) carries
 * them out in the order listed, reading nothing. Each effect is one kind of write: the store's
 * observations, the `agate` check run, the state labels, a comment, the decision's audit entry and
 * acceptance record, a job, the mentions a description makes (with the jobs they call for).
 */
import { z } from "zod";
import { acceptanceRecordInputSchema } from "./acceptance-record.js";
import { checkConclusionSchema, pullRequestViewSchema } from "./gate.js";
import { handoffEntrySchema } from "./handoff-entry.js";
import {
  gitShaSchema,
  isoDateTimeSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "./primitives.js";
import {
  agateCheckRunSchema,
  auditEntryInputSchema,
  headObservationSchema,
  mergeCommitObservationSchema,
  newJobSchema,
  pullRequestSightingSchema,
} from "./store.js";

/** What the `agate` check run shows; `conclusion: null` keeps it in progress. */
export const checkViewSchema = z.strictObject({
  conclusion: checkConclusionSchema.nullable(),
  title: z.string(),
  summary: z.string(),
  /** Offer "Re-run evaluator" (only where an evaluator is configured). */
  rerunEvaluator: z.boolean(),
});

/** A write of the `agate` check run: what it shows, and the id that names its subject. */
export const checkRunWriteSchema = checkViewSchema.extend({ externalId: z.string() });

export type CheckView = z.infer<typeof checkViewSchema>;
export type CheckRunWrite = z.infer<typeof checkRunWriteSchema>;

const labelStyleSchema = z.strictObject({ color: z.string(), description: z.string() });

/** Held by one job at a time (JobQueue's dedupe key): a second enqueue under it is a no-op. */
const jobDedupeSchema = z.strictObject({
  dedupeKey: z.string().min(1),
  until: z.enum(["started", "finished"]).optional(),
});

/** What the pass saw that later passes need: written first, so a crash after loses nothing. */
const observeEffectSchema = z.strictObject({
  kind: z.literal("observe"),
  /** A new head supersedes every record of the pull request's other heads. */
  stale: z
    .strictObject({
      repository: repositoryFullNameSchema,
      pullNumber: positiveIntSchema,
      supersededBy: gitShaSchema,
      at: isoDateTimeSchema,
    })
    .nullable(),
  merge_commit: mergeCommitObservationSchema.nullable(),
  head: headObservationSchema.nullable(),
  sighting: pullRequestSightingSchema.nullable(),
});

/** The `agate` check run on a head: created (`existing` null) or updated. */
const checkEffectSchema = z.strictObject({
  kind: z.literal("check"),
  head_sha: gitShaSchema,
  existing: agateCheckRunSchema.nullable(),
  write: checkRunWriteSchema,
});

/**
 * agate's state labels. `restyle` are state labels already on whose look a retried run found
 * not agate's (its first run may have added one and stopped before styling it); `styles` is
 * the look of each state label.
 */
const labelsEffectSchema = z.strictObject({
  kind: z.literal("labels"),
  number: positiveIntSchema,
  remove: z.array(z.string()),
  add: z.array(z.string()),
  restyle: z.array(z.string()),
  styles: z.record(z.string(), labelStyleSchema),
});

/** A comment posted once across crashes; `key` names it within the job (write-once.ts). */
const commentEffectSchema = z.strictObject({
  kind: z.literal("comment"),
  number: positiveIntSchema,
  key: z.string().min(1),
  body: z.string(),
});

/** The decision's audit entry, once under `dedupe_key` (the job's). */
const auditEffectSchema = z.strictObject({
  kind: z.literal("audit"),
  entry: auditEntryInputSchema,
  dedupe_key: z.string().min(1).nullable(),
});

/** The acceptance record, once under `dedupe_key` (the job's). */
const recordEffectSchema = z.strictObject({
  kind: z.literal("record"),
  record: acceptanceRecordInputSchema,
  dedupe_key: z.string().min(1).nullable(),
});

/** A job to queue, whole (kind, payload, key), under its dedupe key when it has one. */
const enqueueEffectSchema = z.strictObject({
  kind: z.literal("enqueue"),
  job: newJobSchema,
  dedupe: jobDedupeSchema.nullable(),
});

/** The pull request's mentioned entries replaced, with the jobs that calls for, in one write. */
const mentionsEffectSchema = z.strictObject({
  kind: z.literal("mentions"),
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  issues: z.array(positiveIntSchema),
  jobs: z.array(newJobSchema),
});

/** A write on GitHub: made once across crashes by its own mechanism (apply.ts). */
const gitHubEffectSchema = z.discriminatedUnion("kind", [
  checkEffectSchema,
  labelsEffectSchema,
  commentEffectSchema,
]);

/** A write to agate's store: each once under its key, or idempotent. */
const storeEffectSchema = z.discriminatedUnion("kind", [
  observeEffectSchema,
  auditEffectSchema,
  recordEffectSchema,
  enqueueEffectSchema,
  mentionsEffectSchema,
]);

/**
 * A pass's effects in the order apply carries them out, each phase whole before the next: the
 * order that makes a crash safe, stated here once. `first`: what must be stored before GitHub
 * is written (the observations a retry needs; a merge group's audit entry, which a retry that
 * finds its check unchanged would never write). Then the comments' intents are recorded
 * (app/runtime/write-once.ts), then `github`'s writes, then a retried job's recorded comments are
 * made. `after`: the decision's audit entry and record, then the jobs it calls for.
 */
export const phasedEffectsSchema = z.strictObject({
  first: z.array(storeEffectSchema),
  github: z.array(gitHubEffectSchema),
  after: z.array(storeEffectSchema),
});

export type GitHubEffect = z.infer<typeof gitHubEffectSchema>;
export type StoreEffect = z.infer<typeof storeEffectSchema>;
export type Effect = GitHubEffect | StoreEffect;
export type PhasedEffects = z.infer<typeof phasedEffectsSchema>;

/** What a pull request's pass saw besides the decision's facts (passSeenSchema, below). */
export type PassSeen = z.infer<typeof passSeenSchema>;

/**
 * What a pull request's pass saw besides the decision's facts, as decidePass takes it: the check
 * GitHub shows, what GitHub reported that later passes need, the stored mentions and entries, and
 * the job it runs in.
 */
export const passSeenSchema = z.strictObject({
  /** The App's `agate` check run on the head now; null when it has none. */
  existing: agateCheckRunSchema.nullable(),
  merge_commit: z.strictObject({ head_sha: gitShaSchema, merge_sha: gitShaSchema }).nullable(),
  head: z.strictObject({
    head_sha: gitShaSchema,
    base_ref: z.string().min(1),
    base_sha: gitShaSchema,
  }),
  /** The view of the pull request this pass acted on: an older one is never believed after it. */
  view: pullRequestViewSchema,
  /** The issues its description mentions now (checks/entries/mentions.ts). */
  entry_mentions: z.array(positiveIntSchema),
  /** The issues stored as mentioned by the pass before. */
  mentioned_before: z.array(positiveIntSchema),
  /** The repository's handoff entries as stored. */
  repository_entries: z.array(handoffEntrySchema),
  /** Nothing stored for the head's tree answers the evaluator, or a person asked again. */
  evaluator_due: z.boolean(),
  /** A person chose "Re-run evaluator". */
  rerun_evaluator: z.boolean(),
  installation: positiveIntSchema,
  /** The pass's time (the job's clock, read once in app/). */
  at: isoDateTimeSchema,
  /** The job the pass runs in: what it stores once is keyed by it; null when none. */
  job_id: positiveIntSchema.nullable(),
  /** An earlier run of this job stopped part-way (JobContext's `retried`). */
  retried: z.boolean(),
});
