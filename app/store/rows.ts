/**
 * Shapes that only the store produces, derived from the shared schemas so nothing is written
 * twice. (Candidates for schemas/store.ts once another part needs them.)
 */
import { z } from "zod";
import { handoffEntrySchema, handoffEntryStateSchema } from "../../schemas/handoff-entry.js";
import { isoDateTimeSchema, positiveIntSchema } from "../../schemas/primitives.js";
import { deliverySchema } from "../../schemas/store.js";

/** A delivery with the exact payload text it was hashed from, so its jobs can be replayed. */
export const storedDeliverySchema = deliverySchema.extend({ payload: z.string() });

/** A handoff entry as a caller creates or changes it; the store owns `version`. */
export const handoffEntryDraftSchema = handoffEntrySchema.omit({ version: true });

/** One change of a handoff entry, appended on create and on every update. */
export const handoffEntryEventSchema = z.strictObject({
  id: positiveIntSchema,
  repository: handoffEntrySchema.shape.repository,
  issue_number: positiveIntSchema,
  version: positiveIntSchema,
  from_state: handoffEntryStateSchema.nullable(),
  to_state: handoffEntryStateSchema,
  entry: handoffEntrySchema,
  recorded_at: isoDateTimeSchema,
});

export type StoredDelivery = z.infer<typeof storedDeliverySchema>;
export type HandoffEntryDraft = z.input<typeof handoffEntryDraftSchema>;
export type HandoffEntryEvent = z.infer<typeof handoffEntryEventSchema>;
