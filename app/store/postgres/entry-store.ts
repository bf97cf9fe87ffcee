/**
 * The EntryStore port on PostgreSQL (../ports/entry-store.ts says what it promises). An entry is
 * locked (FOR UPDATE) before its compare-and-set, and two replicas creating the same entry meet
 * in ON CONFLICT: the second returns the first's.
 */
import type { EntryEventInput, HandoffEntry } from "../../../schemas/handoff-entry.js";
import type { EntryKey, EntryStore } from "../ports/entry-store.js";
import * as entryRows from "../rows/entry-store.js";
import type { PostgresContext, Row } from "./context.js";
import type { Queryable } from "./group-commit.js";
import { insertPlainJobs } from "./job-queue.js";

type EntryRow = { entry: string; version: number };

export class PostgresEntryStore implements EntryStore {
  constructor(private readonly c: PostgresContext) {}

  async #entryRow(on: Queryable, key: EntryKey, lock = false): Promise<HandoffEntry | null> {
    const [row] = await this.c.rows<EntryRow>(
      `SELECT entry, version FROM handoff_entries WHERE repository = $1 AND issue_number = $2
       ${lock ? "FOR UPDATE" : ""}`,
      [key.repository, key.issueNumber],
      on,
    );
    return row ? entryRows.entryFromRow(row, `${key.repository}#${key.issueNumber}`) : null;
  }

  async #appendEvent(
    on: Queryable,
    entry: HandoffEntry,
    from: HandoffEntry["state"] | null,
    event: EntryEventInput,
  ): Promise<void> {
    await this.c.query(
      `${entryRows.ENTRY_EVENT_INSERT} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      entryRows.entryEventParams(entry, from, event, this.c.nowIso()),
      on,
    );
  }

  createEntry: EntryStore["createEntry"] = async (input) => {
    const { entry, event, jobs, key } = entryRows.entryInput(input);
    return this.c.tx(async (client) => {
      const now = this.c.nowIso();
      // ON CONFLICT: two replicas opening the same issue's entry; the second returns the first's.
      const inserted = await this.c.query(
        `INSERT INTO handoff_entries (repository, issue_number, entry, version, updated_at)
         VALUES ($1, $2, $3, 1, $4) ON CONFLICT DO NOTHING`,
        [entry.repository, entry.issue_number, JSON.stringify(entry), now],
        client,
      );
      if (inserted.rowCount === 0) {
        const existing = await this.#entryRow(client, key);
        if (existing) return { created: false, entry: existing };
      }
      const stored = { ...entry, version: 1 };
      await this.#appendEvent(client, stored, null, event);
      await insertPlainJobs(this.c, client, jobs, now);
      return { created: true, entry: stored };
    });
  };

  getEntry: EntryStore["getEntry"] = async (key) => {
    return this.#entryRow(this.c.pool, key);
  };

  updateEntry: EntryStore["updateEntry"] = async (input) => {
    const { entry, event, jobs, key, expected } = entryRows.entryInput(input);
    return this.c.tx(async (client) => {
      // Locked: a second writer waits here, then reads the version the first one wrote.
      const current = entryRows.checkUpdatable(
        await this.#entryRow(client, key, true),
        key,
        expected,
      );
      if (event.comment_id !== null) {
        const [seen] = await this.c.rows<{ version: number }>(
          `SELECT version FROM handoff_entry_events
           WHERE repository = $1 AND issue_number = $2 AND comment_id = $3`,
          [key.repository, key.issueNumber, event.comment_id],
          client,
        );
        if (seen) throw entryRows.commentSeen(key, event.comment_id, seen.version);
      }
      const now = this.c.nowIso();
      const next = { ...entry, version: expected + 1 };
      await this.c.query(
        `UPDATE handoff_entries SET entry = $1, version = $2, updated_at = $3
         WHERE repository = $4 AND issue_number = $5 AND version = $6`,
        [JSON.stringify(entry), next.version, now, key.repository, key.issueNumber, expected],
        client,
      );
      await this.#appendEvent(client, next, current.state, event);
      await insertPlainJobs(this.c, client, jobs, now);
      return next;
    });
  };

  listEntryEvents: EntryStore["listEntryEvents"] = async (key) => {
    const rows = await this.c.rows(
      `${entryRows.ENTRY_EVENT_SELECT} WHERE e.repository = $1 AND e.issue_number = $2 ORDER BY e.version`,
      [key.repository, key.issueNumber],
    );
    return rows.map(entryRows.entryEventFromRow);
  };

  markEntryEventPosted: EntryStore["markEntryEventPosted"] = async (key) => {
    const at = entryRows.postedAtInput(key.at);
    await this.c.tx(async (client) => {
      const [event] = await this.c.rows<{ id: number }>(
        `SELECT id FROM handoff_entry_events
         WHERE repository = $1 AND issue_number = $2 AND version = $3`,
        [key.repository, key.issueNumber, key.version],
        client,
      );
      if (!event) throw entryRows.noEventAt(key);
      await this.c.query(
        `INSERT INTO handoff_entry_event_posts (event_id, posted_at) VALUES ($1, $2)
         ON CONFLICT DO NOTHING`,
        [event.id, at],
        client,
      );
    });
  };

  listEntries: EntryStore["listEntries"] = async (query = {}) => {
    const rows = await this.c.rows<Row & EntryRow>(
      `SELECT repository, issue_number, entry, version FROM handoff_entries
       WHERE ($1::text IS NULL OR repository = $1::text)
         AND ($2::text[] IS NULL OR state = ANY ($2::text[]))
       ORDER BY repository COLLATE "C", issue_number`,
      [query.repository ?? null, query.states ? [...query.states] : null],
    );
    return rows.map(entryRows.listedEntryFromRow);
  };
}
