/** The ObservationStore port on SQLite (../ports/observation-store.ts says what it promises). */
import type { HeadSighting, ObservationStore } from "../ports/observation-store.js";
import * as observationRows from "../rows/observation-store.js";
import type { SqliteContext } from "./context.js";

export class SqliteObservationStore implements ObservationStore {
  constructor(private readonly c: SqliteContext) {}

  #keep(table: Parameters<typeof observationRows.keepOnce>[0], row: Record<string, unknown>) {
    const { sql, values } = observationRows.keepOnce(table, row, () => "?");
    this.c.write(() => this.c.sql(sql).run(...values));
  }

  recordMergeCommit: ObservationStore["recordMergeCommit"] = async (observation) => {
    this.#keep("merge_commits", observationRows.mergeCommitInput(observation));
  };

  listMergeCommits: ObservationStore["listMergeCommits"] = async (query) => {
    return this.c
      .sql(
        `SELECT merge_sha FROM merge_commits
       WHERE repository = ? AND pull_number = ? AND head_sha = ? ORDER BY observed_at, merge_sha`,
      )
      .pluck()
      .all(query.repository, query.pullNumber, query.headSha) as string[];
  };

  recordHeadObservation: ObservationStore["recordHeadObservation"] = async (observation) => {
    const seen = observationRows.headObservationInput(observation);
    const { sql, values } = observationRows.keepOnce("head_observations", seen, () => "?");
    this.c.write(() => {
      this.c.sql(sql).run(...values);
      this.c
        .sql(
          `INSERT INTO pull_request_heads (${observationRows.NEWEST_HEAD_COLUMNS})
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (repository, pull_number) DO UPDATE SET
             head_sha = excluded.head_sha, base_ref = excluded.base_ref, base_sha = excluded.base_sha,
             observed_at = excluded.observed_at
           WHERE unixepoch(excluded.observed_at, 'subsec') >= unixepoch(observed_at, 'subsec')`,
        )
        .run(...observationRows.newestHeadValues(seen));
    });
  };

  listHeadObservations: ObservationStore["listHeadObservations"] = async (query) => {
    return this.c
      .sql(
        `SELECT pull_number, base_ref FROM head_observations
       WHERE repository = ? AND head_sha = ? ORDER BY observed_at, pull_number, base_ref`,
      )
      .all(query.repository, query.headSha) as HeadSighting[];
  };

  newestHead: ObservationStore["newestHead"] = async (query) => {
    const row = this.c
      .sql(
        "SELECT head_sha, base_ref, base_sha FROM pull_request_heads WHERE repository = ? AND pull_number = ?",
      )
      .get(...observationRows.newestHeadParams(query));
    return observationRows.newestHeadFromRow(row, query);
  };

  recordPullRequestSighting: ObservationStore["recordPullRequestSighting"] = async (sighting) => {
    const seen = observationRows.sightingInput(sighting);
    this.c.write(() =>
      this.c
        .sql(
          `INSERT INTO pull_request_sightings (${observationRows.SIGHTING_COLUMNS}) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (repository, pull_number) DO UPDATE SET
           updated_at = excluded.updated_at, digest = excluded.digest,
           observed_at = excluded.observed_at
         WHERE unixepoch(excluded.updated_at, 'subsec') >= unixepoch(updated_at, 'subsec')`,
        )
        .run(seen.repository, seen.pull_number, seen.updated_at, seen.digest, seen.observed_at),
    );
  };

  latestPullRequestSighting: ObservationStore["latestPullRequestSighting"] = async (query) => {
    const row = this.c
      .sql(
        `SELECT ${observationRows.SIGHTING_COLUMNS} FROM pull_request_sightings
       WHERE repository = ? AND pull_number = ?`,
      )
      .get(query.repository, query.pullNumber);
    return observationRows.sightingFromRow(row, query);
  };
}
