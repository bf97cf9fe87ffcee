import { z } from "zod";
import { isoDateTimeSchema, positiveIntSchema, repositoryFullNameSchema } from "./primitives.js";

/** The fields an agent must fill in when it opens a handoff entry (an issue). */
export const handoffEntryFieldsSchema = z.strictObject({
  project: z
    .string()
    .trim()
    .min(1, { error: "project: which project or repository this is about" }),
  question: z.string().trim().min(1, { error: "question: the one thing that needs an answer" }),
  tried: z.string().trim().min(1, { error: "tried: what was already tried, and what happened" }),
  needed: z.string().trim().min(1, { error: "needed: what answer or action would unblock it" }),
});

export const handoffEntryStateSchema = z.enum([
  "open",
  "claimed",
  "resolved",
  "blocked",
  "escalated",
]);

/** The only reasons that may reach a human. */
export const escalationReasonSchema = z.enum([
  "money",
  "external_effects",
  "irreversible",
  "credentials",
  "priority_scope",
]);

export const TERMINAL_ENTRY_STATES = ["resolved", "blocked", "escalated"] as const;

export const handoffEntrySchema = z.strictObject({
  repository: repositoryFullNameSchema,
  issue_number: positiveIntSchema,
  fields: handoffEntryFieldsSchema,
  state: handoffEntryStateSchema,
  owner: z.string().nullable().meta({ description: "The one claimant, from the claim on." }),
  agent_waiting: z
    .boolean()
    .meta({ description: "An agent is blocked on the answer; priority derives from this." }),
  follow_ups: z.number().int().nonnegative(),
  claim_expiries: z.number().int().nonnegative(),
  escalation_reason: escalationReasonSchema.nullable(),
  opened_at: isoDateTimeSchema,
  state_changed_at: isoDateTimeSchema,
  version: positiveIntSchema.meta({
    description: "Bumped on every change, for compare-and-set updates.",
  }),
});

export type HandoffEntryFields = z.infer<typeof handoffEntryFieldsSchema>;
export type HandoffEntryState = z.infer<typeof handoffEntryStateSchema>;
export type EscalationReason = z.infer<typeof escalationReasonSchema>;
export type HandoffEntry = z.infer<typeof handoffEntrySchema>;

/** A handoff entry as a caller creates or changes it; the store owns `version`. */
export const handoffEntryDraftSchema = handoffEntrySchema.omit({ version: true });

/** One change of a handoff entry, appended on create and on every update. */
export const handoffEntryEventSchema = z.strictObject({
  id: positiveIntSchema,
  repository: repositoryFullNameSchema,
  issue_number: positiveIntSchema,
  version: positiveIntSchema,
  from_state: handoffEntryStateSchema.nullable(),
  to_state: handoffEntryStateSchema,
  entry: handoffEntrySchema,
  recorded_at: isoDateTimeSchema,
});

export type HandoffEntryDraft = z.input<typeof handoffEntryDraftSchema>;
export type HandoffEntryEvent = z.infer<typeof handoffEntryEventSchema>;
