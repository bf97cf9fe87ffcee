/**
 * Handoff entries: an issue an agent opens when it is stuck, driven by the App through a small
 * state machine (checks/entries/machine.ts). The entry is the store's; labels, comments and the
 * issue's open/closed state are a projection of it.
 */
import { z } from "zod";
import {
  isoDateTimeSchema,
  nonNegativeIntSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "./primitives.js";

/** The fields an agent must fill in when it opens a handoff entry (an issue). */
export const handoffEntryFieldsSchema = z.strictObject({
  project: z
    .string()
    .trim()
    .min(1, { error: "project: which project or repository this is about" }),
  question: z.string().trim().min(1, { error: "question: the one thing that needs an answer" }),
  tried: z.string().trim().min(1, { error: "tried: what was already tried, and what happened" }),
  needed: z.string().trim().min(1, { error: "needed: what answer or action would unblock it" }),
  /** The pull request of the agent that waits on the answer; optional. */
  blocking_pull: positiveIntSchema.nullable().default(null),
});

export const REQUIRED_ENTRY_FIELDS = ["project", "question", "tried", "needed"] as const;
export type RequiredEntryField = (typeof REQUIRED_ENTRY_FIELDS)[number];

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
  "external",
  "irreversible",
  "credentials",
  "scope",
]);

export const TERMINAL_ENTRY_STATES = ["resolved", "blocked", "escalated"] as const;

/** Derived, never set by hand: blocking while an agent waits on the entry. */
export const entryPrioritySchema = z.enum(["blocking", "background"]);

/** The one timer an entry has at a time: unanswered while open, the claim's while claimed. */
export const entryDeadlineSchema = z.strictObject({
  kind: z.enum(["unanswered", "claim"]),
  at: isoDateTimeSchema,
});

export const handoffEntrySchema = z.strictObject({
  repository: repositoryFullNameSchema,
  issue_number: positiveIntSchema,
  /** Who opened the issue: the agent that waits. It may not claim its own entry. */
  author: z.string().min(1),
  fields: handoffEntryFieldsSchema,
  state: handoffEntryStateSchema,
  owner: z.string().nullable().meta({ description: "The one claimant, from the claim on." }),
  follow_ups: nonNegativeIntSchema,
  /** Claims that ended without an answer (expired or released). */
  claim_expiries: nonNegativeIntSchema,
  escalation_reason: escalationReasonSchema.nullable(),
  /** Why it ended blocked or escalated, in words; null otherwise. */
  why: z.string().nullable(),
  deadline: entryDeadlineSchema.nullable(),
  /** The newest comment id handled: commands in comments up to it are done, exactly once. */
  comments_through: nonNegativeIntSchema,
  opened_at: isoDateTimeSchema,
  state_changed_at: isoDateTimeSchema,
  version: positiveIntSchema.meta({
    description: "Bumped on every change, for compare-and-set updates.",
  }),
});

export type HandoffEntryFields = z.infer<typeof handoffEntryFieldsSchema>;
export type HandoffEntryState = z.infer<typeof handoffEntryStateSchema>;
export type EscalationReason = z.infer<typeof escalationReasonSchema>;
export type EntryPriority = z.infer<typeof entryPrioritySchema>;
export type EntryDeadline = z.infer<typeof entryDeadlineSchema>;
export type HandoffEntry = z.infer<typeof handoffEntrySchema>;

/** A handoff entry as a caller creates or changes it; the store owns `version`. */
export const handoffEntryDraftSchema = handoffEntrySchema.omit({ version: true });
export type HandoffEntryDraft = z.output<typeof handoffEntryDraftSchema>;

export const entryEventKindSchema = z.enum([
  "opened",
  "claimed",
  "answered",
  "asked",
  "released",
  "blocked",
  "escalated",
  "claim_expired",
  /** A command that changed nothing: refused, or already so. It still gets its one reply. */
  "refused",
]);
export type EntryEventKind = z.infer<typeof entryEventKindSchema>;

/** What happened to an entry, as a caller hands it to the store with the new entry. */
export const entryEventInputSchema = z.strictObject({
  kind: entryEventKindSchema,
  /** A login, or "agate" for the App's own timers. */
  actor: z.string().min(1),
  /** The comment whose command this was; null for the opening and for timers. */
  comment_id: positiveIntSchema.nullable(),
  reason: z.string(),
  /** The comment agate posts on the issue for it; null: none. */
  reply: z.string().nullable(),
  /** Who the reply mentions (escalations only). */
  mentions: z.array(z.string()),
  at: isoDateTimeSchema,
});
export type EntryEventInput = z.infer<typeof entryEventInputSchema>;

/** One change of a handoff entry, appended on create and on every update. */
export const handoffEntryEventSchema = entryEventInputSchema.extend({
  id: positiveIntSchema,
  repository: repositoryFullNameSchema,
  issue_number: positiveIntSchema,
  version: positiveIntSchema,
  from_state: handoffEntryStateSchema.nullable(),
  to_state: handoffEntryStateSchema,
  /** When its reply was posted on the issue (or found there); null: not yet. */
  posted_at: isoDateTimeSchema.nullable(),
});
export type HandoffEntryEvent = z.infer<typeof handoffEntryEventSchema>;
