import { z } from "zod";
import type { Config } from "./config.js";
import { positiveIntSchema, repositoryFullNameSchema } from "./primitives.js";

/**
 * A workflow event that is evidence only under some base configs: a run of `workflow`, or a job
 * named `job`. The base config decides, so the check is made when the job has read it.
 */
export const evidenceEventSchema = z.strictObject({
  workflow: z.string().nullable(),
  job: z.string().nullable(),
});

/** The `gate.evaluate` job: one pull request, read live (reconcile, or a workflow event). */
export const evaluateJobSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  number: positiveIntSchema,
  installation: positiveIntSchema,
  /** Evaluate only when the event is evidence under the base config; null: always. */
  only_if: evidenceEventSchema.nullable().default(null),
});

export type EvidenceEvent = z.infer<typeof evidenceEventSchema>;
export type EvaluateJob = z.output<typeof evaluateJobSchema>;

/** Whether a workflow event can carry evidence under this base config. */
export function evidenceEventMatters(event: EvidenceEvent): (config: Config) => boolean {
  return (config) =>
    (event.workflow === null || event.workflow === config.evidence.workflow) &&
    (event.job === null || event.job === config.evidence.job);
}
