import { z } from "zod";
import {
  commandResultSchema,
  graderVersionSchema,
  runnerSchema,
  testedSnapshotSchema,
  workflowRunRefSchema,
} from "./command-record.js";
import { handoffStatusSchema } from "./handoff-file.js";
import {
  gitShaSchema,
  isoDateTimeSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "./primitives.js";
import { verdictSchema } from "./verdict.js";

/**
 * The end states a decision can reach. `stale` is not among them: staleness is a later fact
 * about a record (a newer head superseded it), stored beside the decision, never instead of it.
 */
export const decisionStateSchema = z.enum([
  "pending",
  "accepted",
  "rejected",
  "stalled",
  "capped",
  "blocked",
  "escalated",
  "not_gated",
]);

export const evaluatorIdentitySchema = z.strictObject({
  kind: z.enum(["none", "llm", "command", "review"]),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  prompt_version: z.string().nullable(),
});

/**
 * Records stored before version 2 of the command record lack the work-tree fields; they stay
 * readable as they were written, never filled in with invented values.
 */
const storedTestedSchema = testedSnapshotSchema.extend({
  clean_before: z.boolean().optional(),
  dirty_before: z.array(z.string()).optional(),
});
const storedCommandResultSchema = commandResultSchema.extend({
  changed_paths: z.array(z.string()).optional(),
  changed_paths_count: z.number().int().nonnegative().optional(),
});

/** A maintainer accepted this exact head explicitly; any push voids it. */
export const maintainerOverrideSchema = z.strictObject({
  by: z.string().min(1),
  reason: z.string().min(1),
  at: isoDateTimeSchema,
  comment_url: z.string().nullable(),
});

export const provenanceSchema = z.strictObject({
  workflow: workflowRunRefSchema.nullable(),
  verified: z.boolean(),
  refused_reason: z
    .string()
    .nullable()
    .meta({ description: "Why the command record was not believed." }),
  /**
   * The evidence run's attempt the decision read, and whether its job was complete then: a later
   * pass caused by the same attempt adds nothing. Null in records stored before it was kept.
   */
  run: z
    .strictObject({
      id: positiveIntSchema,
      attempt: positiveIntSchema,
      job_complete: z.boolean(),
    })
    .nullable()
    .default(null),
});

/** The handoff file as the gate verified it against the live pull request. */
export const handoffCheckSchema = z.strictObject({
  path: z.string().min(1),
  /** The rules that made the file required, in words; empty: not required. */
  required_by: z.array(z.string()).default([]),
  /** null: no file at the head commit. */
  blob_sha: gitShaSchema.nullable(),
  /** The file exists and its front matter matches the schema. */
  valid: z.boolean(),
  status: handoffStatusSchema.nullable().default(null),
  /** Each way the file is invalid or disagrees with the live pull request, in words. */
  findings: z.array(z.string()),
});

/** What a caller hands the store: one decision about one head commit. */
export const acceptanceRecordInputSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  head_sha: gitShaSchema,
  base_sha: gitShaSchema,
  tested: storedTestedSchema.nullable(),
  commands: z.array(storedCommandResultSchema),
  provenance: provenanceSchema.nullable(),
  runner: runnerSchema.nullable(),
  grader: graderVersionSchema.extend({ evaluator: evaluatorIdentitySchema.nullable() }),
  verdict: verdictSchema.nullable(),
  verdict_by: z.string().nullable(),
  handoff: handoffCheckSchema.nullable(),
  override: maintainerOverrideSchema.nullable(),
  decision: z.strictObject({
    state: decisionStateSchema,
    reasons: z.array(z.string()),
    /** The head's own tree when decided: an attempt with the same tree is not graded again. */
    head_tree_sha: gitShaSchema.nullable().optional(),
    /** The earlier head whose failure this decision replayed, its tree being unchanged. */
    replayed_from: gitShaSchema.nullable().optional(),
  }),
  decided_at: isoDateTimeSchema,
});

export const staleMarkSchema = z.strictObject({
  superseded_by: gitShaSchema,
  at: isoDateTimeSchema,
});

/** A stored acceptance record: never rewritten, only marked stale once. */
export const acceptanceRecordSchema = acceptanceRecordInputSchema.extend({
  id: positiveIntSchema,
  recorded_at: isoDateTimeSchema,
  stale: staleMarkSchema.nullable(),
});

export type DecisionState = z.infer<typeof decisionStateSchema>;
export type AcceptanceRecordInput = z.infer<typeof acceptanceRecordInputSchema>;
export type AcceptanceRecord = z.infer<typeof acceptanceRecordSchema>;
export type HandoffCheck = z.infer<typeof handoffCheckSchema>;
