/**
 * The PostgreSQL side of group commit (../group-commit.ts): a batch of deliveries in one
 * transaction on one connection, each in a savepoint of its own, and every caller answered only
 * after the COMMIT returned. What that COMMIT promises is the server's: with PostgreSQL's
 * defaults (fsync on, synchronous_commit on) its WAL record was flushed to disk, and with a
 * synchronous standby also replicated, before COMMIT returns. A server set to
 * synchronous_commit = off may lose the last commits on a crash: that is the operator's choice,
 * and agate's answer then means what that server's commit means.
 *
 * One delivery failing does not fail the others: its savepoint is rolled back and the batch goes
 * on. A deadlock or serialisation failure (two replicas inserting the same deliveries in
 * opposite orders) is run again alone, in a transaction of its own, once the batch committed.
 * Round trips are what a batch costs here, so the savepoint statements ride with the ones
 * before and after them (a query without parameters may hold several statements).
 */
import type pg from "pg";
import type { Flush, Outcome } from "../group-commit.js";
import { isRetriable } from "./connection.js";

export type Queryable = Pick<pg.ClientBase, "query">;

/** One delivery's statements, run on the batch's connection inside its savepoint. */
export type BatchWork<T> = (client: Queryable) => Promise<T>;

export interface PostgresFlushOptions<T> {
  pool: pg.Pool;
  /** Runs one work in a transaction of its own (with the store's retries). */
  alone: (work: BatchWork<T>) => Promise<T>;
  /** The store's wording of a failure (queryError). */
  describe: (error: unknown) => unknown;
}

export function postgresGroupFlush<T>(options: PostgresFlushOptions<T>): Flush<BatchWork<T>, T> {
  return async (works) => {
    if (works.length === 0) return [];
    let client: pg.PoolClient;
    try {
      client = await options.pool.connect();
    } catch (error) {
      throw options.describe(error);
    }
    const outcomes: Outcome<T>[] = [];
    const again: number[] = [];
    let broken = false;
    try {
      let next = "BEGIN; SAVEPOINT delivery";
      for (const [i, work] of works.entries()) {
        await client.query(next);
        try {
          outcomes.push({ ok: true, value: await work(client) });
          next = "RELEASE SAVEPOINT delivery";
        } catch (error) {
          outcomes.push({ ok: false, error });
          if (isRetriable(error)) again.push(i);
          next = "ROLLBACK TO SAVEPOINT delivery; RELEASE SAVEPOINT delivery";
        }
        next += i + 1 < works.length ? "; SAVEPOINT delivery" : "; COMMIT";
      }
      const results = (await client.query(next)) as unknown as pg.QueryResult[];
      // A transaction left aborted answers COMMIT with ROLLBACK, not an error: refuse that.
      if (results.at(-1)?.command !== "COMMIT") {
        throw new Error("the batch's transaction was rolled back at COMMIT; nothing was written");
      }
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      throw options.describe(error);
    } finally {
      client.release(broken);
    }
    for (const i of again) {
      const work = works[i] as BatchWork<T>;
      try {
        outcomes[i] = { ok: true, value: await options.alone(work) };
      } catch (error) {
        outcomes[i] = { ok: false, error };
      }
    }
    return outcomes;
  };
}
