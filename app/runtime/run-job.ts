/**
 * One claimed job run to its end (app/runtime/worker.ts claims it): its lease extended while its
 * handler runs, then completed, or failed with a backoff; a job whose lease was lost writes
 * nothing more (the worker that took it over owns it).
 */

import type { Backoff } from "../kit/backoff.js";
import { LeaseLostError } from "../store/errors.js";
import type { ClaimedJob, JobLease } from "../store/ports/job-queue.js";
import type { Store } from "../store/store.js";
import type { JobHandler, RuntimeLog } from "./worker.js";

/** A running job, as stop() finds it when it outlasts its wait. */
export interface Execution {
  controller: AbortController;
  stopHeartbeat: () => void;
}

/** What every run of a process's workers shares. */
export interface JobRunner {
  store: Store;
  handlers: Readonly<Record<string, JobHandler>>;
  leaseMs: number;
  backoff: Backoff;
  now: () => Date;
  log: RuntimeLog;
  /** The jobs running now, by id. */
  executions: Map<number, Execution>;
}

type JobFields = Record<string, unknown> & { job: number; kind: string };

export async function runJob(runner: JobRunner, { job, lease }: ClaimedJob): Promise<void> {
  const { handlers, store, log } = runner;
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
    await failJob(
      runner,
      lease,
      fields,
      `no handler for job kind "${job.kind}" in this agate (it handles: ${Object.keys(handlers).join(", ")}); ` +
        "it was enqueued by another build of agate or by mistake",
      { permanent: true },
    );
    return;
  }
  const beat = heartbeat(runner, lease, fields);
  runner.executions.set(job.id, beat.execution);

  let failure: { error: unknown } | null = null;
  try {
    // No handler reads the delivery's payload (each job's own payload names what it needs):
    // reading the stored body back, 23 KiB a pull_request, was a query and a parse per job.
    await handler(job, {
      signal: beat.execution.controller.signal,
      attempt: lease.attempt,
    });
  } catch (error) {
    failure = { error };
  } finally {
    beat.execution.stopHeartbeat();
    runner.executions.delete(job.id);
  }

  if (beat.lost()) {
    log.warn(
      fields,
      `job ${job.id} (${job.kind}) lost its lease while running attempt ${lease.attempt}: ` +
        "its result is dropped and the worker that took it over runs it. Nothing to do, " +
        "unless this repeats: then the handler blocks the event loop or leaseMs is too short",
    );
    return;
  }
  if (failure) {
    const retryAt = new Date(runner.now().getTime() + runner.backoff(lease.attempt));
    await failJob(runner, lease, fields, describe(failure.error), { retryAt });
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

/**
 * The lease extended every leaseMs/3 while the handler runs. Lost (the process stalled past its
 * lease and another worker took the job), the handler's signal is aborted.
 */
function heartbeat(
  { store, leaseMs, log }: JobRunner,
  lease: JobLease,
  fields: JobFields,
): { execution: Execution; lost: () => boolean } {
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
            `cannot extend the lease of job ${fields.job} (${message(error)}); trying again ` +
              "at the next heartbeat. If the lease expires first, another worker runs the job",
          );
        }
      } finally {
        beating = false;
      }
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  return { execution: { controller, stopHeartbeat: () => clearInterval(timer) }, lost: () => lost };
}

async function failJob(
  { store, log }: JobRunner,
  lease: JobLease,
  fields: JobFields,
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

export function message(error: unknown): string {
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
