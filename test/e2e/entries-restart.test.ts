/**
 * Entry timers survive a real restart of the App: a claim's timer fires after the process that
 * queued it was killed, in the next one, once, and never takes the claim of an owner who
 * answered in time while the App was down. The real clock, a 3 s claim_timeout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../../app/store/sqlite-store.js";
import { type GitHubSimulator, startGitHubSimulator } from "../github/index.js";
import { ENTRY_FORM } from "../support/entries-harness.js";
import { type AppProcess, startAppProcess } from "../support/entries-process.js";
import { simulatorAppEnv } from "../support/simulator-env.js";

const SECRET = "entries-restart-secret";
const CONFIG =
  'version: 1\ncommands:\n  - name: test\n    run: "true"\nescalation:\n  claim_timeout: 3s\n  unanswered_timeout: 1h\n';

let sim: GitHubSimulator;
let temp: string;
const running: AppProcess[] = [];

beforeAll(async () => {
  sim = await startGitHubSimulator({ webhookSecret: SECRET });
});
afterAll(async () => {
  for (const app of running) await app.crash();
  await sim?.close();
});
beforeEach(() => {
  sim.reset();
  temp = mkdtempSync(join(tmpdir(), "agate-entries-restart-"));
  return () => rmSync(temp, { recursive: true, force: true });
});

async function start(): Promise<AppProcess> {
  const app = await startAppProcess({
    cwd: temp,
    env: simulatorAppEnv(sim, {
      WEBHOOK_SECRET: SECRET,
      LOG_LEVEL: process.env.ENTRIES_DEBUG ? "info" : "silent",
      AGATE_DATABASE_URL: `file:${join(temp, "agate.db")}`,
      // A crash can land inside any pass (agate's own label events queue some after the reply);
      // a short lease hands such a job to the next process within seconds, not a minute.
      AGATE_LEASE_MS: "2000",
    }),
  });
  running.push(app);
  sim.setWebhookUrl(`${app.url}/api/github/webhooks`);
  return app;
}

async function until<T>(what: string, read: () => T | undefined, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    await sim.flushWebhooks();
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      if (process.env.ENTRIES_DEBUG) {
        console.log(running.map((a) => a.output()).join("\n---\n"));
        console.log(sim.deliveries.map((d) => [d.event, d.action, d.status, d.error]));
      }
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const labelsOf = (n: number) => sim.labelsOf({ repo: "r", number: n });
/** agate replied to the claim: the claim's pass is done (it projects labels, then replies). */
const claimAnswered = (n: number) =>
  sim.world
    .issue(sim.repository({ repo: "r" }), n)
    .comments.some((c) => c.app !== undefined && c.body.startsWith("Claimed by"))
    ? true
    : undefined;
/** The labels are exactly these: the pass that set them has finished (it removes last). */
const labelled = (n: number, ...labels: string[]) =>
  [...labelsOf(n)].sort().join() === [...labels].sort().join() ? true : undefined;

async function events(n: number) {
  const store = SqliteStore.open(join(temp, "agate.db"));
  try {
    return await store.listEntryEvents({ repository: `${sim.owner}/r`, issueNumber: n });
  } finally {
    await store.close();
  }
}

/** An App, and an entry agent-b has claimed, the claim's pass finished (labels and reply). */
async function claimedEntry(): Promise<{ first: AppProcess; n: number }> {
  await sim.createRepository({ repo: "r", files: { ".github/agate.yml": CONFIG } });
  const first = await start();
  const n = await sim.createIssue({
    repo: "r",
    title: "Handoff",
    body: ENTRY_FORM({}),
    user: "agent-a",
  });
  await until("the entry to open", () => labelled(n, "agate:open", "agate:background"));
  await sim.addIssueComment({ repo: "r", number: n, body: "/claim", user: "agent-b" });
  // Until the claim's pass is done: a job killed mid-way holds its entry's later jobs until its
  // lease expires (AGATE_LEASE_MS), which is not what these tests are about.
  await until("the claim", () => labelled(n, "agate:claimed", "agate:background"));
  await until("agate's reply to the claim", () => claimAnswered(n));
  return { first, n };
}

describe("entry timers across a restart of the App", () => {
  it("a claim made before a crash expires in the next process, once", async () => {
    const { first, n } = await claimedEntry();
    const claimedAt = Date.now();
    await first.crash();
    // The deadline passes while no App runs: nothing can happen.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(labelled(n, "agate:claimed", "agate:background")).toBe(true);

    const second = await start();
    await until("the claim to expire", () => labelled(n, "agate:open", "agate:background"));
    expect(Date.now() - claimedAt).toBeLessThan(60_000);
    // Give the new process time to do anything twice, then count.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await sim.flushWebhooks();
    const kinds = (await events(n)).map((e) => e.kind);

    expect(kinds).toEqual(["opened", "claimed", "claim_expired"]);
    const expiries = sim.world
      .issue(sim.repository({ repo: "r" }), n)
      .comments.filter((c) => c.body.includes("expired after 3 s"));
    expect(expiries).toHaveLength(1);
    await second.crash();
  }, 60_000);

  it("an answer made in time while the App was down is not overtaken by the claim's timer after the restart", async () => {
    const { first, n } = await claimedEntry();
    await first.crash();
    // The owner answers in time; its webhook finds no App (GitHub records a failed delivery).
    await sim.addIssueComment({ repo: "r", number: n, body: "/answer 5433", user: "agent-b" });
    expect(sim.deliveries.at(-1)?.status).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 3_500));

    const second = await start();
    await until("the answer", () => labelled(n, "agate:resolved", "agate:background"));
    expect((await events(n)).map((e) => e.kind)).toEqual(["opened", "claimed", "answered"]);
    await second.crash();
  }, 60_000);
});
