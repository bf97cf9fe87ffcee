/**
 * The BaseSightingStore port on SQLite (../ports/base-sighting-store.ts); recordDelivery writes
 * them.
 */
import type { BaseSighting } from "../../../schemas/store.js";
import type { BaseSightingStore } from "../ports/base-sighting-store.js";
import type { SqliteContext } from "./context.js";

export class SqliteBaseSightings implements BaseSightingStore {
  constructor(private readonly c: SqliteContext) {}

  listBaseSightings: BaseSightingStore["listBaseSightings"] = async (query) => {
    return this.c
      .sql(
        `SELECT repository, pull_number, head_sha, base_ref, delivery_id, seen_at
       FROM base_sightings WHERE repository = ? AND head_sha = ?
       ORDER BY seen_at, pull_number, base_ref`,
      )
      .all(query.repository, query.headSha) as BaseSighting[];
  };
}
