/**
 * Helpers for the store's tests: temp directories, a frozen clock, valid fixtures, a set of
 * deliveries in every state for the retention tests, the store in a separate process
 * (store-child.ts), and the backends every port's contract suite (app/store/contracts/) runs
 * against.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, expect } from "vitest";
import type { DeliveryLog } from "../../app/store/ports/delivery-log.js";
import type { JobQueue } from "../../app/store/ports/job-queue.js";
import type { WriteIntentLedger } from "../../app/store/ports/write-intent-ledger.js";
import { PostgresStore } from "../../app/store/postgres/postgres-store.js";
import { evaluationParams } from "../../app/store/rows/evaluation-store.js";
import { SqliteStore } from "../../app/store/sqlite-store.js";
import type { Clock, Store } from "../../app/store/store.js";
import type { AcceptanceRecordInput } from "../../schemas/acceptance-record.js";
import type { EvaluationInput } from "../../schemas/evaluation.js";
import type { Delivery, NewJob, OverrideInput } from "../../schemas/store.js";
import { type ChildResult, childClosed } from "./child-output.js";
import { databaseUrl, sharedPostgres } from "./postgres-run.js";

export const SHA_A = "a".repeat(40);
export const SHA_B = "b".repeat(40);
export const SHA_C = "c".repeat(40);
export const TREE_1 = "1".repeat(40);
export const DIGEST = "d".repeat(64);

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

/** A fresh directory per test; call the returned cleanup in afterEach. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "agate-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Registers a fresh directory per test and returns the path of a database file inside it. */
export function useTempDatabaseFile(): () => string {
  let current: { dir: string; cleanup: () => void } | undefined;
  beforeEach(() => {
    current = tempDir();
  });
  afterEach(() => current?.cleanup());
  return () => {
    if (!current) throw new Error("useTempDatabaseFile's path is only there inside a test");
    return join(current.dir, "agate.db");
  };
}

export interface TestClock {
  now: () => Date;
  advance: (ms: number) => void;
}

export function frozenClock(start = "2025-01-01T00:00:00.000Z"): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
  };
}

/** The pull request and head the row fixtures below are about. */
const THE_PULL = { repository: "octo/repo", pull_number: 12, head_sha: SHA_A } as const;

export function recordInput(overrides: Partial<AcceptanceRecordInput> = {}): AcceptanceRecordInput {
  return {
    ...THE_PULL,
    base_sha: SHA_C,
    tested: {
      sha: SHA_A,
      tree_sha: TREE_1,
      parents: [SHA_C],
      clean: true,
      dirty_digest: null,
    },
    commands: [
      {
        name: "test",
        run: "npm test",
        exit_code: 0,
        signal: null,
        timed_out: false,
        started_at: "2025-01-01T00:00:00.000Z",
        duration_ms: 1234,
        output: {
          bytes: 10,
          sha256: DIGEST,
          normalized_sha256: DIGEST,
          tail: "ok\n",
          truncated: false,
        },
      },
    ],
    provenance: {
      workflow: {
        run_id: 1,
        run_attempt: 1,
        workflow_ref: "octo/repo/.github/workflows/agate.yml@refs/heads/main",
        job: "agate",
        event_name: "pull_request",
      },
      verified: true,
      refused_reason: null,
      run: null,
    },
    runner: { os: "Linux", arch: "X64", image_version: null, node_version: "v20.0.0" },
    grader: {
      agate_version: "0.1.0",
      config_digest: DIGEST,
      evaluator: { kind: "llm", provider: "openai", model: "gpt", prompt_version: "1" },
    },
    verdict: { complete: true, score: 0.9, missing: [], evidence: ["tests pass"] },
    verdict_by: "evaluator",
    handoff: null,
    override: null,
    decision: { state: "accepted", reasons: ["all required commands passed"] },
    decided_at: "2025-01-01T00:00:05.000Z",
    ...overrides,
  };
}

export function evaluation(overrides: Partial<EvaluationInput> = {}): EvaluationInput {
  return {
    ...THE_PULL,
    base_sha: SHA_C,
    merge_base_sha: SHA_C,
    tree_sha: TREE_1,
    config_digest: DIGEST,
    run: {
      kind: "llm",
      provider: "openai",
      model: "gpt-test",
      prompt_version: "agate-eval-1",
      input_tokens: 1200,
      output_tokens: 80,
      latency_ms: 950,
      requests: 1,
    },
    outcome: {
      status: "verdict",
      verdict: { complete: false, score: 0.4, missing: ["docs"], evidence: ["diff"] },
    },
    at: "2025-01-01T10:00:00.000Z",
    ...overrides,
  };
}

/** An evaluation's INSERT parameters as the table had them before migration 12 (no base_sha). */
export function paramsBefore12(e: EvaluationInput, recordedAt: string): unknown[] {
  const [repository, pull, head, , , ...rest] = evaluationParams(e, recordedAt);
  return [repository, pull, head, ...rest];
}

/**
 * What migration 12 must leave, on either backend, after `evaluation()` was stored before it and
 * the head observations both tests insert (12: A at 11:30+02:00, then B at 10:00Z; 13: C): the old row with no base nor merge base, a new one bound to both,
 * each pull request's newest head by instant (not by text).
 */
export async function expectMigrated12(store: Store, old: EvaluationInput): Promise<void> {
  const key = { repository: old.repository, pullNumber: old.pull_number };
  // A row from before has neither its base nor the merge base its diff started from.
  expect(await store.listEvaluations(key)).toEqual([
    { id: 1, ...old, base_sha: null, merge_base_sha: null },
  ]);
  const bound = await store.appendEvaluation(
    evaluation({ base_sha: "e".repeat(40), merge_base_sha: "f".repeat(40) }),
  );
  expect(bound.merge_base_sha).toBe("f".repeat(40));
  expect((await store.listEvaluations(key)).at(-1)).toEqual(bound);
  // Nothing shown (no evaluator in the process): no merge base.
  const unshown = await store.appendEvaluation(evaluation({ merge_base_sha: null }));
  expect((await store.listEvaluations(key)).at(-1)).toEqual(unshown);
  expect(await store.newestHead({ repository: "octo/repo", pullNumber: 12 })).toEqual({
    head_sha: "b".repeat(40),
    base_ref: "main",
    // head_observations kept no base commit: not known until a pass sees the pull request again.
    base_sha: null,
  });
  expect(await store.newestHead({ repository: "octo/repo", pullNumber: 13 })).toEqual({
    head_sha: "c".repeat(40),
    base_ref: "release",
    base_sha: null,
  });
}

/** A bundle found over budgets.evaluator_bundle_tokens: nothing sent, the sizes kept. */
export function overBudgetEvaluation(overrides: Partial<EvaluationInput> = {}): EvaluationInput {
  return evaluation({
    run: { ...evaluation().run, input_tokens: null, output_tokens: null, requests: 0 },
    outcome: {
      status: "over_budget",
      budget: "evaluator_bundle_tokens",
      detail: "about 900 tokens, over budgets.evaluator_bundle_tokens (500)",
      estimated_tokens: 900,
      token_limit: 500,
    },
    ...overrides,
  });
}

export function override(overrides: Partial<OverrideInput> = {}): OverrideInput {
  return {
    ...THE_PULL,
    base_ref: "main",
    by: "octocat",
    reason: "the workflow change is reviewed",
    comment_url: "https://github.com/octo/repo/pull/12#issuecomment-1",
    at: "2025-01-01T10:00:00.000Z",
    ...overrides,
  };
}

export function delivery(id: string, payload: string, event = "pull_request"): Delivery {
  return {
    id,
    event,
    action: "opened",
    payload_sha256: createHash("sha256").update(payload).digest("hex"),
    received_at: "2025-01-01T00:00:00.000Z",
  };
}

/** A webhook payload naming its repository, as GitHub's do. */
export function payloadOf(id: string, repository = "octo/repo"): string {
  return JSON.stringify({ action: "opened", id, repository: { full_name: repository } });
}

type DeliveriesAndJobs = DeliveryLog & JobQueue;

/** Records a delivery received now (by the clock) with these jobs. */
export async function receive(
  store: DeliveriesAndJobs,
  clock: TestClock,
  id: string,
  jobs: NewJob[],
  payload = payloadOf(id),
) {
  const received = { ...delivery(id, payload), received_at: clock.now().toISOString() };
  const result = await store.recordDelivery({ delivery: received, payload, jobs });
  return { delivery: received, payload, result };
}

/** Claims the one job of that kind and completes it, fails it for good, or leaves it running. */
export async function work(
  store: JobQueue,
  kind: string,
  outcome: "done" | "dead" | "running",
): Promise<void> {
  const claimed = await store.claimJob({ workerId: "w", leaseMs: HOUR, kinds: [kind] });
  if (!claimed) throw new Error(`no ${kind} job to claim`);
  if (outcome === "done") await store.completeJob(claimed.lease);
  if (outcome === "dead") await store.failJob(claimed.lease, "boom", { permanent: true });
}

export const job = (kind: string): NewJob => ({ kind, payload: null });

/**
 * Five deliveries in every state (done, dead, queued, running, no job at all) and, a day later,
 * one more done; the clock left a millisecond before the first five are a week old.
 */
export async function sixDeliveries(store: DeliveriesAndJobs, clock: TestClock) {
  const done = await receive(store, clock, "done", [job("k-done"), job("k-done")]);
  const dead = await receive(store, clock, "dead", [job("k-dead")]);
  const queued = await receive(store, clock, "queued", [job("k-queued")]);
  const running = await receive(store, clock, "running", [job("k-running")]);
  const none = await receive(store, clock, "none", [], payloadOf("none", "octo/pinged"));
  await work(store, "k-done", "done");
  await work(store, "k-done", "done");
  await work(store, "k-dead", "dead");
  await work(store, "k-running", "running");
  clock.advance(DAY);
  const young = await receive(store, clock, "young", [job("k-young")]);
  await work(store, "k-young", "done");
  clock.advance(WEEK - DAY - 1);
  return { done, dead, queued, running, none, young };
}

// ---- the store in other processes -----------------------------------------------------------

const STORE_CHILD = fileURLToPath(new URL("./store-child.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export type { ChildResult };

/** Runs store-child.ts (its first lines say what `args` may be) in a real separate Node process. */
export function runStoreChild(args: readonly string[]): Promise<ChildResult> {
  const child = spawn(process.execPath, ["--import", "tsx", STORE_CHILD, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childClosed(child);
}

// ---- contract suites -----------------------------------------------------------------------

export interface Connection {
  close(): Promise<void>;
}

export interface ContractDatabase<P> {
  /** A new connection to this test's database. The suite may close it; dispose() must. */
  connect(): Promise<P & Connection>;
  /** The database as AGATE_DATABASE_URL names it (openStore), for a store in another process. */
  readonly url: string;
  /**
   * Makes the database refuse every job of this kind (a trigger raises an error), so a test can
   * fail one write inside a transaction after its first rows went in.
   */
  refuseJobKind(kind: string): Promise<void>;
  /** Closes every connection still open and removes the database. */
  dispose(): Promise<void>;
}

/** Creates an empty database whose connections take the time from `now`. */
export type OpenContractDatabase<P> = (now: Clock) => Promise<ContractDatabase<P>>;

export interface StoreBackend {
  name: string;
  open: OpenContractDatabase<Store>;
}

/** A test's own names and texts in SQL it writes (DDL takes no parameters). */
const sqlName = (text: string) => text.replace(/[^a-z0-9_]/gi, "_");
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The SQLite backend on a real file in a temp dir. */
const sqlite: OpenContractDatabase<Store> = async (now) => {
  const { dir, cleanup } = tempDir();
  const file = join(dir, "agate.db");
  const connections: SqliteStore[] = [];
  return {
    connect: async () => {
      const store = SqliteStore.open(file, { now });
      connections.push(store);
      return store;
    },
    url: `file:${file}`,
    refuseJobKind: async (kind) => {
      const db = new Database(file);
      try {
        db.exec(
          `CREATE TRIGGER refuse_${sqlName(kind)} BEFORE INSERT ON jobs
           WHEN NEW.kind = ${sqlText(kind)}
           BEGIN SELECT RAISE(ABORT, 'jobs of this kind are refused by the test'); END`,
        );
      } finally {
        db.close();
      }
    },
    dispose: async () => {
      for (const store of connections) await store.close();
      cleanup();
    },
  };
};

let admin: pg.Pool | undefined;
let databases = 0;

/**
 * A new database on the run's PostgreSQL server (test/support/postgres-run.ts), copied
 * from the template migrated once to agate's newest schema (a copy costs a fraction of
 * migrating a fresh one), or an empty one with `empty`; drop() removes it.
 */
export async function freshPostgresDatabase(
  options: { empty?: boolean } = {},
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const server = await sharedPostgres();
  admin ??= new pg.Pool({ connectionString: server.url, max: 1, allowExitOnIdle: true });
  const name = `agate_test_${process.pid}_${++databases}`;
  await admin.query(
    `CREATE DATABASE ${name} TEMPLATE ${options.empty ? "template0" : server.template}`,
  );
  return {
    url: databaseUrl(server.url, name),
    name,
    drop: async () => {
      await admin?.query(`DROP DATABASE ${name} WITH (FORCE)`);
    },
  };
}

/** The PostgreSQL backend: a database of its own per test. */
const postgres: OpenContractDatabase<Store> = async (now) => {
  const database = await freshPostgresDatabase();
  const connections: PostgresStore[] = [];
  return {
    connect: async () => {
      const store = await PostgresStore.open({ url: database.url, now, poolSize: 4 });
      connections.push(store);
      return store;
    },
    url: database.url,
    refuseJobKind: async (kind) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(
          `CREATE FUNCTION refuse_${sqlName(kind)}() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN
             IF NEW.kind = ${sqlText(kind)} THEN
               RAISE EXCEPTION 'jobs of this kind are refused by the test';
             END IF;
             RETURN NEW;
           END $$;
           CREATE TRIGGER refuse_${sqlName(kind)} BEFORE INSERT ON jobs
             FOR EACH ROW EXECUTE FUNCTION refuse_${sqlName(kind)}();`,
        );
      } finally {
        await client.end();
      }
    },
    dispose: async () => {
      for (const store of connections) await store.close();
      await database.drop();
    },
  };
};

/**
 * Every backend the contract suites run against. A backend implements the ports and passes
 * them all by adding its opener here.
 */
export const STORE_BACKENDS: readonly StoreBackend[] = [
  { name: "SQLite", open: sqlite },
  { name: "PostgreSQL", open: postgres },
];

export interface ContractContext<P> {
  /** The test's clock, frozen at 2025-01-01T00:00:00Z when the test starts. */
  readonly clock: TestClock;
  /** A connection opened before the test starts. */
  readonly port: P & Connection;
  /** Another connection to the same database. */
  connect(): Promise<P & Connection>;
  /** The test's database itself (its URL, a fault to inject). */
  readonly database: ContractDatabase<P>;
}

/**
 * Registers a fresh database and clock per test of the enclosing describe. The suite sees the
 * backend only through the port type P.
 */
export function useContractDatabase<P>(open: OpenContractDatabase<P>): ContractContext<P> {
  let current: { clock: TestClock; db: ContractDatabase<P>; port: P & Connection } | undefined;
  beforeEach(async () => {
    const clock = frozenClock();
    const db = await open(clock.now);
    current = { clock, db, port: await db.connect() };
  });
  afterEach(async () => {
    const db = current?.db;
    current = undefined;
    await db?.dispose();
  });
  const need = () => {
    if (!current) throw new Error("the contract database is only there inside a test");
    return current;
  };
  return {
    get clock() {
      return need().clock;
    },
    get port() {
      return need().port;
    },
    connect: () => need().db.connect(),
    get database() {
      return need().db;
    },
  };
}

/** Two comment intents, `a` and `b`, with `a` completed (GitHub's id 7): the ledger's rules' fixture. */
export async function twoWriteIntents(store: WriteIntentLedger): Promise<void> {
  for (const key of ["a", "b"]) {
    await store.recordWriteIntent({
      key,
      scope: "job:1",
      repository: "octo/repo",
      target: 12,
      kind: "comment",
      body: "reply",
      marker: key.repeat(16),
    });
  }
  await store.completeWriteIntent({ key: "a", githubId: 7 });
}
