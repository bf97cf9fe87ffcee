import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Job } from "../../schemas/store.js";
import { eventually, recordingLog } from "../../test/support/recording-log.js";
import { frozenClock, type TestClock, tempDir } from "../../test/support/store.js";
import { LeaseLostError } from "../store/errors.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import { type JobAttempt, type JobHandler, startWorkers, type Workers } from "./worker.js";

let store: Store;
let clock: TestClock;
let cleanup: () => void;
let workers: Workers | undefined;
let log: ReturnType<typeof recordingLog>;

beforeEach(async () => {
  const dir = tempDir();
  cleanup = dir.cleanup;
  clock = frozenClock();
  store = await openStore({ url: `file:${join(dir.dir, "agate.db")}`, now: clock.now });
  log = recordingLog();
});

afterEach(async () => {
  await workers?.stop();
  workers = undefined;
  await store.close();
  cleanup();
});

function start(handlers: Record<string, JobHandler>, options: { leaseMs?: number } = {}) {
  workers = startWorkers({
    store,
    handlers,
    workerId: "test",
    concurrency: 1,
    leaseMs: options.leaseMs ?? 60_000,
    pollMs: 10,
    backoff: (attempt) => attempt * 1_000,
    now: clock.now,
    log,
  });
  return workers;
}

async function jobWhen(id: number, status: Job["status"]): Promise<Job> {
  return eventually(`job ${id} to be ${status}`, async () => {
    const job = await store.getJob(id);
    return job?.status === status ? job : null;
  });
}

describe("workers", () => {
  it("run a delivery's job and complete it", async () => {
    const payload = JSON.stringify({ action: "opened", number: 3 });
    const { jobIds } = await store.recordDelivery({
      delivery: {
        id: "d-1",
        event: "pull_request",
        action: "opened",
        payload_sha256: createHash("sha256").update(payload).digest("hex"),
        received_at: clock.now().toISOString(),
      },
      payload,
      jobs: [{ kind: "gate.delivery", payload: { delivery_id: "d-1" } }],
    });
    const seen: JobAttempt[] = [];
    start({
      "gate.delivery": async (_job, context) => {
        seen.push(context);
      },
    });
    const done = await jobWhen(jobIds[0] ?? 0, "done");
    expect(done.attempts).toBe(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.signal.aborted).toBe(false);
  });

  it("wake up when poked instead of waiting for the next poll", async () => {
    const ran: number[] = [];
    workers = startWorkers({
      store,
      handlers: { work: async (job) => void ran.push(job.id) },
      workerId: "test",
      pollMs: 600_000,
      now: clock.now,
      log,
    });
    // Let both idle workers go to sleep on the long poll first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const job = await store.enqueue({ kind: "work", payload: {} });
    workers.poke();
    await jobWhen(job.id, "done");
    expect(ran).toEqual([job.id]);
  });

  it("retry a handler that throws after the backoff, and log the job, kind, attempt and next run", async () => {
    const job = await store.enqueue({ kind: "flaky", payload: {} });
    let calls = 0;
    const attempts: number[] = [];
    start({
      flaky: async (_job, context) => {
        attempts.push(context.attempt);
        calls++;
        if (calls === 1) throw new Error("GitHub answered 502");
      },
    });
    const queued = await eventually("the failure to be recorded", async () => {
      const current = await store.getJob(job.id);
      return current?.status === "queued" && current.attempts === 1 ? current : null;
    });
    const t0 = clock.now().getTime();
    expect(queued.run_at).toBe(new Date(t0 + 1_000).toISOString());
    expect(queued.last_error).toContain("GitHub answered 502");
    const warning = log.entries.find((entry) => entry.level === "warn");
    expect(warning?.fields).toMatchObject({ job: job.id, kind: "flaky", attempt: 1 });
    expect(warning?.message).toContain(`retrying at ${queued.run_at}`);

    // Not due yet on the frozen clock: idle polls must not take it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(1);
    clock.advance(1_000);
    const done = await jobWhen(job.id, "done");
    expect(done.attempts).toBe(2);
    expect(calls).toBe(2);
    // The handler is told which run it is: a retry may find an earlier run's work half stored.
    expect(attempts).toEqual([1, 2]);
  });

  it("give a job up as dead after its last attempt, with the error kept", async () => {
    const job = await store.enqueue({ kind: "broken", payload: {}, max_attempts: 2 });
    start({
      broken: async () => {
        throw new Error("config is malformed");
      },
    });
    await eventually("the first failure", async () => (await store.getJob(job.id))?.attempts === 1);
    clock.advance(1_000);
    const dead = await jobWhen(job.id, "dead");
    expect(dead.attempts).toBe(2);
    expect(dead.last_error).toContain("config is malformed");
    const error = log.entries.find((entry) => entry.level === "error");
    expect(error?.fields).toMatchObject({ job: job.id, kind: "broken", attempt: 2 });
    expect(error?.message).toContain("is dead, not retried");
  });

  it("send a job of a kind without a handler to dead at once", async () => {
    const job = await store.enqueue({ kind: "no.such.kind", payload: {} });
    start({ known: async () => {} });
    const dead = await jobWhen(job.id, "dead");
    expect(dead.attempts).toBe(1);
    expect(dead.last_error).toContain('no handler for job kind "no.such.kind"');
    expect(log.entries.find((entry) => entry.level === "error")?.fields).toMatchObject({
      job: job.id,
      kind: "no.such.kind",
    });
  });

  it("claim nothing when the process has no handlers", async () => {
    const job = await store.enqueue({ kind: "gate.delivery", payload: {} });
    start({});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await store.getJob(job.id))?.status).toBe("queued");
    expect(log.entries.map((entry) => entry.message)).toContain(
      "no job handlers: this process records deliveries only",
    );
  });

  it("abort the handler's signal when the lease is lost mid-run, and write nothing for it", async () => {
    const job = await store.enqueue({ kind: "slow", payload: {} });
    let started = false;
    let reason: unknown;
    start(
      {
        slow: async (_job, { signal }) => {
          started = true;
          await new Promise((resolve) => signal.addEventListener("abort", resolve));
          reason = signal.reason;
        },
      },
      { leaseMs: 300 },
    );
    await eventually("the handler to start", () => started);
    // The process stalled past its lease and another worker took the job. Both happen in one
    // synchronous step, so no heartbeat can extend the lease in between.
    clock.advance(1_000);
    const thief = await store.claimJob({ workerId: "other", leaseMs: 60_000 });
    expect(thief?.job.id).toBe(job.id);
    await eventually("the signal to be aborted", () => reason !== undefined);
    expect(reason).toBeInstanceOf(LeaseLostError);
    await eventually("the worker to let go", () => workers?.running.length === 0);
    const current = await store.getJob(job.id);
    expect(current).toMatchObject({ status: "running", lease_owner: "other", attempts: 2 });
    expect(log.entries.find((entry) => entry.level === "warn")?.message).toContain(
      "lost its lease while running attempt 1",
    );
  });

  it("keep the lease of a job that runs longer than the lease with heartbeats", async () => {
    const real = await openStore({ url: ":memory:" });
    try {
      const job = await real.enqueue({ kind: "long", payload: {} });
      let stolen: unknown = "not tried";
      workers = startWorkers({
        store: real,
        handlers: {
          long: async () => {
            await new Promise((resolve) => setTimeout(resolve, 900));
            stolen = await real.claimJob({ workerId: "other", leaseMs: 1_000 });
            await new Promise((resolve) => setTimeout(resolve, 100));
          },
        },
        workerId: "test",
        concurrency: 1,
        leaseMs: 300,
        pollMs: 10,
        log,
      });
      const done = await eventually("the long job to be done", async () => {
        const current = await real.getJob(job.id);
        return current?.status === "done" ? current : null;
      });
      expect(stolen).toBeNull();
      expect(done.attempts).toBe(1);
    } finally {
      await workers?.stop();
      workers = undefined;
      await real.close();
    }
  });

  it("stop claiming on stop() and wait for the running handler", async () => {
    const first = await store.enqueue({ kind: "step", payload: {} });
    let release: () => void = () => {};
    let startedFirst = false;
    const running = start({
      step: async () => {
        startedFirst = true;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    await eventually("the first job to start", () => startedFirst);
    const second = await store.enqueue({ kind: "step", payload: {} });
    const stopped = running.stop();
    release();
    await stopped;
    expect((await store.getJob(first.id))?.status).toBe("done");
    expect((await store.getJob(second.id))?.status).toBe("queued");
  });

  it("abandon a handler that outlives the stop timeout to its lease, aborting its signal", async () => {
    const job = await store.enqueue({ kind: "stuck", payload: {} });
    let signal: AbortSignal | undefined;
    workers = startWorkers({
      store,
      handlers: {
        stuck: async (_job, context) => {
          signal = context.signal;
          await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
        },
      },
      workerId: "test",
      concurrency: 1,
      pollMs: 10,
      now: clock.now,
      log,
      stopTimeoutMs: 100,
    });
    await eventually("the handler to start", () => signal);
    await workers.stop();
    workers = undefined;
    expect(signal?.aborted).toBe(true);
    expect(log.entries.find((entry) => entry.level === "warn")?.message).toContain(
      `stopped while jobs ${job.id} were still running`,
    );
  });
});
