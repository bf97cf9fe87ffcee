/**
 * Three App replicas on one PostgreSQL database and one simulator, as an organisation runs them
 * behind a load balancer: deliveries go round-robin, some to two replicas at once (GitHub's
 * redelivery racing the first, or a balancer's retry), and one replica is killed with SIGKILL
 * while it holds a job. Nothing is lost and nothing is done twice: every delivery is recorded
 * once with its jobs, every job ends done, only the killed replica's jobs ran a second time
 * (taken over after their lease), one `agate` check run per head, one reply per entry command,
 * and each entry's claim timer fires once for the whole fleet.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitHubSimulator, startGitHubSimulator } from "../github/index.js";
import { ENTRY_FORM } from "../support/entries-harness.js";
import { type AppProcess, startAppProcess } from "../support/entries-process.js";
import { freshPostgresDatabase } from "../support/store.js";

const SECRET = "replicas-secret";
const REPLICAS = 3;
const LEASE_MS = 2_000;
const PULLS = 6;
const ENTRIES = 3;
const CONFIG =
  'version: 1\ncommands:\n  - name: test\n    run: "true"\nescalation:\n  claim_timeout: 3s\n  unanswered_timeout: 1h\n';
/** Every third delivery goes to two replicas at once. */
const DOUBLED_EVERY = 3;

let sim: GitHubSimulator;
let temp: string;
let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let db: pg.Pool;
let balancer: Server;
const replicas: AppProcess[] = [];
const dead = new Set<AppProcess>();
let sent = 0;
let forwarded = 0;
const issuesSeen: number[] = [];

/** Forwards a delivery as GitHub sent it; the replica's status, or its socket error's name. */
async function forward(app: AppProcess, req: IncomingMessage, body: Buffer): Promise<number> {
  const headers: Record<string, string> = {};
  for (const name of [
    "content-type",
    "x-github-event",
    "x-github-delivery",
    "x-hub-signature-256",
  ]) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  forwarded++;
  const response = await fetch(`${app.url}${req.url ?? "/"}`, { method: "POST", headers, body });
  await response.arrayBuffer();
  return response.status;
}

/**
 * The load balancer: round-robin over the live replicas, every DOUBLED_EVERY-th delivery to two
 * at once; a replica that does not answer (killed) is skipped for the next, as a balancer's
 * health check would.
 */
function startBalancer(): Promise<string> {
  balancer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const n = sent++;
      const live = replicas.filter((r) => !dead.has(r));
      const targets =
        n % DOUBLED_EVERY === 0
          ? [live[n % live.length], live[(n + 1) % live.length]]
          : [live[n % live.length]];
      const tryFrom = async (first: number): Promise<number> => {
        for (let i = 0; i < live.length; i++) {
          const app = live[(first + i) % live.length];
          if (!app || dead.has(app)) continue;
          try {
            return await forward(app, req, body);
          } catch {
            // Killed mid-request: the next replica gets it, as a balancer retries.
          }
        }
        return 502;
      };
      void Promise.all(
        targets.map((target) => tryFrom(Math.max(0, live.indexOf(target as AppProcess)))),
      ).then((statuses) => {
        res.statusCode = statuses.find((s) => s < 300) ?? statuses[0] ?? 502;
        res.end();
      });
    });
  });
  return new Promise((resolve) => {
    balancer.listen(0, "127.0.0.1", () => {
      resolve(`http://127.0.0.1:${(balancer.address() as AddressInfo).port}`);
    });
  });
}

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), "agate-replicas-"));
  [sim, database] = await Promise.all([
    startGitHubSimulator({ webhookSecret: SECRET }),
    freshPostgresDatabase(),
  ]);
  db = new pg.Pool({ connectionString: database.url, max: 2 });
  const started = await Promise.all(
    Array.from({ length: REPLICAS }, () =>
      startAppProcess({
        cwd: temp,
        env: {
          ...sim.probotEnv(),
          WEBHOOK_SECRET: SECRET,
          PORT: "0",
          HOST: "127.0.0.1",
          LOG_LEVEL: process.env.REPLICAS_DEBUG ? "info" : "silent",
          AGATE_DATABASE_URL: database.url,
          AGATE_DATABASE_POOL: "4",
          // A killed replica's job is taken over within seconds, not a minute.
          AGATE_LEASE_MS: String(LEASE_MS),
        },
      }),
    ),
  );
  replicas.push(...started);
  sim.setWebhookUrl(`${await startBalancer()}/api/github/webhooks`);
  phase("replicas started");
}, 90_000);

afterAll(async () => {
  for (const app of replicas) if (!dead.has(app)) await app.crash();
  await new Promise<void>((resolve) => balancer?.close(() => resolve()));
  await db?.end();
  await database?.drop();
  await sim?.close();
  rmSync(temp, { recursive: true, force: true });
});

const pidOf = (app: AppProcess) => app.child.pid as number;
const t0 = Date.now();
const phase = (name: string) => {
  if (process.env.REPLICAS_TIMING)
    console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${name}`);
};

/** The jobs due now that are not done: queued and due, or running. */
async function pendingJobs(): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs
     WHERE status = 'running' OR (status = 'queued' AND run_at <= now())`,
  );
  return rows[0]?.n ?? 0;
}

async function until<T>(
  what: string,
  read: () => Promise<T | undefined> | T | undefined,
  options: { flush: boolean } = { flush: true },
) {
  // Generous: the whole suite shares two cores with this file's five processes.
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Flushing waits for every delivery in flight, also those of work still being sent.
    if (options.flush) await sim.flushWebhooks();
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      if (process.env.REPLICAS_DEBUG) {
        console.log(replicas.map((a) => a.output()).join("\n---\n"));
        console.log(
          (await db.query("SELECT id, kind, status, attempts, lease_owner FROM jobs")).rows,
        );
        console.log(sim.deliveries.map((d) => [d.event, d.action, d.status, d.error]));
        for (const n of issuesSeen) {
          console.log(n, sim.world.issue(sim.repository({ repo: "r" }), n).comments);
        }
      }
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** No delivery in flight and no job due, twice in a row 300 ms apart. */
async function settled(): Promise<void> {
  let quiet = 0;
  await until("the replicas to settle", async () => {
    quiet = (await pendingJobs()) === 0 ? quiet + 1 : 0;
    if (quiet >= 2) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return undefined;
  });
}

/**
 * Holds every gate pass at its first ledger write (a test transaction locks agate_check_runs)
 * until one is stuck there, kills the replica running it, and lets the rest go on: a kill in
 * the middle of a job, every time. Returns the jobs the killed replica held.
 */
async function killOneMidJob(work: Promise<void>): Promise<{ victim: AppProcess; held: number[] }> {
  const lock = await db.connect();
  try {
    await lock.query("BEGIN");
    await lock.query("LOCK TABLE agate_check_runs IN EXCLUSIVE MODE");
    void work.catch(() => undefined);
    const victim = await until(
      "a replica stuck in a gate pass",
      async () => {
        const { rows: waiting } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks
         WHERE relation = 'agate_check_runs'::regclass AND NOT granted`,
        );
        if ((waiting[0]?.n ?? 0) === 0) return undefined;
        const { rows } = await db.query<{ lease_owner: string }>(
          "SELECT lease_owner FROM jobs WHERE status = 'running' AND kind = 'gate.pull_request'",
        );
        for (const { lease_owner } of rows) {
          const app = replicas.find((r) => lease_owner.includes(`:${pidOf(r)}:`));
          if (app) return app;
        }
        return undefined;
      },
      { flush: false },
    );
    dead.add(victim);
    await victim.crash();
    // It is gone: the jobs it leases now are exactly those it held when it died.
    const { rows } = await db.query<{ id: string }>(
      "SELECT id FROM jobs WHERE status = 'running' AND lease_owner LIKE $1 ORDER BY id",
      [`%:${pidOf(victim)}:%`],
    );
    return { victim, held: rows.map((r) => Number(r.id)) };
  } finally {
    await lock.query("ROLLBACK");
    lock.release();
  }
}

describe("three replicas on one PostgreSQL database", () => {
  it("lose nothing and do nothing twice, also when one is killed mid-job", async () => {
    await sim.createRepository({ repo: "r", files: { ".github/agate.yml": CONFIG } });
    const heads: string[] = [];
    const pulls: number[] = [];
    const issues: number[] = [];
    const work = (async () => {
      for (let i = 0; i < Math.max(PULLS, ENTRIES); i++) {
        if (i < PULLS) {
          const branch = `agent/change-${i}`;
          heads.push(
            await sim.pushCommit({ repo: "r", branch, files: { [`f${i}.txt`]: `${i}\n` } }),
          );
          const { number } = await sim.openPullRequest({
            repo: "r",
            head: branch,
            title: `Change ${i}`,
            user: "codex[bot]",
          });
          pulls.push(number);
        }
        if (i < ENTRIES) {
          issues.push(
            await sim.createIssue({
              repo: "r",
              title: `Handoff ${i}`,
              body: ENTRY_FORM({}),
              user: "agent-a",
            }),
          );
        }
      }
    })();
    phase("test starts");
    const { victim, held } = await killOneMidJob(work);
    phase("killed");
    issuesSeen.push(...issues);
    expect(held.length).toBeGreaterThan(0);
    await work;
    phase("work sent");
    await settled();
    phase("settled");
    for (const n of issues) {
      await sim.addIssueComment({ repo: "r", number: n, body: "/claim", user: "agent-b" });
    }
    await settled();
    // Each claim's 3 s timer: fired by one replica, once.
    const expiries = (n: number) =>
      sim.world
        .issue(sim.repository({ repo: "r" }), n)
        .comments.filter((c) => c.app !== undefined && /expired after 3 ?s/.test(c.body));
    await until("every claim to expire", () =>
      issues.every((n) => expiries(n).length > 0) ? true : undefined,
    );
    phase("claims expired");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await settled();
    phase("settled again");

    // Every delivery the simulator sent is recorded once (doubles and retries are duplicates).
    const sentIds = new Set(sim.deliveries.map((d) => d.id));
    const { rows: recorded } = await db.query<{ id: string }>("SELECT id FROM deliveries");
    expect(new Set(recorded.map((r) => r.id))).toEqual(sentIds);
    // The balancer sent some deliveries twice, at once.
    expect(forwarded).toBeGreaterThan(sentIds.size);
    // Every job ended done; the only ones that ran twice are those the killed replica held.
    const { rows: jobs } = await db.query<{
      id: string;
      kind: string;
      status: string;
      attempts: number;
      lease_owner: string | null;
    }>("SELECT id, kind, status, attempts, lease_owner FROM jobs ORDER BY id");
    expect(jobs.filter((j) => j.status !== "done" && j.status !== "queued")).toEqual([]);
    const queued = jobs.filter((j) => j.status === "queued").map((j) => j.kind);
    expect(queued.every((kind) => kind === "gate.reconcile" || kind === "entries.deadline")).toBe(
      true,
    );
    // Three replicas each schedule the reconcile pass at start, and each pass the next: the
    // fleet holds one.
    expect(queued.filter((kind) => kind === "gate.reconcile")).toHaveLength(1);
    const twice = jobs.filter((j) => j.attempts > 1).map((j) => Number(j.id));
    expect(twice).toEqual(held);
    for (const id of held) {
      const job = jobs.find((j) => Number(j.id) === id);
      expect(job?.status).toBe("done");
      expect(job?.lease_owner).not.toContain(`:${pidOf(victim)}:`);
    }
    // The work itself: one agate check run per head, one reply per command, one expiry each.
    const checks = sim.checkRuns({ repo: "r" }).filter((c) => c.name === "agate");
    for (const head of heads) expect(checks.filter((c) => c.headSha === head)).toHaveLength(1);
    // Every pull request is in the same situation (no evidence yet), so each ends as one
    // replica alone leaves one: the same check state and the same labels, whichever replicas
    // worked on it and whichever was killed.
    const state = (head: string) => {
      const check = checks.find((c) => c.headSha === head);
      return { status: check?.status, conclusion: check?.conclusion };
    };
    expect(state(heads[0] as string)).toMatchObject({ status: "in_progress" });
    expect(heads.map(state)).toEqual(heads.map(() => state(heads[0] as string)));
    expect(pulls).toHaveLength(PULLS);
    const pullLabels = pulls.map((n) => [...sim.labelsOf({ repo: "r", number: n })].sort());
    expect(pullLabels[0]?.length).toBeGreaterThan(0);
    expect(pullLabels).toEqual(pulls.map(() => pullLabels[0]));
    for (const n of issues) {
      const replies = sim.world
        .issue(sim.repository({ repo: "r" }), n)
        .comments.filter((c) => c.app !== undefined);
      expect(replies.filter((c) => c.body.startsWith("Claimed by"))).toHaveLength(1);
      expect(expiries(n)).toHaveLength(1);
      // Opened, claimed, expired: one reply each, nothing else.
      expect(replies).toHaveLength(3);
      expect([...sim.labelsOf({ repo: "r", number: n })].sort()).toEqual([
        "agate:background",
        "agate:open",
      ]);
    }
  }, 180_000);
});
