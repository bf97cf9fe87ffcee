/**
 * Group commit for the webhook path (issue 32). A delivery's answer may go out only once its rows
 * are durable, and a durable commit costs one fsync (SQLite, synchronous = FULL) or one WAL flush
 * and a few round trips (PostgreSQL): paid once per delivery, that cost caps how many deliveries
 * a second the App can take. Deliveries that arrive while the event loop is busy, or while a
 * commit is in flight, join the next transaction instead, each in a savepoint of its own; every
 * caller's promise settles only after that transaction's COMMIT returned. So an answered
 * delivery is as durable as one committed alone, and a delivery that fails inside the batch
 * rolls back its own savepoint and fails alone (the backend's flush says how).
 *
 * This module only queues and schedules; the backends' flushes are in sqlite-group-commit.ts and
 * postgres/group-commit.ts.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Commits a batch in one transaction; one outcome per work, in order. Throws if none committed. */
export type Flush<W, T> = (works: readonly W[]) => Outcome<T>[] | Promise<Outcome<T>[]>;

interface Waiting<W, T> {
  work: W;
  settle: (outcome: Outcome<T>) => void;
}

/** The most works one transaction takes: a longer one would hold the write lock longer. */
export const MAX_BATCH = 64;

export class GroupCommit<W, T> {
  readonly #flush: Flush<W, T>;
  readonly #maxBatch: number;
  #waiting: Waiting<W, T>[] = [];
  #scheduled = false;
  #running: Promise<void> | undefined;

  constructor(flush: Flush<W, T>, options: { maxBatch?: number } = {}) {
    this.#flush = flush;
    this.#maxBatch = options.maxBatch ?? MAX_BATCH;
  }

  /**
   * Queues `work` for the next transaction. Alone, it waits one setImmediate (what else arrived
   * in the same turn of the event loop joins it); while a transaction is in flight, it waits for
   * that one and goes in the next. Resolves once the transaction holding it has committed.
   */
  submit(work: W): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({
        work,
        settle: (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)),
      });
      if (!this.#running && !this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          void this.#run();
        });
      }
    });
  }

  /** Commits (or refuses) everything submitted so far: before the database closes. */
  async drain(): Promise<void> {
    while (this.#running || this.#waiting.length > 0) await this.#run();
  }

  #run(): Promise<void> {
    this.#running ??= this.#commitAll().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #commitAll(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, this.#maxBatch);
      let outcomes: Outcome<T>[];
      try {
        outcomes = await this.#flush(batch.map((waiting) => waiting.work));
      } catch (error) {
        // The transaction itself failed (BEGIN, COMMIT, the connection): none of it counts.
        outcomes = batch.map(() => ({ ok: false, error }));
      }
      batch.forEach((waiting, i) => {
        waiting.settle(
          outcomes[i] ?? { ok: false, error: new Error("group commit lost an outcome") },
        );
      });
    }
  }
}
