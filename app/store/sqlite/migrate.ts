/** Brings a SQLite file up to the newest of MIGRATIONS (../migrations.ts). */
import type BetterSqlite3 from "better-sqlite3";
import {
  appliedVersion,
  MIGRATIONS,
  type Migration,
  type MigrationOutcome,
} from "../migrations.js";

/**
 * Brings the database up to LATEST_SCHEMA_VERSION in one immediate transaction. The write lock
 * is taken before the version is read, so two processes opening a new file at once cannot both
 * migrate: the second waits (busy timeout), then sees the work done.
 */
export function migrate(
  db: BetterSqlite3.Database,
  location: string,
  now: () => Date,
  migrations: readonly Migration[] = MIGRATIONS,
): MigrationOutcome {
  const run = db.transaction((): MigrationOutcome => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const applied = db
      .prepare("SELECT version, name FROM schema_migrations ORDER BY version")
      .all() as { version: number; name: string }[];
    const from = appliedVersion(location, applied, migrations);
    const insert = db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
    );
    const done: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      db.exec(migration.up);
      insert.run(migration.version, migration.name, now().toISOString());
      done.push(migration.version);
    }
    return { from, to: done.at(-1) ?? from, applied: done };
  });
  return run.immediate();
}
