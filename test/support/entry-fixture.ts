/**
 * Tests only: a handoff entry with every field filled by a plain value (open, unowned, no
 * deadline, counters at zero), so a test names only the fields it is about.
 */
import type {
  HandoffEntry,
  HandoffEntryDraft,
  HandoffEntryFields,
} from "../../schemas/handoff-entry.js";

export const ENTRY_AT = "2025-01-01T00:00:00.000Z";

/** The form's fields: short words, no blocking pull request. */
export const ENTRY_FIELDS: HandoffEntryFields = {
  project: "p",
  question: "q?",
  tried: "t",
  needed: "n",
  blocking_pull: null,
};

/** An entry as a step makes it, before the store gives it a version. */
export function entryDraft(overrides: Partial<HandoffEntryDraft> = {}): HandoffEntryDraft {
  return {
    repository: "octo/repo",
    issue_number: 7,
    author: "agent-a",
    fields: ENTRY_FIELDS,
    state: "open",
    owner: null,
    follow_ups: 0,
    claim_expiries: 0,
    escalation_reason: null,
    why: null,
    deadline: null,
    comments_through: 0,
    opened_at: ENTRY_AT,
    state_changed_at: ENTRY_AT,
    ...overrides,
  };
}

/** An entry as the store gives it back: version 1 unless told. */
export function storedEntry(overrides: Partial<HandoffEntry> = {}): HandoffEntry {
  return { ...entryDraft(), version: 1, ...overrides };
}
