import { z } from "zod";
import {
  baseConfigFactSchema,
  changedFileSchema,
  changedFilesListingSchema,
  checkConclusionSchema,
  commandEvidenceSchema,
  evidenceRunFactSchema,
  evidenceSourceFactSchema,
  requirementSchema,
} from "./gate.js";
import { gitShaSchema, repositoryFullNameSchema } from "./primitives.js";

/** A merge group the merge queue asked checks for, as the `merge_group` webhook named it. */
export const mergeGroupRefFactSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  head_sha: gitShaSchema,
  head_ref: z.string(),
  base_sha: gitShaSchema,
});

/** Everything a merge-group decision is computed from; stored beside it so it can be replayed. */
export const mergeGroupFactsSchema = z.strictObject({
  merge_group: mergeGroupRefFactSchema,
  /** The config at the group's base SHA. */
  config: baseConfigFactSchema,
  /** base...head: what the group changes, to tell whether it edits the workflow that tested it. */
  changed_files: z.array(changedFileSchema),
  changed_files_listing: changedFilesListingSchema,
  evidence_source: evidenceSourceFactSchema.nullable(),
  /** The newest run of the pinned workflow on merge_group for the group head. */
  evidence_run: evidenceRunFactSchema.nullable(),
  /** The provenance verdict on `evidence_run`. */
  evidence: z.array(commandEvidenceSchema),
  /** merge_queue.record_timeout has passed since the checks request without a verdict. */
  deadline_passed: z.boolean(),
  agate_version: z.string(),
});

/** A merge group's facts as gather hands them over: no verdict (checks/gate/evidence.ts judges). */
export const gatheredMergeGroupFactsSchema = mergeGroupFactsSchema.omit({ evidence: true });

export const mergeGroupDecisionSchema = z.strictObject({
  state: z.enum(["accepted", "rejected", "pending", "not_gated"]),
  /** null: the check stays in progress. */
  conclusion: checkConclusionSchema.nullable(),
  title: z.string(),
  requirements: z.array(requirementSchema),
  reasons: z.array(z.string()),
});

export type MergeGroupRefFact = z.infer<typeof mergeGroupRefFactSchema>;
export type MergeGroupFacts = z.infer<typeof mergeGroupFactsSchema>;
export type GatheredMergeGroupFacts = z.infer<typeof gatheredMergeGroupFactsSchema>;
export type MergeGroupDecision = z.infer<typeof mergeGroupDecisionSchema>;
