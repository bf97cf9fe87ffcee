/** The OverrideStore port on SQLite (../ports/override-store.ts says what it promises). */
import type { OverrideStore } from "../ports/override-store.js";
import * as overrideRows from "../rows/override-store.js";
import type { Row, SqliteContext } from "./context.js";

export class SqliteOverrideStore implements OverrideStore {
  constructor(private readonly c: SqliteContext) {}

  appendOverride: OverrideStore["appendOverride"] = async (input, options = {}) => {
    const { override, dedupeKey } = overrideRows.overrideInput(input, options);
    const once = this.c.appendOnce(
      `INSERT INTO maintainer_overrides (repository, pull_number, head_sha, base_ref, by,
         reason, comment_url, at, recorded_at, dedupe_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      overrideRows.overrideParams(override, this.c.nowIso(), dedupeKey),
      `SELECT ${overrideRows.OVERRIDE_COLUMNS} FROM maintainer_overrides`,
      dedupeKey,
    );
    return once.row ? overrideRows.overrideFromRow(once.row) : { id: once.id, ...override };
  };

  listOverrides: OverrideStore["listOverrides"] = async (query) => {
    const rows = this.c
      .sql(
        `SELECT ${overrideRows.OVERRIDE_COLUMNS} FROM maintainer_overrides
       WHERE repository = ? AND pull_number = ? AND head_sha = ? ORDER BY id`,
      )
      .all(query.repository, query.pullNumber, query.headSha) as Row[];
    return rows.map(overrideRows.overrideFromRow);
  };
}
