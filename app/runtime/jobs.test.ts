import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { jobSpec } from "../../schemas/jobs/index.js";
import { eventually, recordingLog } from "../../test/support/recording-log.js";
import { tempDir } from "../../test/support/store.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { ImmutableReads } from "../github/reads.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import {
  type JobContext,
  type JobServices,
  jobContext,
  jobRegistry,
  queueJob,
  registration,
  workerHandlers,
} from "./jobs.js";

let store: Store;
let cleanup: () => void;
/** How far the store's clock is ahead of the real one: a run due in seconds is due at once. */
let ahead = 0;

beforeEach(async () => {
  const dir = tempDir();
  cleanup = dir.cleanup;
  ahead = 0;
  store = await openStore({
    url: `file:${join(dir.dir, "agate.db")}`,
    now: () => new Date(Date.now() + ahead),
  });
});
afterEach(async () => {
  await store.close();
  cleanup();
});

const noGitHub = async (): Promise<never> => {
  throw new Error("this test reaches no GitHub");
};
const services = (): JobServices => ({
  store,
  now: () => new Date(),
  octokitFor: noGitHub,
  appOctokit: noGitHub,
  appSlug: async () => "agate",
  reads: new ImmutableReads(),
});

const WORK = jobSpec(
  "test.work",
  z.strictObject({ repository: z.string(), times: z.number().default(1) }),
  (p) => `${p.repository}:work`,
  (p) => ({ dedupeKey: `work:${p.repository}` }),
);
const TICK = jobSpec("test.tick", z.null(), () => null);

describe("the job registry", () => {
  it("hands a job its payload as its kind's schema reads it, and runs nothing it refuses", async () => {
    const seen: unknown[] = [];
    const jobs = jobRegistry([
      registration(WORK, async (payload) => {
        seen.push(payload);
        return `worked ${payload.times}×`;
      }),
    ]);
    const context = jobContext(services());
    expect(await jobs.run({ kind: WORK.kind, payload: { repository: "o/r" } }, context)).toBe(
      "worked 1×",
    );
    expect(seen).toEqual([{ repository: "o/r", times: 1 }]);
    await expect(
      jobs.run({ kind: WORK.kind, payload: { repository: "o/r", extra: true } }, context),
    ).rejects.toThrow(/extra/);
    expect(seen).toHaveLength(1);
  });

  it("refuses a kind registered twice, a periodic kind with a payload, and a job of no registered kind", async () => {
    const run = async () => "";
    expect(() => jobRegistry([registration(WORK, run), registration(WORK, run)])).toThrow(
      "job kind test.work is registered twice",
    );
    expect(() => jobRegistry([registration(WORK, run, { everyMs: 1_000 })])).toThrow(
      "job kind test.work is periodic, so its payload must be null",
    );
    await expect(
      jobRegistry([]).run({ kind: "test.nobody", payload: null }, jobContext(services())),
    ).rejects.toThrow("no job registered for kind test.nobody");
  });

  it("says in a job's log line the GitHub calls it made, over every adapter it asked for", async () => {
    const adapter = (calls: [string, number][]) =>
      ({ calls: new Map(calls) }) as unknown as GitHubAdapter;
    const adapters = [
      adapter([["pulls/get", 1]]),
      adapter([
        ["pulls/get", 2],
        ["checks/create", 1],
      ]),
    ];
    const context: JobContext = {
      ...jobContext(services()),
      github: async () => adapters.shift() ?? adapter([]),
    };
    const jobs = jobRegistry([
      registration(WORK, async (payload, { github }) => {
        for (let i = 0; i < payload.times; i++) await github("o/r", 1);
        return "done";
      }),
    ]);
    expect(
      await jobs.run({ kind: WORK.kind, payload: { repository: "o/r", times: 2 } }, context),
    ).toBe("done (4 GitHub calls: pulls/get×3, checks/create)");
    // A job that asked for no adapter made no call: its line is its own.
    expect(
      await jobs.run({ kind: WORK.kind, payload: { repository: "o/r", times: 0 } }, context),
    ).toBe("done");
  });

  it("queues a job by its spec: its kind, its concurrency key, and its dedupe key unless told another", async () => {
    const first = await queueJob(store, WORK, { repository: "o/r" });
    expect(first).toMatchObject({ kind: WORK.kind, concurrency_key: "o/r:work" });
    expect((await queueJob(store, WORK, { repository: "o/r", times: 2 })).id).toBe(first.id);
    const other = await queueJob(
      store,
      WORK,
      { repository: "o/r", times: 3 },
      { dedupe: { dedupeKey: "another" } },
    );
    expect(other.id).not.toBe(first.id);
  });
});

describe("periodic kinds", () => {
  it("keep one run queued for the fleet: the first soon after start, the next before each run, even one that fails", async () => {
    const log = recordingLog();
    let runs = 0;
    const jobs = jobRegistry([
      registration(
        TICK,
        async () => {
          runs++;
          throw new Error("the tick failed");
        },
        { everyMs: 60_000 },
      ),
    ]);
    // Two replicas start: one run is queued, within five seconds.
    const started = Date.now();
    const handlers = workerHandlers(jobs, services(), log);
    workerHandlers(jobs, services(), log);
    const queued = () => store.listJobs({ kind: TICK.kind, status: "queued" });
    await eventually("the first run to be queued", async () => (await queued()).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [first, ...more] = await queued();
    expect(more).toEqual([]);
    expect(Date.parse(first?.run_at ?? "") - started).toBeLessThanOrEqual(5_000 + 50);

    // A worker takes it when due; its run queues the next an interval later, then fails.
    ahead = 6_000;
    const claimed = await store.claimJob({ workerId: "w", leaseMs: 60_000, kinds: [TICK.kind] });
    if (!claimed) throw new Error("the first run was not due within five seconds");
    expect(claimed.job.id).toBe(first?.id);
    const handler = handlers[TICK.kind];
    if (!handler) throw new Error("no handler for the periodic kind");
    await expect(
      handler(claimed.job, { attempt: 1, signal: new AbortController().signal }),
    ).rejects.toThrow("the tick failed");
    expect(runs).toBe(1);
    const [next, ...others] = await queued();
    expect(others).toEqual([]);
    expect(next?.id).not.toBe(first?.id);
    expect(Date.parse(next?.run_at ?? "") - Date.now()).toBeGreaterThan(59_000);
  });
});
