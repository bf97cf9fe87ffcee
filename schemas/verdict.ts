import { z } from "zod";

/** The evaluator's structured answer. Prose is never parsed for a decision. */
export const verdictSchema = z.strictObject({
  complete: z.boolean().meta({ description: "The task is fully done by this change." }),
  score: z.number().min(0).max(1),
  missing: z
    .array(z.string().min(1))
    .meta({ description: "Concrete open items; empty when complete." }),
  evidence: z
    .array(z.string().min(1))
    .meta({ description: "What in the artifacts supports the verdict." }),
});

export type Verdict = z.infer<typeof verdictSchema>;
