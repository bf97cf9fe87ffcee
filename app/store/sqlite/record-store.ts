/** The RecordStore port on SQLite (../ports/record-store.ts says what it promises). */
import type { RecordStore } from "../ports/record-store.js";
import * as recordRows from "../rows/record-store.js";
import type { Row, SqliteContext } from "./context.js";

export class SqliteRecordStore implements RecordStore {
  constructor(private readonly c: SqliteContext) {}

  appendRecord: RecordStore["appendRecord"] = async (input, options = {}) => {
    const { record, dedupeKey } = recordRows.recordInput(input, options);
    return this.c.write(() => {
      const inserted = this.c
        .sql(
          `${recordRows.RECORD_INSERT}
         VALUES (@repository, @pull_number, @head_sha, @base_sha, @tested, @commands, @provenance,
           @runner, @grader, @verdict, @verdict_by, @handoff, @override, @decision, @decided_at,
           @recorded_at, @dedupe_key)
         ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING id`,
        )
        .get(recordRows.recordParams(record, this.c.nowIso(), dedupeKey)) as
        | { id: number }
        | undefined;
      const id =
        inserted?.id ??
        (
          this.c.sql("SELECT id FROM acceptance_records WHERE dedupe_key = ?").get(dedupeKey) as {
            id: number;
          }
        ).id;
      return recordRows.recordFromRow(
        this.c.sql(`SELECT ${recordRows.RECORD_COLUMNS} WHERE r.id = ?`).get(id) as Row,
      );
    });
  };

  markStale: RecordStore["markStale"] = async (input) => {
    const mark = recordRows.markStaleInput(input);
    return this.c.write(
      () =>
        this.c
          .sql(
            `INSERT INTO acceptance_record_stale_marks (record_id, superseded_by, at, recorded_at)
           SELECT r.id, @superseded_by, @at, @now FROM acceptance_records r
           WHERE r.repository = @repository AND r.pull_number = @pull_number
             AND r.head_sha <> @superseded_by
             AND NOT EXISTS (
               SELECT 1 FROM acceptance_record_stale_marks m WHERE m.record_id = r.id)`,
          )
          .run({
            repository: mark.repository,
            pull_number: mark.pullNumber,
            superseded_by: mark.supersededBy,
            at: mark.at,
            now: this.c.nowIso(),
          }).changes,
    );
  };

  listRecords: RecordStore["listRecords"] = async (query) => {
    const rows = this.c
      .sql(
        `SELECT ${recordRows.RECORD_COLUMNS}
       WHERE r.repository = @repository AND r.pull_number = @pull_number
         AND (@head IS NULL OR r.head_sha = @head) AND (@tree IS NULL OR r.tested_tree_sha = @tree)
       ORDER BY r.id`,
      )
      .all({
        repository: query.repository,
        pull_number: query.pullNumber,
        head: query.headSha ?? null,
        tree: query.treeSha ?? null,
      }) as Row[];
    return rows.map(recordRows.recordFromRow);
  };

  listRepositories: RecordStore["listRepositories"] = async () => {
    const rows = this.c
      .sql(
        `SELECT repository AS name FROM deliveries WHERE repository IS NOT NULL
       UNION SELECT repository AS name FROM acceptance_records
       ORDER BY name`,
      )
      .all() as { name: string }[];
    return rows.map((row) => row.name);
  };
}
