/**
 * The BaseSightingStore port on PostgreSQL (../ports/base-sighting-store.ts); recordDelivery
 * writes them. Text is ordered COLLATE "C", as SQLite sorts.
 */
import type { BaseSighting } from "../../../schemas/store.js";
import type { BaseSightingStore } from "../ports/base-sighting-store.js";
import type { PostgresContext } from "./context.js";

export class PostgresBaseSightings implements BaseSightingStore {
  constructor(private readonly c: PostgresContext) {}

  listBaseSightings: BaseSightingStore["listBaseSightings"] = async (query) => {
    return this.c.rows<BaseSighting>(
      `SELECT repository, pull_number, head_sha, base_ref, delivery_id, seen_at
       FROM base_sightings WHERE repository = $1 AND head_sha = $2
       ORDER BY seen_at COLLATE "C", pull_number, base_ref COLLATE "C"`,
      [query.repository, query.headSha],
    );
  };
}
