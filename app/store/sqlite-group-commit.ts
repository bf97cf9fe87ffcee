/**
 * The SQLite side of group commit (group-commit.ts): a batch of writes in one immediate
 * transaction, each in a savepoint of its own. better-sqlite3 is synchronous, so the batch is
 * written and committed in one call and no promise can settle in between: every caller hears of
 * its write only after the COMMIT returned, which with journal_mode = WAL and synchronous = FULL
 * (sqlite-store.ts) means the WAL holding it was fsynced.
 */
import type Database from "better-sqlite3";
import type { Flush, Outcome } from "./group-commit.js";

export function sqliteGroupFlush<T>(
  db: Database.Database,
  committed: () => void = () => {},
): Flush<() => T, T> {
  return (writes) => {
    const outcomes = db
      .transaction(() =>
        writes.map((write): Outcome<T> => {
          // An I/O error can make SQLite roll back the whole transaction: a later write would
          // then commit on its own while the batch reports failure. Stop the batch instead.
          if (!db.inTransaction) {
            throw new Error("SQLite rolled back the batch's transaction; nothing was written");
          }
          try {
            // Nested in the batch's transaction, better-sqlite3 makes this a savepoint: a write
            // that throws rolls back alone.
            return { ok: true, value: db.transaction(write)() };
          } catch (error) {
            return { ok: false, error };
          }
        }),
      )
      .immediate();
    committed();
    return outcomes;
  };
}
