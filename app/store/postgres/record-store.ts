/** The RecordStore port on PostgreSQL (../ports/record-store.ts says what it promises). */
import type { RecordStore } from "../ports/record-store.js";
import * as recordRows from "../rows/record-store.js";
import type { PostgresContext, Row } from "./context.js";

export class PostgresRecordStore implements RecordStore {
  constructor(private readonly c: PostgresContext) {}

  appendRecord: RecordStore["appendRecord"] = async (input, options = {}) => {
    const { record, dedupeKey } = recordRows.recordInput(input, options);
    return this.c.tx(async (client) => {
      const [inserted] = await this.c.rows<{ id: number }>(
        `${recordRows.RECORD_INSERT}
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING id`,
        Object.values(recordRows.recordParams(record, this.c.nowIso(), dedupeKey)),
        client,
      );
      const [row] = await this.c.rows(
        `SELECT ${recordRows.RECORD_COLUMNS} WHERE ${inserted ? "r.id = $1" : "r.dedupe_key = $1"}`,
        [inserted ? inserted.id : dedupeKey],
        client,
      );
      return recordRows.recordFromRow(row as Row);
    });
  };

  markStale: RecordStore["markStale"] = async (input) => {
    const mark = recordRows.markStaleInput(input);
    // ON CONFLICT: two replicas handling the same push mark each record once between them.
    const result = await this.c.query(
      `INSERT INTO acceptance_record_stale_marks (record_id, superseded_by, at, recorded_at)
       SELECT r.id, $3, $4, $5 FROM acceptance_records r
       WHERE r.repository = $1 AND r.pull_number = $2 AND r.head_sha <> $3
         AND NOT EXISTS (
           SELECT 1 FROM acceptance_record_stale_marks m WHERE m.record_id = r.id)
       ON CONFLICT (record_id) DO NOTHING`,
      [mark.repository, mark.pullNumber, mark.supersededBy, mark.at, this.c.nowIso()],
    );
    return result.rowCount ?? 0;
  };

  listRecords: RecordStore["listRecords"] = async (query) => {
    const rows = await this.c.rows(
      `SELECT ${recordRows.RECORD_COLUMNS}
       WHERE r.repository = $1 AND r.pull_number = $2
         AND ($3::text IS NULL OR r.head_sha = $3::text)
         AND ($4::text IS NULL OR r.tested_tree_sha = $4::text)
       ORDER BY r.id`,
      [query.repository, query.pullNumber, query.headSha ?? null, query.treeSha ?? null],
    );
    return rows.map(recordRows.recordFromRow);
  };

  listRepositories: RecordStore["listRepositories"] = async () => {
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
    const rows = await this.c.rows<{ name: string }>(
      `SELECT name FROM (
         SELECT repository AS name FROM deliveries WHERE repository IS NOT NULL
         UNION SELECT repository FROM acceptance_records) AS known
       ORDER BY name COLLATE "C"`,
    );
    return rows.map((row) => row.name);
  };
}
