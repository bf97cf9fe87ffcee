// The App's runtime end to end: real HTTP from the GitHub simulator (signed like GitHub), Probot
// 14's webhook middleware, the SQLite store on a file, workers; and the App as real processes,
// one killed with SIGKILL while it holds a job.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agateObserve, agateRoute } from "../../app/compose.js";
import { type Agate, startAgate } from "../../app/runtime/server.js";
import { openStore } from "../../app/store/open-store.js";
import type { Store } from "../../app/store/store.js";
import { type GitHubSimulator, startGitHubSimulator } from "../github/index.js";
import { eventually, recordingLog } from "../support/recording-log.js";
import { simulatorAppEnv } from "../support/simulator-env.js";
import { type AgateProcess, spawnAgate } from "../support/spawn-agate.js";
import { tempDir } from "../support/store.js";

const SECRET = "runtime-secret";

let sim: GitHubSimulator;
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  sim = await startGitHubSimulator({ webhookSecret: SECRET });
  ({ dir, cleanup } = tempDir());
});

afterAll(async () => {
  await sim.close();
  cleanup();
});

/** The exact request GitHub (the simulator) sends, for a delivery id and body of our choosing. */
async function deliver(url: string, event: string, id: string, body: string, secret = SECRET) {
  const response = await fetch(`${url}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/agate-test",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": await sign(secret, body),
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}

async function openAgentPullRequest(repo: string) {
  await sim.createRepository({ repo, files: { "README.md": "# r\n" } });
  await sim.pushCommit({ repo, branch: "agent/1", files: { "a.ts": "a\n" }, author: "codex[bot]" });
  return sim.openPullRequest({ repo, head: "agent/1", title: "Agent work", user: "codex[bot]" });
}

describe("the App's webhook path against the simulator", () => {
  let agate: Agate;
  const log = recordingLog();
  /** delivery id → how often a gate job of it ran, and what the installation API answered. */
  const runs = new Map<string, number>();
  const repositories: string[] = [];

  beforeAll(async () => {
    agate = await startAgate({
      // The simulator has no secondary rate limits to pace writes for.
      githubThrottle: false,
      env: simulatorAppEnv(sim, { AGATE_DATABASE_URL: `file:${join(dir, "webhooks.db")}` }),
      log,
      pollMs: 20,
      route: agateRoute,
      observe: agateObserve,
      handlers: ({ probot }) => ({
        "gate.pull_request": async (job) => {
          if (!job.delivery_id) throw new Error("a gate job without its delivery");
          runs.set(job.delivery_id, (runs.get(job.delivery_id) ?? 0) + 1);
          const { installation, repository } = job.payload as {
            installation: number;
            repository: string;
          };
          const [owner = "", repo = ""] = repository.split("/");
          // Handlers reach GitHub as the installation through the Probot instance.
          const octokit = await probot.auth(installation);
          const { data } = await octokit.rest.repos.get({ owner, repo });
          repositories.push(data.full_name);
        },
      }),
    });
    sim.setWebhookUrl(`${agate.url}/api/github/webhooks`);
  });

  afterAll(async () => {
    await agate.close();
  });

  // No sim.reset() between these tests: it forgets the installation tokens it issued while
  // Probot keeps its cached one (for 59 minutes), so the next GitHub call would get 401. Each
  // test uses its own repository instead.
  beforeEach(() => {
    sim.clearCalls();
    log.entries.length = 0;
    repositories.length = 0;
  });

  async function jobDone(deliveryId: string) {
    return eventually(`the job of delivery ${deliveryId} to be done`, async () => {
      const jobs = await agate.store.listJobs({ deliveryId });
      return jobs.length > 0 && jobs.every((job) => job.status === "done") ? jobs : null;
    });
  }

  it("is ready (/readyz) when its store answers and GitHub takes the App's credentials", async () => {
    const response = await fetch(`${agate.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: true,
      store: { ok: true, kind: "sqlite" },
      github: { ok: true, app: sim.appSlug },
    });
    expect(sim.calls["apps/get-authenticated"]).toBe(1);
    // Probes come every few seconds; GitHub is asked again only after a while.
    await fetch(`${agate.url}/readyz`);
    expect(sim.calls["apps/get-authenticated"]).toBe(1);
  });

  it("has the delivery and its job in the store by the time the sender sees the 2XX", async () => {
    await openAgentPullRequest("stored");
    // openPullRequest returns once its webhook was answered: nothing was awaited after the 200.
    const delivery = sim.deliveries.at(-1);
    expect(delivery).toMatchObject({ event: "pull_request", action: "opened", status: 200 });
    const id = delivery?.id ?? "";
    const stored = await agate.store.getDelivery(id);
    expect(stored).toMatchObject({ id, event: "pull_request", action: "opened" });
    expect(JSON.parse(stored?.payload ?? "null")).toEqual(delivery?.payload);
    const jobs = await agate.store.listJobs({ deliveryId: id });
    expect(
      jobs.map(({ kind, payload, concurrency_key }) => ({ kind, payload, concurrency_key })),
    ).toEqual([
      {
        kind: "gate.pull_request",
        payload: expect.objectContaining({
          number: 1,
          trigger: { event: "pull_request", action: "opened", delivery_id: id },
        }),
        concurrency_key: `${sim.owner}/stored#1`,
      },
    ]);

    await jobDone(id);
    expect(runs.get(id)).toBe(1);
    expect(repositories).toEqual([`${sim.owner}/stored`]);
    expect(sim.calls).toMatchObject({ "apps/create-installation-access-token": 1, "repos/get": 1 });
  });

  it("refuses a forged signature with 400 and stores nothing", async () => {
    await sim.createRepository({ repo: "forged" });
    await sim.pushCommit({ repo: "forged", branch: "b", files: { "x.ts": "x\n" } });
    sim.setWebhookSecret("not-the-secret");
    await sim.openPullRequest({ repo: "forged", head: "b", title: "t", user: "mallory" });
    sim.setWebhookSecret(SECRET);
    const delivery = sim.deliveries.at(-1);
    expect(delivery?.status).toBe(400);
    expect(await agate.store.getDelivery(delivery?.id ?? "")).toBeNull();
    expect(await agate.store.listJobs({ deliveryId: delivery?.id ?? "" })).toEqual([]);
  });

  it("acknowledges a delivery sent again and processes it once", async () => {
    await openAgentPullRequest("twice");
    const first = sim.deliveries.at(-1);
    if (!first) throw new Error("no delivery");
    const body = JSON.stringify(first.payload);
    expect(await deliver(agate.url, first.event, first.id, body)).toEqual({
      status: 200,
      text: "ok\n",
    });
    expect((await deliver(agate.url, first.event, first.id, body)).status).toBe(200);
    const jobs = await jobDone(first.id);
    expect(jobs).toHaveLength(1);
    expect(runs.get(first.id)).toBe(1);
    const duplicates = log.entries.filter(
      (entry) => entry.level === "info" && entry.fields.delivery === first.id,
    );
    expect(duplicates.map((entry) => entry.message)).toEqual([
      "delivery seen before with the same body: acknowledged, not processed again",
      "delivery seen before with the same body: acknowledged, not processed again",
    ]);
  });

  it("refuses the same delivery id with another body with 409, logs it, and keeps the first", async () => {
    await openAgentPullRequest("conflict");
    const first = sim.deliveries.at(-1);
    if (!first) throw new Error("no delivery");
    const forged = JSON.stringify({ ...first.payload, action: "closed" });
    const answer = await deliver(agate.url, "pull_request", first.id, forged);
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.text)).toEqual({
      error: expect.stringMatching(
        new RegExp(
          `^DeliveryConflictError: delivery ${first.id} was received before with a different body`,
        ),
      ),
    });
    const stored = await agate.store.getDelivery(first.id);
    expect(stored?.action).toBe("opened");
    expect(stored?.payload).toBe(JSON.stringify(first.payload));
    expect(await agate.store.listJobs({ deliveryId: first.id })).toHaveLength(1);
    const logged = log.entries.find(
      (entry) => entry.level === "error" && entry.fields.delivery === first.id,
    );
    expect(logged?.message).toContain("refused (409)");
  });

  it("records events that enqueue nothing, and answers them 2XX", async () => {
    const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    expect((await deliver(agate.url, "ping", "ping-1", body)).status).toBe(200);
    expect(await agate.store.getDelivery("ping-1")).toMatchObject({ event: "ping", action: null });
    expect(await agate.store.listJobs({ deliveryId: "ping-1" })).toEqual([]);
  });
});

describe("the App process killed while it holds a job", () => {
  const children: AgateProcess[] = [];
  const stores: Store[] = [];

  afterAll(async () => {
    for (const child of children) child.child.kill("SIGKILL");
    for (const store of stores) await store.close();
  });

  it("runs the job again after the lease, in a new process, and completes it exactly once", async () => {
    sim.reset();
    const database = join(dir, "killed.db");
    const trace = join(dir, "trace.log");
    const env = (handlerMs: number) =>
      simulatorAppEnv(sim, {
        LOG_LEVEL: "warn",
        LOG_FORMAT: "json",
        AGATE_DATABASE_URL: `file:${database}`,
        AGATE_WORKERS: "1",
        AGATE_LEASE_MS: "1000",
        AGATE_TEST_TRACE: trace,
        AGATE_TEST_HANDLER_MS: String(handlerMs),
      });
    const lines = () => {
      try {
        return readFileSync(trace, "utf8").trim().split("\n").filter(Boolean);
      } catch {
        return [];
      }
    };

    const first = await spawnAgate({ env: env(600_000), cwd: dir });
    children.push(first);
    sim.setWebhookUrl(`${first.url}/api/github/webhooks`);
    await openAgentPullRequest("killed");
    const delivery = sim.deliveries.at(-1);
    expect(delivery?.status).toBe(200);
    const store = await openStore({ url: `file:${database}` });
    stores.push(store);
    const [job] = await store.listJobs({ deliveryId: delivery?.id ?? "" });
    if (!job) throw new Error("no job for the delivery");
    await eventually("the first process to start the job", () => lines().length === 1);

    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    expect(await store.getJob(job.id)).toMatchObject({ status: "running", attempts: 1 });

    const second = await spawnAgate({ env: env(100), cwd: dir });
    children.push(second);
    await eventually("the second process to finish the job", () => lines().length === 3, 15_000);
    expect(lines()).toEqual([`start ${job.id} 1`, `start ${job.id} 2`, `done ${job.id} 2`]);
    // "done" is written by the handler, just before the worker marks the job done.
    const done = await eventually("the job to be marked done", async () => {
      const current = await store.getJob(job.id);
      return current?.status === "done" ? current : null;
    });
    expect(done.attempts).toBe(2);

    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(lines()).toHaveLength(3);
  });
});
