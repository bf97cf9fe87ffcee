/** The OverrideStore port on PostgreSQL (../ports/override-store.ts says what it promises). */
import type { OverrideStore } from "../ports/override-store.js";
import * as overrideRows from "../rows/override-store.js";
import type { PostgresContext } from "./context.js";

export class PostgresOverrideStore implements OverrideStore {
  constructor(private readonly c: PostgresContext) {}

  appendOverride: OverrideStore["appendOverride"] = async (input, options = {}) => {
    const { override, dedupeKey } = overrideRows.overrideInput(input, options);
    const once = await this.c.appendOnce(
      `INSERT INTO maintainer_overrides (repository, pull_number, head_sha, base_ref, by, reason,
         comment_url, at, recorded_at, dedupe_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      overrideRows.overrideParams(override, this.c.nowIso(), dedupeKey),
      `SELECT ${overrideRows.OVERRIDE_COLUMNS} FROM maintainer_overrides`,
      dedupeKey,
    );
    return once.row ? overrideRows.overrideFromRow(once.row) : { id: once.id, ...override };
  };

  listOverrides: OverrideStore["listOverrides"] = async (query) => {
    const rows = await this.c.rows(
      `SELECT ${overrideRows.OVERRIDE_COLUMNS} FROM maintainer_overrides
       WHERE repository = $1 AND pull_number = $2 AND head_sha = $3 ORDER BY id`,
      [query.repository, query.pullNumber, query.headSha],
    );
    return rows.map(overrideRows.overrideFromRow);
  };
}
