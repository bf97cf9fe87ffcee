/**
 * Tests only: a worker process for the crash-at-every-write tests (crash-harness.ts). It runs the
 * App's real job handlers against the simulator named by its environment, on a clock and a
 * database the test names: each `{ type: "drain", now, database }` message freezes the clock at
 * `now` (opening `database` when it is a new one, with fresh caches and a fresh client), then the
 * worker claims and runs every due job (leased for AGATE_TEST_LEASE_MS; a run after a crash or a
 * failure is marked as a retry, as the App's workers mark it) and answers
 * `{ type: "drained", lines }` when none is left. A failed job is due again at once. The test
 * kills it with SIGKILL wherever it is: that is the point.
 */
import { Probot } from "probot";
import { agateJobs } from "../../app/compose.js";
import { type JobRegistry, type JobServices, jobContext } from "../../app/runtime/jobs.js";
import { probotServices, UnthrottledOctokit } from "../../app/runtime/server.js";
import { openStore } from "../../app/store/open-store.js";
import type { Store } from "../../app/store/store.js";

const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`crash-worker: ${name} is missing`);
  return value;
};

const leaseMs = Number(need("AGATE_TEST_LEASE_MS"));
let frozen = new Date(0);
const now = () => new Date(frozen.getTime());
let current: { database: string; store: Store; deps: JobServices; jobs: JobRegistry } | undefined;

async function use(database: string): Promise<NonNullable<typeof current>> {
  if (current?.database === database) return current;
  await current?.store.close();
  const store = await openStore({ url: database, now });
  const probot = new Probot({
    appId: Number(need("APP_ID")),
    privateKey: need("PRIVATE_KEY"),
    baseUrl: `${need("GHE_PROTOCOL")}://${need("GHE_HOST")}/api/v3`,
    logLevel: "fatal",
    // The App's client (its request retries included) without the pacing of writes.
    Octokit: UnthrottledOctokit,
  });
  current = { database, store, deps: probotServices(probot, store, now), jobs: agateJobs() };
  return current;
}

async function drain(database: string): Promise<string[]> {
  const { store, deps, jobs } = await use(database);
  const lines: string[] = [];
  for (;;) {
    const claimed = await store.claimJob({ workerId: `crash-worker:${process.pid}`, leaseMs });
    if (!claimed) return lines;
    const { job, lease } = claimed;
    try {
      const line = await jobs.run(
        job,
        jobContext(deps, { jobId: job.id, retried: lease.attempt > 1 }),
      );
      await store.completeJob(lease);
      lines.push(`${job.id}#${lease.attempt} ${line}`);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      await store.failJob(lease, message, { retryAt: now() });
      lines.push(`${job.id}#${lease.attempt} failed: ${message.split("\n")[0]}`);
    }
  }
}

process.on("message", (message: { type: string; now: string; database: string }) => {
  if (message.type !== "drain") return;
  frozen = new Date(message.now);
  drain(message.database).then(
    (lines) => process.send?.({ type: "drained", lines }),
    (error: unknown) =>
      process.send?.({
        type: "error",
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
process.send?.({ type: "ready" });
