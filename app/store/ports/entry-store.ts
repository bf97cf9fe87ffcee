/**
 * Handoff entries: the current entry per issue, changed only by compare-and-set on its version,
 * and every change appended to its history in the same transaction (with the reply agate posts
 * for it, marked once posted). A change may enqueue jobs in that transaction too: an entry's
 * timer is never lost between its transition and its job.
 */
import type {
  EntryEventInput,
  HandoffEntry,
  HandoffEntryDraft,
  HandoffEntryEvent,
  HandoffEntryState,
} from "../../../schemas/handoff-entry.js";
import type { NewJob } from "../../../schemas/store.js";
import { StoreError } from "../errors.js";

/** One entry: an issue of one repository. */
export interface EntryKey {
  repository: string;
  issueNumber: number;
}

export interface ListEntriesQuery {
  repository?: string;
  states?: readonly HandoffEntryState[];
}

/**
 * The entry is not at the version the caller read (another change came first), or a comment's
 * command was already recorded. Nothing was written: read the entry again and decide again.
 */
export class EntryVersionConflictError extends StoreError {
  constructor(key: EntryKey, detail: string) {
    super(
      "entry_version_conflict",
      `handoff entry ${key.repository}#${key.issueNumber}: ${detail}; nothing was written, read it again and decide again`,
    );
  }
}

export interface EntryStore {
  /**
   * Stores a new entry at version 1 with its first event. When the issue already has an entry,
   * writes nothing and returns that one with `created: false`.
   */
  createEntry(input: {
    entry: HandoffEntryDraft;
    event: EntryEventInput;
    jobs?: readonly NewJob[];
  }): Promise<{ created: boolean; entry: HandoffEntry }>;
  getEntry(key: EntryKey): Promise<HandoffEntry | null>;
  /**
   * Replaces the entry at `expectedVersion` with `entry` at the next version, appends `event`
   * and enqueues `jobs`, in one transaction. EntryVersionConflictError when the stored version
   * is another, or the event's comment was recorded before; InvalidInputError when an input is
   * outside its schema; NotFoundError when there is no entry.
   */
  updateEntry(input: {
    expectedVersion: number;
    entry: HandoffEntryDraft;
    event: EntryEventInput;
    jobs?: readonly NewJob[];
  }): Promise<HandoffEntry>;
  /** Every event of the entry, oldest first, with when its reply was posted. */
  listEntryEvents(key: EntryKey): Promise<HandoffEntryEvent[]>;
  /** Marks an event's reply posted (or found on the issue); a second mark keeps the first. */
  markEntryEventPosted(key: EntryKey & { version: number; at: string }): Promise<void>;
  /** Entries, oldest issue first; all when the query is empty. */
  listEntries(query?: ListEntriesQuery): Promise<HandoffEntry[]>;
}
