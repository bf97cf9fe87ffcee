/** Brings a PostgreSQL schema up to the newest of POSTGRES_MIGRATIONS (./migrations.ts). */
import type pg from "pg";
import { appliedVersion, type Migration, type MigrationOutcome } from "../migrations.js";
import { POSTGRES_MIGRATIONS } from "./migrations.js";

/** Any constant pair: serialises migrations of one schema across processes and replicas. */
const MIGRATION_LOCK = 0x61676174; // "agat"

/**
 * Brings the schema up to the newest migration in one transaction (PostgreSQL's DDL is
 * transactional: a failing migration leaves nothing behind). An advisory lock on the schema is
 * taken before the version is read, so replicas starting together migrate once: the others
 * wait, then find the work done.
 */
export async function migratePostgres(
  client: pg.ClientBase,
  location: string,
  now: () => Date,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<MigrationOutcome> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))", [
      MIGRATION_LOCK,
    ]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL
    )`);
    const applied = (
      await client.query<{ version: number; name: string }>(
        "SELECT version, name FROM schema_migrations ORDER BY version",
      )
    ).rows;
    const from = appliedVersion(location, applied, migrations);
    const done: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await client.query(migration.up);
      await client.query(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
        [migration.version, migration.name, now().toISOString()],
      );
      done.push(migration.version);
    }
    await client.query("COMMIT");
    return { from, to: done.at(-1) ?? from, applied: done };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
