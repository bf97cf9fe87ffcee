/**
 * What every SQLite port works through: one connection, its prepared statements, the clock, and
 * the rule of store.ts: a write is one synchronous immediate transaction, so none is ever held
 * across an await and the write lock is taken up front (the busy timeout then applies, instead
 * of a deferred transaction failing with SQLITE_BUSY when it tries to upgrade).
 */
import type Database from "better-sqlite3";
import type { Clock } from "../store.js";
import { type AppendedOnce, ON_DEDUPE_KEY } from "../validate.js";

export type Row = Record<string, unknown>;

export interface SqliteContext {
  readonly db: Database.Database;
  readonly now: Clock;
  /** The statement for `source`, prepared once per connection and reused after. */
  sql(source: string): Database.Statement;
  /** `fn` in one immediate transaction. */
  write<T>(fn: () => T): T;
  /** Called after each commit (the checkpoint thread's cue, ../sqlite-checkpointer.ts). */
  committed(): void;
  nowIso(): string;
  /**
   * An append a dedupe key makes once (../ports/keys.ts), in one immediate transaction: `insert`
   * (its VALUES, no conflict clause) with `values`; where the key wrote a row already, that row
   * as `select` (its FROM, no WHERE) reads it.
   */
  appendOnce(
    insert: string,
    values: unknown[],
    select: string,
    dedupeKey: string | null,
  ): AppendedOnce;
}

export function sqliteContext(
  db: Database.Database,
  now: Clock,
  committed: () => void = () => {},
): SqliteContext {
  const statements = new Map<string, Database.Statement>();
  return {
    db,
    now,
    sql(source) {
      let statement = statements.get(source);
      if (!statement) {
        statement = db.prepare(source);
        statements.set(source, statement);
      }
      return statement;
    },
    write: (fn) => {
      const result = db.transaction(fn).immediate();
      committed();
      return result;
    },
    committed,
    nowIso: () => now().toISOString(),
    appendOnce(insert, values, select, dedupeKey) {
      return this.write(() => {
        const inserted = this.sql(`${insert} ${ON_DEDUPE_KEY}`).get(...values) as
          | { id: number }
          | undefined;
        return (
          inserted ?? { row: this.sql(`${select} WHERE dedupe_key = ?`).get(dedupeKey) as Row }
        );
      });
    },
  };
}
