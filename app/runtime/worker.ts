/**
 * Workers take jobs from the store with a lease, run their handler, and complete or fail them.
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

import type { Job, StoredDelivery } from "../../schemas/store.js";
import { type Backoff, exponentialBackoff } from "../kit/backoff.js";
import { LeaseLostError } from "../store/errors.js";
import type { ClaimedJob, JobLease } from "../store/ports/job-queue.js";
import type { Store } from "../store/store.js";

export interface JobAttempt {
  /** The delivery that enqueued the job, re-read from the store (absent for other jobs). */
  delivery?: StoredDelivery;
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

interface Execution {
  controller: AbortController;
  stopHeartbeat: () => void;
}

export function startWorkers(options: WorkersOptions): Workers {
  const { store, handlers, workerId, log } = options;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const backoff = options.backoff ?? exponentialBackoff();
  const now = options.now ?? (() => new Date());
  const stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  const kinds = Object.keys(handlers);

  let stopping = false;
  // A poke that lands while a worker is claiming must not be lost: the worker compares the
  // generation it saw before claiming with the current one before it sleeps.
  let generation = 0;
  const sleepers = new Set<() => void>();
  const executions = new Map<number, Execution>();

  function poke(): void {
    generation++;
    for (const wake of [...sleepers]) wake();
  }

  function sleep(seen: number): Promise<void> {
    if (stopping || seen !== generation) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, pollMs);
      sleepers.add(wake);
    });
  }

  async function loop(owner: string): Promise<void> {
    while (!stopping) {
      const seen = generation;
      let claimed: ClaimedJob | null;
      try {
        claimed = await store.claimJob({ workerId: owner, leaseMs });
      } catch (error) {
        log.error(
          { worker: owner, err: error },
          `cannot claim a job from the store (${message(error)}); trying again in ${pollMs} ms. ` +
            "If this repeats, check that the database file is reachable and writable",
        );
        await sleep(seen);
        continue;
      }
      if (claimed) await execute(claimed);
      else await sleep(seen);
    }
  }

  async function execute({ job, lease }: ClaimedJob): Promise<void> {
    const fields = {
      job: job.id,
      kind: job.kind,
      attempt: lease.attempt,
      max_attempts: job.max_attempts,
      delivery: job.delivery_id,
      worker: lease.workerId,
    };
    const handler = Object.hasOwn(handlers, job.kind) ? handlers[job.kind] : undefined;
    if (!handler) {
      await fail(
        lease,
        fields,
        `no handler for job kind "${job.kind}" in this agate (it handles: ${kinds.join(", ")}); ` +
          "it was enqueued by another build of agate or by mistake",
        { permanent: true },
      );
      return;
    }
    const controller = new AbortController();
    let lost = false;
    let beating = false;
    const timer = setInterval(
      async () => {
        if (beating || lost) return;
        beating = true;
        try {
          await store.heartbeat(lease, leaseMs);
        } catch (error) {
          if (error instanceof LeaseLostError) {
            lost = true;
            clearInterval(timer);
            controller.abort(error);
          } else {
            log.warn(
              { ...fields, err: error },
              `cannot extend the lease of job ${job.id} (${message(error)}); trying again ` +
                "at the next heartbeat. If the lease expires first, another worker runs the job",
            );
          }
        } finally {
          beating = false;
        }
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    executions.set(job.id, { controller, stopHeartbeat: () => clearInterval(timer) });

    let failure: { error: unknown } | null = null;
    try {
      const delivery = job.delivery_id ? await store.getDelivery(job.delivery_id) : null;
      await handler(job, {
        ...(delivery ? { delivery } : {}),
        signal: controller.signal,
        attempt: lease.attempt,
      });
    } catch (error) {
      failure = { error };
    } finally {
      clearInterval(timer);
      executions.delete(job.id);
    }

    if (lost) {
      log.warn(
        fields,
        `job ${job.id} (${job.kind}) lost its lease while running attempt ${lease.attempt}: ` +
          "its result is dropped and the worker that took it over runs it. Nothing to do, " +
          "unless this repeats: then the handler blocks the event loop or leaseMs is too short",
      );
      return;
    }
    if (failure) {
      const retryAt = new Date(now().getTime() + backoff(lease.attempt));
      await fail(lease, fields, describe(failure.error), { retryAt });
      return;
    }
    try {
      await store.completeJob(lease);
      log.debug(fields, `job ${job.id} (${job.kind}) done`);
    } catch (error) {
      log.warn(
        { ...fields, err: error },
        `job ${job.id} (${job.kind}) ran, but could not be marked done (${message(error)}); ` +
          "it will run again after its lease",
      );
    }
  }

  async function fail(
    lease: JobLease,
    fields: Record<string, unknown> & { job: number; kind: string },
    reason: string,
    failOptions: { retryAt?: Date; permanent?: boolean },
  ): Promise<void> {
    const what = `job ${fields.job} (${fields.kind}) failed on attempt ${lease.attempt}`;
    try {
      const after = await store.failJob(lease, reason, failOptions);
      if (after.status === "dead") {
        log.error(
          { ...fields, error: reason },
          `${what} and is dead, not retried: ${firstLine(reason)}. Fix the cause; the job and ` +
            "its delivery stay in the store with the error for replay",
        );
      } else {
        log.warn(
          { ...fields, error: reason, retry_at: after.run_at },
          `${what} of ${after.max_attempts}: ${firstLine(reason)}; retrying at ${after.run_at}. ` +
            "Nothing to do unless it keeps failing",
        );
      }
    } catch (error) {
      log.warn(
        { ...fields, error: reason, err: error },
        `${what}: ${firstLine(reason)}; the failure could not be recorded (${message(error)}), ` +
          "so the job runs again after its lease",
      );
    }
  }

  const loops: Promise<void>[] = [];
  if (kinds.length === 0) {
    log.info({ worker: workerId }, "no job handlers: this process records deliveries only");
  } else {
    for (let slot = 1; slot <= concurrency; slot++) loops.push(loop(`${workerId}/${slot}`));
  }

  return {
    poke,
    get running() {
      return [...executions.keys()];
    },
    async stop() {
      stopping = true;
      poke();
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
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What is stored as the job's last error: the stack when there is one, for the person fixing it. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return `thrown: ${String(error)}`;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? text;
}
