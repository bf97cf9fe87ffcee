/**
 * The EntryMentionStore port on PostgreSQL (../ports/entry-mention-store.ts says what it
 * promises): which issues' entries a pull request names, replaced whole in one transaction.
 */
import type { EntryMentionStore } from "../ports/entry-mention-store.js";
import * as entryRows from "../rows/entry-store.js";
import type { PostgresContext } from "./context.js";
import { insertPlainJobs } from "./job-queue.js";

const MENTIONED = `SELECT issue_number AS n FROM entry_mentions
  WHERE repository = $1 AND pull_number = $2 ORDER BY issue_number`;
const MENTIONING = `SELECT pull_number AS n FROM entry_mentions
  WHERE repository = $1 AND issue_number = $2 ORDER BY pull_number`;

export class PostgresEntryMentions implements EntryMentionStore {
  constructor(private readonly c: PostgresContext) {}

  replaceEntryMentions: EntryMentionStore["replaceEntryMentions"] = async (input) => {
    const { repository, pull_number, issues, jobs } = entryRows.mentionsInput(input);
    return this.c.tx(async (client) => {
      const before = await this.c.rows<{ issue_number: number }>(
        `DELETE FROM entry_mentions WHERE repository = $1 AND pull_number = $2
         RETURNING issue_number`,
        [repository, pull_number],
        client,
      );
      if (issues.length > 0) {
        await this.c.query(
          `INSERT INTO entry_mentions (repository, pull_number, issue_number)
           SELECT $1, $2, issue FROM unnest($3::integer[]) AS issue
           ON CONFLICT DO NOTHING`,
          [repository, pull_number, issues],
          client,
        );
      }
      await insertPlainJobs(this.c, client, jobs, this.c.nowIso());
      return before.map((row) => Number(row.issue_number)).sort((a, b) => a - b);
    });
  };

  /** The numbers (`n`) a query selects, in its order. */
  async #numbers(sql: string, values: unknown[]): Promise<number[]> {
    return (await this.c.rows<{ n: number }>(sql, values)).map((row) => Number(row.n));
  }

  listEntryMentions: EntryMentionStore["listEntryMentions"] = async (query) =>
    this.#numbers(MENTIONED, [query.repository, query.pullNumber]);

  listMentioningPullRequests: EntryMentionStore["listMentioningPullRequests"] = async (query) =>
    this.#numbers(MENTIONING, [query.repository, query.issueNumber]);
}
