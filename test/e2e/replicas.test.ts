/**
 * Three App replicas on one PostgreSQL database and one simulator, as an organisation runs them
 * behind a load balancer: deliveries go round-robin, some to two replicas at once (GitHub's
 * redelivery racing the first, or a balancer's retry), and replicas are killed with SIGKILL
 * while they hold jobs: one inside a gate pass before its first write, and two at the moment
 * GitHub has applied one of their writes and its answer has not reached them (the simulator
 * holds it; each is replaced by a new replica). Nothing is lost and nothing is done twice: every
 * delivery is recorded once with its jobs, every job ends done, only the killed replicas' jobs
 * ran a second time (taken over after their lease), one `agate` check run per head, one reply per
 * entry command, and each entry's claim timer fires once for the whole fleet. And literally:
 * GitHub ends as one replica alone leaves it, and what the fleet wrote, as a multiset of writes,
 * is what one replica alone writes for the same work (a retried job reads before it writes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitHubSimulator, startGitHubSimulator, type WriteRecord } from "../github/index.js";
import { ENTRY_FORM } from "../support/entries-harness.js";
import { type AppProcess, startAppProcess } from "../support/entries-process.js";
import { type GitHubState, githubState, ISO_TIME } from "../support/github-state.js";
import { simulatorAppEnv } from "../support/simulator-env.js";
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
/**
 * Where replicas are killed at a write, each counted from the last among writes of its
 * operation: the first label write (the first entry's labels, which GitHub makes grey for agate
 * to style), and the third after it (the first claim's, whose label is new too).
 */
const KILL_AT_WRITES = [
  { operation: "issues/add-labels", nth: 1 },
  { operation: "issues/add-labels", nth: 3 },
];

type Database = Awaited<ReturnType<typeof freshPostgresDatabase>>;

let sim: GitHubSimulator;
let temp: string;
let database: Database;
let db: pg.Pool;
let balancer: Server;
const replicas: AppProcess[] = [];
const dead = new Set<AppProcess>();
let sent = 0;
let forwarded = 0;
const issuesSeen: number[] = [];
/** What one replica alone wrote to GitHub for the same work, normalised by role. */
let baselineWrites: string[] = [];
/** What GitHub showed after one replica alone did the work. */
let baselineState: GitHubState;

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

/**
 * The test's own connections. pool.end() resolves before its sockets have closed, and the drop
 * (WITH FORCE) may end one of them first: that FATAL is the teardown, not a failure.
 */
function testPool(on: Database): pg.Pool {
  const pool = new pg.Pool({ connectionString: on.url, max: 2 });
  pool.on("error", () => undefined);
  return pool;
}

const startApp = (on: Database) =>
  startAppProcess({
    cwd: temp,
    env: simulatorAppEnv(sim, {
      WEBHOOK_SECRET: SECRET,
      LOG_LEVEL: process.env.REPLICAS_DEBUG ? "info" : "silent",
      AGATE_DATABASE_URL: on.url,
      AGATE_DATABASE_POOL: "4",
      // A killed replica's job is taken over within seconds, not a minute.
      AGATE_LEASE_MS: String(LEASE_MS),
    }),
  });

/**
 * The same work done by one replica alone, on a database of its own, webhooks straight to it:
 * no doubled delivery, no kill. Its writes, normalised by role, are what the fleet must match.
 * The simulator is reset after, so the fleet starts from nothing as this one did.
 */
async function runBaseline(own: Database, meanwhile: () => void): Promise<string[]> {
  const pool = testPool(own);
  const app = await startApp(own);
  try {
    sim.setWebhookUrl(`${app.url}/api/github/webhooks`);
    const done = await scenario(pool, { meanwhile });
    phase("baseline done");
    baselineState = githubState(sim, "r");
    return normaliseWrites(sim.writes, done);
  } finally {
    await app.crash();
    await pool.end();
    await own.drop();
    sim.reset();
  }
}

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), "agate-replicas-"));
  let own: Database;
  [sim, database, own] = await Promise.all([
    startGitHubSimulator({ webhookSecret: SECRET }),
    freshPostgresDatabase(),
    freshPostgresDatabase(),
  ]);
  db = testPool(database);
  // The fleet starts while the baseline waits for its claim timers (start-up is CPU, the wait
  // is not); it hears no webhook before the balancer is in place.
  let fleet: Promise<AppProcess[]> | undefined;
  const startFleet = () => {
    fleet ??= Promise.all(Array.from({ length: REPLICAS }, () => startApp(database)));
    fleet.catch(() => undefined);
    return fleet;
  };
  baselineWrites = await runBaseline(own, startFleet);
  replicas.push(...(await startFleet()));
  sim.setWebhookUrl(`${await startBalancer()}/api/github/webhooks`);
  phase("replicas started");
}, 120_000);

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
async function pendingJobs(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs
     WHERE status = 'running' OR (status = 'queued' AND run_at <= now())`,
  );
  return rows[0]?.n ?? 0;
}

async function until<T>(
  pool: pg.Pool,
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
          (await pool.query("SELECT id, kind, status, attempts, lease_owner FROM jobs")).rows,
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
async function settled(pool: pg.Pool): Promise<void> {
  let quiet = 0;
  await until(pool, "the replicas to settle", async () => {
    quiet = (await pendingJobs(pool)) === 0 ? quiet + 1 : 0;
    if (quiet >= 2) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return undefined;
  });
}

/**
 * Holds every gate pass at its first ledger write (a test transaction locks agate_check_runs)
 * until one is stuck there, kills the replica running it, and lets the rest go on: a kill in
 * the middle of a job, every time. Returns the jobs the killed replica held.
 *
 * What the kill point proves, and what not: the ledger marks a check write in flight before
 * making it, and a new pull request's pass writes its check before anything else, so with the
 * lock taken while the App is quiet no gate pass gets past its first write to GitHub: the one
 * stuck there has gathered everything and written nothing. Its retry on another replica must
 * write exactly what it would have. The victim's other worker may be anywhere in a handoff
 * entry's job (those re-read the issue's labels and find their replies by marker, so a retry
 * repeats no write; the comparison of writes would show one). No gate pass is killed after one
 * of its GitHub writes here: what its retry writes then is not shown by this test.
 */
async function killOneMidJob(work: Promise<void>): Promise<{ victim: AppProcess; held: number[] }> {
  const lock = await db.connect();
  try {
    await lock.query("BEGIN");
    await lock.query("LOCK TABLE agate_check_runs IN EXCLUSIVE MODE");
    void work.catch(() => undefined);
    const victim = await until(
      db,
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
          const app = replicas.find((r) => !dead.has(r) && lease_owner.includes(`:${pidOf(r)}:`));
          if (app) return app;
        }
        return undefined;
      },
      { flush: false },
    );
    dead.add(victim);
    await victim.crash();
    // It is gone: the jobs it leases now are exactly those it held when it died.
    return { victim, held: await heldBy(victim) };
  } finally {
    await lock.query("ROLLBACK");
    lock.release();
  }
}

/** The jobs a killed replica leased when it died: another takes them after their lease. */
async function heldBy(victim: AppProcess): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM jobs WHERE status = 'running' AND lease_owner LIKE $1 ORDER BY id",
    [`%:${pidOf(victim)}:%`],
  );
  return rows.map((r) => Number(r.id));
}

interface KilledAtWrite {
  victim: AppProcess;
  write: string;
  held: number[];
}

/** How many of KILL_AT_WRITES' writes were reached (their replica is being killed or was). */
let writesFaulted = 0;

/**
 * For each count in turn: the simulator applies the fleet's write that many writes on and holds
 * its answer; the replica that sent it (its requests name their pid) is killed there and a new
 * replica takes its place. Resolves once every kill was made and every new replica listens.
 */
async function killAtWrites(
  plan: readonly { operation: string; nth: number }[],
): Promise<KilledAtWrite[]> {
  const killed: KilledAtWrite[] = [];
  for (const { operation, nth } of plan) {
    const write = await sim.faults.arm({
      nth,
      mode: "hang",
      counts: (w) => w.operationId === operation,
    });
    writesFaulted++;
    const pid = Number(write.headers["x-agate-test-pid"]);
    const victim = replicas.find((r) => pidOf(r) === pid);
    if (!victim) throw new Error(`no replica has pid ${pid} (write ${write.operationId})`);
    dead.add(victim);
    await victim.crash();
    sim.faults.release();
    killed.push({ victim, write: write.operationId, held: await heldBy(victim) });
    replicas.push(await startApp(database));
    phase(`killed at ${write.operationId}`);
  }
  return killed;
}

interface Done {
  heads: string[];
  pulls: number[];
  issues: number[];
  killed: { victim: AppProcess; held: number[] } | undefined;
}

/** Each claim's expiry replies by the App on entry `n`. */
const expiries = (n: number) =>
  sim.world
    .issue(sim.repository({ repo: "r" }), n)
    .comments.filter((c) => c.app !== undefined && /expired after 3 ?s/.test(c.body));

/** Sends the i-th pull request (a new branch) and the i-th handoff entry, as far as there are. */
async function send(i: number, done: Omit<Done, "killed">): Promise<void> {
  if (i < PULLS) {
    const branch = `agent/change-${i}`;
    done.heads.push(
      await sim.pushCommit({ repo: "r", branch, files: { [`f${i}.txt`]: `${i}\n` } }),
    );
    const { number } = await sim.openPullRequest({
      repo: "r",
      head: branch,
      title: `Change ${i}`,
      user: "codex[bot]",
    });
    done.pulls.push(number);
  }
  if (i < ENTRIES) {
    done.issues.push(
      await sim.createIssue({
        repo: "r",
        title: `Handoff ${i}`,
        body: ENTRY_FORM({}),
        user: "agent-a",
      }),
    );
  }
}

const claim = (n: number) =>
  sim.addIssueComment({ repo: "r", number: n, body: "/claim", user: "agent-b" });

/**
 * The work, the same for one replica and for the fleet: six agent pull requests and three
 * handoff entries, the rest sent while `kill` (the fleet's) kills a replica mid-job; then a claim
 * on each entry, whose 3 s timer expires it. Returns when every job due is done.
 *
 * The first use of each label comes alone, and the App is quiet before the rest: two passes
 * that both find a label missing each have GitHub create it and each give it agate's colour, one
 * write more for the same end, as often as the interleaving makes them overlap (two workers of
 * one replica can, as three replicas can). Alone, a label is styled once in every run.
 */
async function scenario(
  pool: pg.Pool,
  options: {
    kill?: (work: Promise<void>) => Promise<Done["killed"]>;
    /** Called once the claims are made, while their timers run. */
    meanwhile?: () => void;
  },
): Promise<Done> {
  const { kill, meanwhile } = options;
  await sim.createRepository({ repo: "r", files: { ".github/agate.yml": CONFIG } });
  const done: Omit<Done, "killed"> = { heads: [], pulls: [], issues: [] };
  await send(0, done);
  await settled(pool);
  phase("first of each settled");
  const work = (async () => {
    for (let i = 1; i < Math.max(PULLS, ENTRIES); i++) await send(i, done);
  })();
  const killed = kill ? await kill(work) : undefined;
  phase("killed");
  issuesSeen.push(...done.issues);
  await work;
  phase("work sent");
  await settled(pool);
  phase("settled");
  const [first, ...rest] = done.issues;
  if (first === undefined) throw new Error("no handoff entry was opened");
  await claim(first);
  await settled(pool);
  for (const n of rest) await claim(n);
  await settled(pool);
  meanwhile?.();
  // Each claim's 3 s timer.
  await until(pool, "every claim to expire", () =>
    done.issues.every((n) => expiries(n).length > 0) ? true : undefined,
  );
  phase("claims expired");
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await settled(pool);
  phase("settled again");
  return { ...done, killed };
}

/**
 * Names by role for what two runs of the same work legitimately number differently: commits
 * (git SHAs carry their commit time), check runs and comments (ids count across the simulator's
 * life). A SHA maps to "head 2", a check run to "check on head 2": a write to the wrong head
 * or check still differs.
 */
function rolesOf(done: Done): Map<string, string> {
  const roles = new Map<string, string>();
  const base = sim.branchSha({ repo: "r", branch: "main" });
  if (base) roles.set(base, "<base>");
  for (const [i, sha] of done.heads.entries()) roles.set(sha, `<head ${i}>`);
  for (const [i, number] of done.pulls.entries()) {
    for (const [j, merge] of sim.pull({ repo: "r", number }).mergeCommits.entries()) {
      roles.set(merge.sha, `<merge ${j} of pull ${i}>`);
    }
  }
  for (const [sha, role] of [...roles]) roles.set(sha.slice(0, 7), role);
  for (const check of sim.checkRuns({ repo: "r" })) {
    roles.set(`check:${check.id}`, `<check on ${roles.get(check.headSha) ?? check.headSha}>`);
  }
  for (const n of [...done.pulls, ...done.issues]) {
    const comments = sim.world.issue(sim.repository({ repo: "r" }), n).comments;
    for (const [j, c] of comments.entries())
      roles.set(`comment:${c.id}`, `<comment ${j} on #${n}>`);
  }
  return roles;
}

/** Writes that set a label set or a label's looks: idempotent, compared by GitHub's end state. */
const LABEL_WRITE =
  /^\{"operation":"issues\/(?:add-labels|remove-label|set-labels|update-label|create-label)"/;

const ID_PARAMS: Record<string, string> = { check_run_id: "check", comment_id: "comment" };

/**
 * Every string with its SHAs (whole, or the 7 characters a title shows) and the comment ids in
 * agate's reply markers named by role, and its timestamps (when a write ran) blanked.
 */
function byRole(value: unknown, roles: Map<string, string>): unknown {
  if (typeof value === "string") {
    return value
      .replace(/\b[0-9a-f]{7}(?:[0-9a-f]{33})?\b/g, (sha) => roles.get(sha) ?? sha)
      .replace(/\bcomment=(\d+)\b/g, (text, id) => {
        const role = roles.get(`comment:${id}`);
        return role ? `comment=${role}` : text;
      })
      .replace(ISO_TIME, "<time>");
  }
  if (Array.isArray(value)) return value.map((item) => byRole(item, roles));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, byRole(v, roles)]));
  }
  return value;
}

/**
 * The App's writes to GitHub as comparable lines: operation, status, path parameters and body,
 * named by role. The installation token exchange is left out: each process mints its own (a
 * cache per process), so three processes ask for more than one; it changes nothing on GitHub.
 */
function normaliseWrites(writes: readonly WriteRecord[], done: Done): string[] {
  const roles = rolesOf(done);
  return writes
    .filter((call) => call.operationId !== "apps/create-installation-access-token")
    .map((call) => {
      const params = Object.fromEntries(
        Object.entries(call.write.params).map(([name, value]) => {
          const kind = ID_PARAMS[name];
          return [name, kind ? (roles.get(`${kind}:${value}`) ?? value) : byRole(value, roles)];
        }),
      );
      return JSON.stringify({
        operation: call.operationId,
        status: call.status,
        params,
        body: byRole(call.write.body, roles),
      });
    });
}

describe("three replicas on one PostgreSQL database", () => {
  it("lose nothing and do nothing twice, also when replicas are killed mid-job and at writes", async () => {
    const writeKills = killAtWrites(KILL_AT_WRITES);
    writeKills.catch(() => undefined);
    const { heads, pulls, issues, killed } = await scenario(db, { kill: killOneMidJob });
    if (!killed) throw new Error("no replica was killed");
    if (writesFaulted < KILL_AT_WRITES.length) {
      throw new Error(`the work ended before the fleet reached ${JSON.stringify(KILL_AT_WRITES)}`);
    }
    const killedAtWrites = await writeKills;
    expect(killed.held.length).toBeGreaterThan(0);
    expect(killedAtWrites.every((k) => k.held.length > 0)).toBe(true);
    const held = [...killed.held, ...killedAtWrites.flatMap((k) => k.held)].sort((a, b) => a - b);
    // Every delivery the simulator sent is recorded once (doubles and retries are duplicates).
    const sentIds = new Set(sim.deliveries.map((d) => d.id));
    const { rows: recorded } = await db.query<{ id: string }>("SELECT id FROM deliveries");
    expect(new Set(recorded.map((r) => r.id))).toEqual(sentIds);
    // The balancer sent some deliveries twice, at once.
    expect(forwarded).toBeGreaterThan(sentIds.size);
    // Every job ended done; the only ones that ran twice are those the killed replicas held.
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
    // Each ended on another replica than the one killed holding it (which may itself be
    // killed later, holding other jobs).
    for (const kill of [killed, ...killedAtWrites]) {
      for (const id of kill.held) {
        const job = jobs.find((j) => Number(j.id) === id);
        expect(job?.status).toBe("done");
        expect(job?.lease_owner).not.toContain(`:${pidOf(kill.victim)}:`);
      }
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
    // Waiting for evidence: no state label on any of them (and none added by anyone).
    expect(pullLabels).toEqual(pulls.map(() => []));
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
    // GitHub ends as one replica alone leaves it: every comment, label, issue and check run.
    expect(githubState(sim, "r")).toEqual(baselineState);
    // What the fleet wrote to GitHub, as a multiset, is what one replica alone wrote: a job run
    // again after a kill at a write read what its first run did, and wrote nothing twice.
    const fleetWrites = normaliseWrites(sim.writes, { heads, pulls, issues, killed });
    // Named by role, the heads stay apart: one check created on each.
    const created = fleetWrites.filter((w) => w.startsWith('{"operation":"checks/create"'));
    expect(new Set(created).size).toBe(PULLS);
    // Label writes are left out of the multiset: a job sets an issue's labels to what its state
    // is when the job runs, a diff from the labels it reads then, so a job retried after a kill
    // writes the diff of that later moment (a claim may have expired meanwhile: one remove
    // instead of an add and a remove). They are idempotent; the end state above holds them.
    const once = (writes: string[]) => writes.filter((w) => !LABEL_WRITE.test(w)).sort();
    expect(once(fleetWrites)).toEqual(once(baselineWrites));
  }, 180_000);
});
