/**
 * The EntryStore port on SQLite (../ports/entry-store.ts says what it promises). The immediate
 * transaction is the lock: an entry read inside one cannot change before its compare-and-set.
 */
import type { EntryEventInput, HandoffEntry } from "../../../schemas/handoff-entry.js";
import type { EntryKey, EntryStore } from "../ports/entry-store.js";
import * as entryRows from "../rows/entry-store.js";
import type { Row, SqliteContext } from "./context.js";
import { insertJobs } from "./job-queue.js";

type EntryRow = { entry: string; version: number };

export class SqliteEntryStore implements EntryStore {
  constructor(private readonly c: SqliteContext) {}

  #entryRow(key: EntryKey): HandoffEntry | null {
    const row = this.c
      .sql("SELECT entry, version FROM handoff_entries WHERE repository = ? AND issue_number = ?")
      .get(key.repository, key.issueNumber) as EntryRow | undefined;
    return row ? entryRows.entryFromRow(row, `${key.repository}#${key.issueNumber}`) : null;
  }

  #appendEvent(entry: HandoffEntry, from: HandoffEntry["state"] | null, event: EntryEventInput) {
    this.c
      .sql(`${entryRows.ENTRY_EVENT_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(...entryRows.entryEventParams(entry, from, event, this.c.nowIso()));
  }

  createEntry: EntryStore["createEntry"] = async (input) => {
    const { entry, event, jobs, key } = entryRows.entryInput(input);
    return this.c.write(() => {
      const existing = this.#entryRow(key);
      if (existing) return { created: false, entry: existing };
      const now = this.c.nowIso();
      this.c
        .sql(
          `INSERT INTO handoff_entries (repository, issue_number, entry, version, updated_at)
         VALUES (?, ?, ?, 1, ?)`,
        )
        .run(entry.repository, entry.issue_number, JSON.stringify(entry), now);
      const stored = { ...entry, version: 1 };
      this.#appendEvent(stored, null, event);
      insertJobs(this.c, jobs, now);
      return { created: true, entry: stored };
    });
  };

  getEntry: EntryStore["getEntry"] = async (key) => {
    return this.#entryRow(key);
  };

  updateEntry: EntryStore["updateEntry"] = async (input) => {
    const { entry, event, jobs, key, expected } = entryRows.entryInput(input);
    return this.c.write(() => {
      const current = entryRows.checkUpdatable(this.#entryRow(key), key, expected);
      if (event.comment_id !== null) {
        const seen = this.c
          .sql(
            `SELECT version FROM handoff_entry_events
           WHERE repository = ? AND issue_number = ? AND comment_id = ?`,
          )
          .get(key.repository, key.issueNumber, event.comment_id) as
          | { version: number }
          | undefined;
        if (seen) throw entryRows.commentSeen(key, event.comment_id, seen.version);
      }
      const now = this.c.nowIso();
      const next = { ...entry, version: expected + 1 };
      this.c
        .sql(
          `UPDATE handoff_entries SET entry = ?, version = ?, updated_at = ?
         WHERE repository = ? AND issue_number = ? AND version = ?`,
        )
        .run(JSON.stringify(entry), next.version, now, key.repository, key.issueNumber, expected);
      this.#appendEvent(next, current.state, event);
      insertJobs(this.c, jobs, now);
      return next;
    });
  };

  listEntryEvents: EntryStore["listEntryEvents"] = async (key) => {
    const rows = this.c
      .sql(
        `${entryRows.ENTRY_EVENT_SELECT} WHERE e.repository = ? AND e.issue_number = ? ORDER BY e.version`,
      )
      .all(key.repository, key.issueNumber) as Row[];
    return rows.map(entryRows.entryEventFromRow);
  };

  markEntryEventPosted: EntryStore["markEntryEventPosted"] = async (key) => {
    const at = entryRows.postedAtInput(key.at);
    this.c.write(() => {
      const event = this.c
        .sql(
          `SELECT id FROM handoff_entry_events
         WHERE repository = ? AND issue_number = ? AND version = ?`,
        )
        .get(key.repository, key.issueNumber, key.version) as { id: number } | undefined;
      if (!event) throw entryRows.noEventAt(key);
      this.c
        .sql(
          "INSERT INTO handoff_entry_event_posts (event_id, posted_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
        )
        .run(event.id, at);
    });
  };

  listEntries: EntryStore["listEntries"] = async (query = {}) => {
    const rows = this.c
      .sql(
        `SELECT repository, issue_number, entry, version FROM handoff_entries
       WHERE (@repository IS NULL OR repository = @repository)
         AND (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
       ORDER BY repository, issue_number`,
      )
      .all({
        repository: query.repository ?? null,
        states: query.states ? JSON.stringify(query.states) : null,
      }) as (Row & EntryRow)[];
    return rows.map(entryRows.listedEntryFromRow);
  };
}
