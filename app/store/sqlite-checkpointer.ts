/**
 * WAL checkpoints of the App's SQLite file on a thread of their own (issue 32). A commit appends
 * its pages to the WAL and fsyncs it (synchronous = FULL): that is what makes an answered delivery
 * durable. A checkpoint copies those pages into the database file later and fsyncs the file, so
 * the WAL can start over. SQLite runs it inside the COMMIT that crosses wal_autocheckpoint (1,000
 * pages, about 45 deliveries written one at a time): on the App's one event loop, the delivery
 * whose commit crossed it waited for some 400 pages copied and a second fsync, and every
 * delivery paid about 60-80 µs of CPU for it (docs/performance.md).
 *
 * Here a worker thread with a connection of its own runs `wal_checkpoint(PASSIVE)` after commits:
 * it never waits for the writer nor makes it wait, and its connection is synchronous = FULL too,
 * so the WAL is fsynced before it is copied and the file after, as SQLite's own checkpoint does.
 * Durability does not depend on it at all (the WAL holding a commit is on disk before the commit
 * returns). The WAL starts over only when the writer begins a transaction with all of it copied;
 * while deliveries keep coming the thread's checkpoint is never quite done by then, so the
 * writer's autocheckpoint, raised to BACKSTOP_AUTOCHECKPOINT while the thread runs, is what
 * restarts it: it then copies only what came since the thread's last checkpoint. So the WAL
 * grows to about 32 MiB (8,000 pages) instead of 4. Should the thread fail, the writer's
 * autocheckpoint goes back to SQLite's default. The thread starts after a few commits only, so a
 * store that writes little (tests, the CLI) never starts one; it is unref'ed, so it never keeps a
 * process alive.
 */
import { once } from "node:events";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

/** SQLite's default wal_autocheckpoint, in pages: the writer's own while no thread runs. */
const WRITER_AUTOCHECKPOINT = 1000;
/** The writer's backstop while the thread runs: it checkpoints only if the thread falls behind. */
const BACKSTOP_AUTOCHECKPOINT = 8000;
/** Commits before the thread starts. */
const START_AFTER_COMMITS = 32;
/**
 * The thread checkpoints once this many commits are waiting (about as many pages as SQLite's own
 * 1,000, for deliveries written one at a time), or this long after the first of fewer: every
 * checkpoint lets the WAL start over, and the first commit after a restart fsyncs the WAL's
 * header too, so checkpointing after every commit would cost the writer more than it saves.
 */
const EVERY_COMMITS = 40;
/** How long close() waits for a checkpoint in progress before it stops the thread. */
const CLOSE_LIMIT_MS = 5000;
const IDLE_MS = 250;

/** Slots of the shared signal: commits since the last checkpoint, stop, checkpoints run. */
const PENDING = 0;
const STOP = 1;
const RUNS = 2;

const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const signal = new Int32Array(workerData.signal);
const db = new Database(workerData.filename, { timeout: workerData.busyTimeoutMs });
try {
  // FULL: the checkpoint fsyncs the WAL before copying it and the database file after.
  db.pragma("synchronous = FULL");
  if (db.pragma("synchronous", { simple: true }) !== 2) throw new Error("synchronous = FULL did not hold");
  for (;;) {
    // STOP is looked at before each sleep: close() may have set it, and woken nobody, while the
    // last checkpoint ran; the sleep has a limit all the same, so a lost wake costs a second.
    if (Atomics.load(signal, ${STOP}) === 1) break;
    Atomics.wait(signal, ${PENDING}, 0, 1000);
    const until = Date.now() + workerData.idleMs;
    while (Atomics.load(signal, ${STOP}) === 0 && Atomics.load(signal, ${PENDING}) < workerData.every) {
      const left = until - Date.now();
      if (left <= 0) break;
      Atomics.wait(signal, ${STOP}, 0, Math.min(left, 20));
    }
    if (Atomics.load(signal, ${STOP}) === 1) break;
    Atomics.store(signal, ${PENDING}, 0);
    db.pragma("wal_checkpoint(PASSIVE)");
    Atomics.add(signal, ${RUNS}, 1);
  }
} finally {
  db.close();
}
`;

export interface CheckpointerOptions {
  busyTimeoutMs: number;
  /** Commits before the thread starts (tests start it at once). */
  startAfterCommits?: number;
  /** The better-sqlite3 module the thread loads (tests hand it one that fails). */
  driver?: string;
}

export class SqliteCheckpointer {
  readonly #db: Database.Database;
  readonly #filename: string;
  readonly #options: CheckpointerOptions;
  readonly #signal = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  #commits = 0;
  #worker: Worker | null = null;
  #failure: Error | null = null;
  #closed = false;

  constructor(db: Database.Database, filename: string, options: CheckpointerOptions) {
    this.#db = db;
    this.#filename = filename;
    this.#options = options;
  }

  /** Called after each commit of the writer; cheap (a shared counter, a wake when it was 0). */
  committed(): void {
    if (this.#closed || this.#failure) return;
    if (!this.#worker) {
      this.#commits += 1;
      if (this.#commits < (this.#options.startAfterCommits ?? START_AFTER_COMMITS)) return;
      // Called after a COMMIT: a thread that cannot start must not turn a stored write into an
      // error for its caller (the intake would answer 500 for a delivery it has).
      try {
        this.#start();
      } catch (error) {
        this.#fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
    if (Atomics.add(this.#signal, PENDING, 1) === 0) Atomics.notify(this.#signal, PENDING);
  }

  /** Checkpoints the thread has run, and why it stopped if it failed (tests, diagnostics). */
  get state(): { running: boolean; checkpoints: number; failure: Error | null } {
    return {
      running: this.#worker !== null,
      checkpoints: Atomics.load(this.#signal, RUNS),
      failure: this.#failure,
    };
  }

  /** Stops the thread (after a checkpoint it is running); before the writer's connection closes. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = null;
    // Unref'ed, the thread would not keep the loop alive for its own exit.
    worker.ref();
    const exited = once(worker, "exit");
    Atomics.store(this.#signal, STOP, 1);
    Atomics.store(this.#signal, PENDING, 1);
    Atomics.notify(this.#signal, PENDING);
    Atomics.notify(this.#signal, STOP);
    // A checkpoint in progress finishes first; one stuck (a disk that hangs) must not hold the
    // App's shutdown: the WAL already holds every commit, so stopping the thread loses nothing.
    const limit = setTimeout(() => void worker.terminate(), CLOSE_LIMIT_MS);
    await exited;
    clearTimeout(limit);
  }

  #start(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: this.#options.driver ?? createRequire(import.meta.url).resolve("better-sqlite3"),
        filename: this.#filename,
        busyTimeoutMs: this.#options.busyTimeoutMs,
        every: EVERY_COMMITS,
        idleMs: IDLE_MS,
        signal: this.#signal.buffer,
      },
    });
    worker.unref();
    worker.on("error", (error) => this.#fail(error));
    worker.on("exit", (code) => {
      if (!this.#closed && code !== 0) this.#fail(new Error(`exited with code ${code}`));
    });
    this.#worker = worker;
    this.#db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT}`);
  }

  /** The writer checkpoints again itself, as SQLite does by default. */
  #fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = new Error(`the SQLite checkpoint thread stopped: ${error.message}`, {
      cause: error,
    });
    this.#worker = null;
    if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT}`);
    // The store has no logger: a process warning reaches the operator's log (stderr) once.
    process.emitWarning(
      `${this.#failure.message}; the writer checkpoints the WAL itself again (every ${WRITER_AUTOCHECKPOINT} pages)`,
      { code: "AGATE_SQLITE_CHECKPOINT_THREAD" },
    );
  }
}
