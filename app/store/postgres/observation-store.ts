/**
 * The ObservationStore port on PostgreSQL (../ports/observation-store.ts says what it promises).
 * Text is ordered COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
 */
import type { HeadSighting, ObservationStore } from "../ports/observation-store.js";
import * as observationRows from "../rows/observation-store.js";
import type { PostgresContext } from "./context.js";

export class PostgresObservationStore implements ObservationStore {
  constructor(private readonly c: PostgresContext) {}

  async #keep(table: Parameters<typeof observationRows.keepOnce>[0], row: Record<string, unknown>) {
    const { sql, values } = observationRows.keepOnce(table, row, (n) => `$${n}`);
    await this.c.query(sql, values);
  }

  recordMergeCommit: ObservationStore["recordMergeCommit"] = async (observation) => {
    await this.#keep("merge_commits", observationRows.mergeCommitInput(observation));
  };

  listMergeCommits: ObservationStore["listMergeCommits"] = async (query) => {
    const rows = await this.c.rows<{ merge_sha: string }>(
      `SELECT merge_sha FROM merge_commits
       WHERE repository = $1 AND pull_number = $2 AND head_sha = $3
       ORDER BY observed_at COLLATE "C", merge_sha COLLATE "C"`,
      [query.repository, query.pullNumber, query.headSha],
    );
    return rows.map((row) => row.merge_sha);
  };

  recordHeadObservation: ObservationStore["recordHeadObservation"] = async (observation) => {
    const seen = observationRows.headObservationInput(observation);
    const { sql, values } = observationRows.keepOnce("head_observations", seen, (n) => `$${n}`);
    await this.c.tx(async (client) => {
      await this.c.query(sql, values, client);
      await this.c.query(
        `INSERT INTO pull_request_heads (${observationRows.NEWEST_HEAD_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (repository, pull_number) DO UPDATE SET
           head_sha = excluded.head_sha, base_ref = excluded.base_ref, base_sha = excluded.base_sha,
           observed_at = excluded.observed_at
         WHERE excluded.observed_at::timestamptz >= pull_request_heads.observed_at::timestamptz`,
        observationRows.newestHeadValues(seen),
        client,
      );
    });
  };

  listHeadObservations: ObservationStore["listHeadObservations"] = async (query) => {
    return this.c.rows<HeadSighting>(
      `SELECT pull_number, base_ref FROM head_observations
       WHERE repository = $1 AND head_sha = $2
       ORDER BY observed_at COLLATE "C", pull_number, base_ref COLLATE "C"`,
      [query.repository, query.headSha],
    );
  };

  newestHead: ObservationStore["newestHead"] = async (query) => {
    const [row] = await this.c.rows(
      "SELECT head_sha, base_ref, base_sha FROM pull_request_heads WHERE repository = $1 AND pull_number = $2",
      observationRows.newestHeadParams(query),
    );
    return observationRows.newestHeadFromRow(row, query);
  };

  recordPullRequestSighting: ObservationStore["recordPullRequestSighting"] = async (sighting) => {
    const seen = observationRows.sightingInput(sighting);
    await this.c.query(
      `INSERT INTO pull_request_sightings (${observationRows.SIGHTING_COLUMNS}) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (repository, pull_number) DO UPDATE SET
         updated_at = excluded.updated_at, digest = excluded.digest,
         observed_at = excluded.observed_at
       WHERE excluded.updated_at::timestamptz
         >= pull_request_sightings.updated_at::timestamptz`,
      [seen.repository, seen.pull_number, seen.updated_at, seen.digest, seen.observed_at],
    );
  };

  latestPullRequestSighting: ObservationStore["latestPullRequestSighting"] = async (query) => {
    const [row] = await this.c.rows(
      `SELECT ${observationRows.SIGHTING_COLUMNS} FROM pull_request_sightings
       WHERE repository = $1 AND pull_number = $2`,
      [query.repository, query.pullNumber],
    );
    return observationRows.sightingFromRow(row, query);
  };
}
