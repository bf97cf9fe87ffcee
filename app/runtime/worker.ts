/**
 * Workers take jobs from the store with a lease; each claimed job is run by app/runtime/run-job.ts
 * (its handler, heartbeat, completion or failure).
 *
 * - A lease is extended every leaseMs/3 while the handler runs. When it is lost (the process
 *   stalled past its lease and another worker took the job) the handler's signal is aborted and
 *   nothing more is written for this run: the new holder owns the job.
 * - A handler that throws is retried after `backoff(attempt)`, until the job's max_attempts;
 *   then the job is dead, kept with its last error.
 * - A job whose kind has no handler goes dead at once: waiting would not make a handler appear,
 *   and a queue that never drains hides the mistake. A process with no handlers at all claims
 *   nothing (it only receives webhooks), so such a process never kills jobs it cannot run.
 * - A process killed mid-job loses nothing: the lease expires and another worker takes the job
 *   again, so handlers must be idempotent (a job can run more than once, never concurrently).
 */

import type { Job } from "../../schemas/store.js";
import { type Backoff, exponentialBackoff } from "../kit/backoff.js";
import type { ClaimedJob } from "../store/ports/job-queue.js";
import type { Store } from "../store/store.js";
import { type Execution, type JobRunner, message, runJob } from "./run-job.js";

export interface JobAttempt {
  /** Aborted when the lease is lost or the process stops before the handler finished. */
  signal: AbortSignal;
  /**
   * Which run of the job this is, from 1: above 1, an earlier run failed or stopped part-way (a
   * crash, a lost lease), and may have stored some of its work and not the rest.
   */
  attempt: number;
}

export type JobHandler = (job: Job, attempt: JobAttempt) => Promise<void>;

/** The part of Probot's (pino) logger the runtime uses: fields first, then the message. */
export interface RuntimeLog {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface WorkersOptions {
  store: Store;
  handlers: Readonly<Record<string, JobHandler>>;
  /** Names this process in leases (`<workerId>/<slot>`); unique per process. */
  workerId: string;
  /** Jobs run at once. */
  concurrency?: number;
  leaseMs?: number;
  /** How often an idle worker looks for due work it was not poked about (retries, other processes). */
  pollMs?: number;
  backoff?: Backoff;
  now?: () => Date;
  log: RuntimeLog;
  /** How long stop() waits for running handlers before abandoning them to their leases. */
  stopTimeoutMs?: number;
}

export interface Workers {
  /** New work is in the store: idle workers look now instead of at their next poll. */
  poke(): void;
  /** Stops claiming and waits (bounded) for running handlers. */
  stop(): Promise<void>;
  /** Ids of the jobs being run now. */
  readonly running: readonly number[];
}

export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_POLL_MS = 250;
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;

export function startWorkers(options: WorkersOptions): Workers {
  const { store, handlers, workerId, log } = options;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const backoff = options.backoff ?? exponentialBackoff();
  const now = options.now ?? (() => new Date());
  const stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  const kinds = Object.keys(handlers);

  const bell = new Doorbell(pollMs);
  const executions = new Map<number, Execution>();
  const runner: JobRunner = { store, handlers, leaseMs, backoff, now, log, executions };

  async function loop(owner: string): Promise<void> {
    while (!bell.stopping) {
      const seen = bell.generation;
      let claimed: ClaimedJob | null;
      try {
        claimed = await store.claimJob({ workerId: owner, leaseMs });
      } catch (error) {
        log.error(
          { worker: owner, err: error },
          `cannot claim a job from the store (${message(error)}); trying again in ${pollMs} ms. ` +
            "If this repeats, check that the database file is reachable and writable",
        );
        await bell.sleep(seen);
        continue;
      }
      if (claimed) await runJob(runner, claimed);
      else await bell.sleep(seen);
    }
  }

  const loops: Promise<void>[] = [];
  if (kinds.length === 0) {
    log.info({ worker: workerId }, "no job handlers: this process records deliveries only");
  } else {
    for (let slot = 1; slot <= concurrency; slot++) loops.push(loop(`${workerId}/${slot}`));
  }

  return {
    poke: () => bell.ring(),
    get running() {
      return [...executions.keys()];
    },
    async stop() {
      bell.stopping = true;
      bell.ring();
      await waitOrAbandon(loops, executions, stopTimeoutMs, log);
    },
  };
}

/**
 * Idle workers sleep until poked or until their poll comes round. A poke that lands while a
 * worker is claiming must not be lost: the worker compares the generation it saw before claiming
 * with the current one before it sleeps.
 */
class Doorbell {
  stopping = false;
  generation = 0;
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly pollMs: number) {}

  ring(): void {
    this.generation++;
    for (const wake of [...this.sleepers]) wake();
  }

  sleep(seen: number): Promise<void> {
    if (this.stopping || seen !== this.generation) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.pollMs);
      this.sleepers.add(wake);
    });
  }
}

/** Waits (bounded) for the loops; handlers still running then are aborted, left to their leases. */
async function waitOrAbandon(
  loops: readonly Promise<void>[],
  executions: ReadonlyMap<number, Execution>,
  stopTimeoutMs: number,
  log: RuntimeLog,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    Promise.all(loops).then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), stopTimeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!timedOut) return;
  const abandoned = [...executions.keys()];
  for (const execution of executions.values()) {
    execution.stopHeartbeat();
    execution.controller.abort(new Error("agate is shutting down"));
  }
  log.warn(
    { jobs: abandoned },
    `stopped while jobs ${abandoned.join(", ")} were still running after ${stopTimeoutMs} ms; ` +
      "their leases expire and another worker runs them again",
  );
}
