/**
 * The handoff entries' rows on either backend: the inputs, an entry and its events read back,
 * and the version rules of updateEntry (ports/entry-store.ts), which both backends apply to the
 * row they read under their write lock.
 */
import { z } from "zod";
import {
  type EntryEventInput,
  entryEventInputSchema,
  type HandoffEntry,
  type HandoffEntryDraft,
  type HandoffEntryEvent,
  handoffEntryDraftSchema,
  handoffEntryEventSchema,
  handoffEntrySchema,
} from "../../../schemas/handoff-entry.js";
import { isoDateTimeSchema, positiveIntSchema } from "../../../schemas/primitives.js";
import { entryMentionsInputSchema, type NewJob, newJobSchema } from "../../../schemas/store.js";
import { CorruptRowError, NotFoundError } from "../errors.js";
import { type EntryKey, EntryVersionConflictError } from "../ports/entry-store.js";
import type { PullRequestKey } from "../ports/keys.js";
import { inputOf, parseInput, parseRow, parseRowWithJson } from "../validate.js";

/** createEntry's and updateEntry's input, checked; `expected` only where a version is given. */
export function entryInput(input: {
  entry: HandoffEntryDraft;
  event: EntryEventInput;
  jobs?: readonly NewJob[] | undefined;
  expectedVersion?: number;
}) {
  const entry = parseInput(handoffEntryDraftSchema, input.entry, "handoff entry");
  const event = parseInput(entryEventInputSchema, input.event, "handoff entry event");
  const jobs = parseInput(z.array(newJobSchema), input.jobs ?? [], "jobs of a handoff entry");
  const key: EntryKey = { repository: entry.repository, issueNumber: entry.issue_number };
  const expected =
    input.expectedVersion === undefined
      ? 0
      : parseInput(positiveIntSchema, input.expectedVersion, "expected version");
  return { entry, event, jobs, key, expected };
}

/** replaceEntryMentions' input, checked. */
export function mentionsInput(
  input: PullRequestKey & { issues: readonly number[]; jobs?: readonly NewJob[] },
) {
  const mentions = parseInput(
    entryMentionsInputSchema,
    { repository: input.repository, pull_number: input.pullNumber, issues: [...input.issues] },
    "entry mentions",
  );
  const jobs = parseInput(z.array(newJobSchema), input.jobs ?? [], "jobs of entry mentions");
  return { ...mentions, jobs };
}

/** An entry row: its JSON text with the row's version. */
export function entryFromRow(row: { entry: string; version: number }, key: string): HandoffEntry {
  let value: unknown;
  try {
    value = { ...JSON.parse(row.entry), version: row.version };
  } catch (error) {
    throw new CorruptRowError("handoff_entries", key, "entry is not valid JSON", {
      cause: error,
    });
  }
  return parseRow(handoffEntrySchema, value, "handoff_entries", key);
}

/** A row of a listing (repository, issue_number, entry, version). */
export function listedEntryFromRow(
  row: Record<string, unknown> & { entry: string; version: number },
): HandoffEntry {
  return entryFromRow(row, `${String(row.repository)}#${String(row.issue_number)}`);
}

/** ENTRY_EVENT_SELECT's row: the event's JSON with the row's columns over it. */
export function entryEventFromRow(row: Record<string, unknown>): HandoffEntryEvent {
  const { event, ...rest } = parseRowWithJson(
    z.looseObject({ event: z.record(z.string(), z.unknown()) }),
    row,
    "handoff_entry_events",
    ["event"],
  );
  return parseRow(
    handoffEntryEventSchema,
    { ...event, ...rest },
    "handoff_entry_events",
    `id ${String(row.id)}`,
  );
}

/** listEntryEvents' columns and tables; the backend adds its WHERE and ORDER BY. */
export const ENTRY_EVENT_SELECT = `SELECT e.id, e.repository, e.issue_number, e.version,
    e.from_state, e.to_state, e.event, p.posted_at
  FROM handoff_entry_events e LEFT JOIN handoff_entry_event_posts p ON p.event_id = e.id`;

/** The INSERT of an entry's event; entryEventParams gives its values in order. */
export const ENTRY_EVENT_INSERT = `INSERT INTO handoff_entry_events (repository, issue_number,
  version, kind, actor, comment_id, from_state, to_state, event, recorded_at)`;

export function entryEventParams(
  entry: HandoffEntry,
  from: HandoffEntry["state"] | null,
  event: EntryEventInput,
  recordedAt: string,
) {
  return [
    entry.repository,
    entry.issue_number,
    entry.version,
    event.kind,
    event.actor,
    event.comment_id,
    from,
    entry.state,
    JSON.stringify(event),
    recordedAt,
  ];
}

/** updateEntry's rules on the row read under the lock: it exists, at the version expected. */
export function checkUpdatable(
  current: HandoffEntry | null,
  key: EntryKey,
  expected: number,
): HandoffEntry {
  if (!current) {
    throw new NotFoundError(
      `no handoff entry ${key.repository}#${key.issueNumber} to update: create it first`,
    );
  }
  if (current.version !== expected) {
    throw new EntryVersionConflictError(
      key,
      `it is at version ${current.version}, not ${expected}`,
    );
  }
  return current;
}

/** A comment already recorded as an event is not applied twice. */
export function commentSeen(key: EntryKey, commentId: number, version: number): Error {
  return new EntryVersionConflictError(
    key,
    `comment ${commentId} was recorded at version ${version} already`,
  );
}

export function noEventAt(key: EntryKey & { version: number }): Error {
  return new NotFoundError(
    `handoff entry ${key.repository}#${key.issueNumber} has no event at version ${key.version}`,
  );
}

/** markEntryEventPosted's time, checked. */
export const postedAtInput = inputOf(isoDateTimeSchema, "posted time");
