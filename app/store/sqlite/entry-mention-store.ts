/**
 * The EntryMentionStore port on SQLite (../ports/entry-mention-store.ts says what it promises):
 * which issues' entries a pull request names, replaced whole in one immediate transaction.
 */
import type { EntryMentionStore } from "../ports/entry-mention-store.js";
import * as entryRows from "../rows/entry-store.js";
import type { SqliteContext } from "./context.js";
import { insertJobs } from "./job-queue.js";

const MENTIONED = `SELECT issue_number FROM entry_mentions
  WHERE repository = ? AND pull_number = ? ORDER BY issue_number`;
const MENTIONING = `SELECT pull_number FROM entry_mentions
  WHERE repository = ? AND issue_number = ? ORDER BY pull_number`;

export class SqliteEntryMentions implements EntryMentionStore {
  constructor(private readonly c: SqliteContext) {}

  replaceEntryMentions: EntryMentionStore["replaceEntryMentions"] = async (input) => {
    const { repository, pull_number, issues, jobs } = entryRows.mentionsInput(input);
    return this.c.write(() => {
      const before = this.#numbers(MENTIONED, repository, pull_number);
      this.c
        .sql("DELETE FROM entry_mentions WHERE repository = ? AND pull_number = ?")
        .run(repository, pull_number);
      const insert = this.c.sql(
        `INSERT INTO entry_mentions (repository, pull_number, issue_number) VALUES (?, ?, ?)
         ON CONFLICT DO NOTHING`,
      );
      for (const issue of issues) insert.run(repository, pull_number, issue);
      insertJobs(this.c, jobs, this.c.nowIso());
      return before;
    });
  };

  /** The one column of numbers a query selects, in its order. */
  #numbers(sql: string, ...values: unknown[]): number[] {
    return (
      this.c
        .sql(sql)
        .pluck()
        .all(...values) as unknown[]
    ).map(Number);
  }

  listEntryMentions: EntryMentionStore["listEntryMentions"] = async (query) =>
    this.#numbers(MENTIONED, query.repository, query.pullNumber);

  listMentioningPullRequests: EntryMentionStore["listMentioningPullRequests"] = async (query) =>
    this.#numbers(MENTIONING, query.repository, query.issueNumber);
}
