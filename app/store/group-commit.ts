/**
 * Group commit for the webhook path (issue 32). A delivery's answer may go out only once its rows
 * are durable, and a durable commit costs one fsync (SQLite, synchronous = FULL) or one WAL flush
 * and a few round trips (PostgreSQL): paid once per delivery, that cost caps how many deliveries
 * a second the App can take. Deliveries that arrive while the event loop is busy, or while the
 * commits allowed at once are in flight, join the next transaction instead, each in a savepoint
 * of its own; every caller's promise settles only after that transaction's COMMIT returned. So an
 * answered delivery is as durable as one committed alone, and a delivery that fails inside the
 * batch rolls back its own savepoint and fails alone (the backend's flush says how).
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

export interface GroupCommitOptions {
  /** The most works one transaction takes: a longer one holds its locks longer. */
  maxBatch?: number;
  /**
   * Transactions in flight at once. SQLite's flush is synchronous (one at a time whatever this
   * says); PostgreSQL's waits on round trips, and the server shares WAL flushes between
   * concurrent commits, so several batches in flight on connections of their own go faster.
   */
  maxFlushes?: number;
}

export class GroupCommit<W, T> {
  readonly #flush: Flush<W, T>;
  readonly #maxBatch: number;
  readonly #maxFlushes: number;
  #waiting: Waiting<W, T>[] = [];
  #scheduled = false;
  readonly #flights = new Set<Promise<void>>();

  constructor(flush: Flush<W, T>, options: GroupCommitOptions = {}) {
    this.#flush = flush;
    this.#maxBatch = options.maxBatch ?? 64;
    this.#maxFlushes = options.maxFlushes ?? 1;
  }

  /**
   * Queues `work` for a transaction. It waits one setImmediate (what else arrived in the same
   * turn of the event loop joins it), or, while the transactions allowed at once are in flight,
   * until one of them is done. Resolves once the transaction holding it has committed.
   */
  submit(work: W): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({
        work,
        settle: (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)),
      });
      this.#schedule();
    });
  }

  /** Commits (or refuses) everything submitted so far: before the database closes. */
  async drain(): Promise<void> {
    for (;;) {
      this.#start();
      if (this.#flights.size === 0) return;
      await Promise.all(this.#flights);
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#flights.size >= this.#maxFlushes) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#start();
    });
  }

  /**
   * What waits goes into one transaction (up to maxBatch): what arrived in one turn of the event
   * loop shares a commit; what arrives while it is in flight starts another, while one may.
   */
  #start(): void {
    while (this.#waiting.length > 0 && this.#flights.size < this.#maxFlushes) {
      const batch = this.#waiting.splice(0, this.#maxBatch);
      const flight: Promise<void> = this.#commit(batch).finally(() => {
        this.#flights.delete(flight);
        if (this.#waiting.length > 0) this.#schedule();
      });
      this.#flights.add(flight);
    }
  }

  async #commit(batch: Waiting<W, T>[]): Promise<void> {
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
