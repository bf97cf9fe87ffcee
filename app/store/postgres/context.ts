/**
 * What every PostgreSQL port works through: the pool, the clock, a statement (its errors in
 * agate's words: queryError), and a READ COMMITTED transaction on one client, run again from the
 * start (at most three times) when the server rolled it back for a deadlock or serialisation
 * failure.
 */
import type pg from "pg";
import type { Clock } from "../store.js";
import { type AppendedOnce, ON_DEDUPE_KEY } from "../validate.js";
import { isRetriable, queryError } from "./connection.js";
import type { Queryable } from "./group-commit.js";

export type Row = Record<string, unknown>;

export interface PostgresContext {
  readonly pool: pg.Pool;
  readonly now: Clock;
  nowIso(): string;
  /** One statement on `on` (the pool when absent). */
  query<R extends Row = Row>(
    text: string,
    values?: unknown[],
    on?: Queryable,
  ): Promise<pg.QueryResult<R>>;
  /** One statement's rows. */
  rows<R extends Row = Row>(text: string, values?: unknown[], on?: Queryable): Promise<R[]>;
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * An append a dedupe key makes once (../ports/keys.ts): `insert` (its VALUES, no conflict
   * clause) with `values`; where the key wrote a row already, that row as `select` (its FROM, no
   * WHERE) reads it.
   */
  appendOnce(
    insert: string,
    values: unknown[],
    select: string,
    dedupeKey: string | null,
  ): Promise<AppendedOnce>;
  /** A failure as the store words it. */
  describe(error: unknown): unknown;
}

export function postgresContext(
  pool: pg.Pool,
  now: Clock,
  location: string,
  statementTimeoutMs: number,
): PostgresContext {
  const describe = (error: unknown) => queryError(location, statementTimeoutMs, error);
  const query = async <R extends Row = Row>(
    text: string,
    values: unknown[] = [],
    on: Queryable = pool,
  ): Promise<pg.QueryResult<R>> => {
    try {
      return await on.query<R>(text, values);
    } catch (error) {
      throw describe(error);
    }
  };
  return {
    pool,
    now,
    nowIso: () => now().toISOString(),
    query,
    rows: async <R extends Row = Row>(text: string, values?: unknown[], on?: Queryable) =>
      (await query<R>(text, values, on)).rows,
    describe,
    async appendOnce(insert, values, select, dedupeKey) {
      const [inserted] = (await query<{ id: number }>(`${insert} ${ON_DEDUPE_KEY}`, values)).rows;
      if (inserted) return { id: inserted.id };
      return { row: (await query(`${select} WHERE dedupe_key = $1`, [dedupeKey])).rows[0] as Row };
    },
    async tx(fn) {
      for (let attempt = 1; ; attempt++) {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw describe(error);
        }
        let broken = false;
        try {
          await client.query("BEGIN");
          const result = await fn(client);
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {
            broken = true;
          });
          if (attempt < 3 && isRetriable(error)) continue;
          throw describe(error);
        } finally {
          client.release(broken);
        }
      }
    },
  };
}
