/**
 * Tests only: a handoff entry with every field filled by a plain value (open, unowned, no
 * deadline, counters at zero), so a test names only the fields it is about.
 */
import { openEntry } from "../../checks/entries/machine.js";
import { escalationSchema } from "../../schemas/config.js";
import type {
  EntryEventInput,
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

/**
 * An entry as the machine opens it (checks/entries/machine.ts, the config's default escalation
 * rules), without its deadline unless told, before the store gives it a version.
 */
export function entryDraft(overrides: Partial<HandoffEntryDraft> = {}): HandoffEntryDraft {
  const { entry } = openEntry({
    repository: "octo/repo",
    issue_number: 7,
    author: "agent-a",
    fields: ENTRY_FIELDS,
    at: new Date(ENTRY_AT),
    rules: escalationSchema.parse(undefined),
  });
  return { ...entry, deadline: null, ...overrides };
}

/** An entry as the store gives it back: version 1 unless told. */
export function storedEntry(overrides: Partial<HandoffEntry> = {}): HandoffEntry {
  return { ...entryDraft(), version: 1, ...overrides };
}

/** The event an entry is stored with when it opens, at `at`. */
export function openedEvent(at = ENTRY_AT): EntryEventInput {
  return {
    kind: "opened",
    actor: "agent-a",
    comment_id: null,
    reason: "opened",
    reply: "Handoff entry open.",
    mentions: [],
    at,
  };
}
