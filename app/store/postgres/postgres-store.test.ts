/**
 * What the contract suites cannot see through the ports: PostgreSQL's migrations against
 * SQLite's, the database's own refusals (raw SQL, as an operator or a bug would write it), and
 * replicas racing on one database.
 */
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  delivery,
  evaluation,
  expectMigrated12,
  freshPostgresDatabase,
  frozenClock,
  HOUR,
  job,
  overBudgetEvaluation,
  paramsBefore12,
  payloadOf,
  recordInput,
  SHA_B,
  twoWriteIntents,
} from "../../../test/support/store.js";
import { DatabaseTooNewError, MigrationMismatchError, StoreError } from "../errors.js";
import { MIGRATIONS } from "../migrations.js";
import { migratePostgres } from "./migrate.js";
import { POSTGRES_MIGRATIONS } from "./migrations.js";
import { PostgresStore } from "./postgres-store.js";

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let raw: pg.Client;
const opened: PostgresStore[] = [];

async function open(options: { statementTimeoutMs?: number } = {}): Promise<PostgresStore> {
  const store = await PostgresStore.open({ url: database.url, poolSize: 4, ...options });
  opened.push(store);
  return store;
}

beforeEach(async () => {
  database = await freshPostgresDatabase({ empty: true });
  raw = new pg.Client({ connectionString: database.url });
  await raw.connect();
});
afterEach(async () => {
  await raw.end();
  for (const store of opened.splice(0)) await store.close();
  await database.drop();
});

describe("PostgreSQL migrations", () => {
  it("have SQLite's versions and names, one for one", () => {
    expect(POSTGRES_MIGRATIONS.map((m) => [m.version, m.name])).toEqual(
      MIGRATIONS.map((m) => [m.version, m.name]),
    );
  });

  it("migrate an empty database once, even when replicas open it at the same moment", async () => {
    await Promise.all([open(), open(), open(), open()]);
    const { rows } = await raw.query(
      "SELECT version, name FROM schema_migrations ORDER BY version",
    );
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  });

  it("refuse a database migrated by a newer agate, and one whose migration has another name", async () => {
    await (await open()).close();
    await raw.query(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', now())",
    );
    const newer = await open().catch((e: unknown) => e);
    expect(newer).toBeInstanceOf(DatabaseTooNewError);
    expect((newer as Error).message).toMatch(
      new RegExp(`schema version 99, this agate knows up to ${POSTGRES_MIGRATIONS.length}`),
    );
    await raw.query("DELETE FROM schema_migrations WHERE version = 99");
    await raw.query("UPDATE schema_migrations SET name = 'edited' WHERE version = 3");
    await expect(open()).rejects.toThrow(MigrationMismatchError);
  });
});

describe("PostgreSQL migration 11", () => {
  it("lets an evaluation be over budget, keeping the rows stored before", async () => {
    await migratePostgres(raw, "test", () => new Date(), POSTGRES_MIGRATIONS.slice(0, 10));
    const old = evaluation();
    const insert = `INSERT INTO evaluations (repository, pull_number, head_sha, tree_sha,
      config_digest, run, outcome, status, at, recorded_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
    const params = (e: typeof old) => paramsBefore12(e, e.at);
    await raw.query(insert, params(old));
    const over = overBudgetEvaluation();
    await expect(raw.query(insert, params(over))).rejects.toThrow(/evaluations_status_check/);

    const store = await open();
    const key = { repository: old.repository, pullNumber: old.pull_number };
    expect(await store.listEvaluations(key)).toEqual([
      { id: 1, ...old, base_sha: null, merge_base_sha: null },
    ]);
    // The refused INSERT above took id 2 (a sequence is not rolled back).
    expect((await store.appendEvaluation(over)).id).toBe(3);
    await expect(raw.query("UPDATE evaluations SET status = 'verdict'")).rejects.toThrow(
      /append-only/,
    );
    await expect(
      raw.query(insert, [...params(over).slice(0, 7), "other", over.at, over.at]),
    ).rejects.toThrow(/evaluations_status_check/);
  });
});

describe("PostgreSQL migration 12", () => {
  it("binds evaluations to their base (those before have none) and starts each pull request's newest head from its observations", async () => {
    await migratePostgres(raw, "test", () => new Date(), POSTGRES_MIGRATIONS.slice(0, 11));
    const old = evaluation();
    await raw.query(
      `INSERT INTO evaluations (repository, pull_number, head_sha, tree_sha, config_digest, run,
         outcome, status, at, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      paramsBefore12(old, old.at),
    );
    const seen = (head: string, pull: number, base: string, at: string) =>
      raw.query(
        `INSERT INTO head_observations (repository, head_sha, pull_number, base_ref, observed_at)
         VALUES ('octo/repo', $1, $2, $3, $4)`,
        [head, pull, base, at],
      );
    // Pull request 12: A, then B; the newest is B, though A's text sorts after (+02:00).
    await seen("a".repeat(40), 12, "main", "2025-01-01T11:30:00.000+02:00");
    await seen("b".repeat(40), 12, "main", "2025-01-01T10:00:00.000Z");
    await seen("c".repeat(40), 13, "release", "2025-01-01T09:00:00.000Z");

    const store = await open();
    await expectMigrated12(store, old);
    await expect(raw.query("UPDATE evaluations SET base_sha = 'x'")).rejects.toThrow(/append-only/);
  });
});

describe("the database itself", () => {
  it("refuses UPDATE, DELETE and TRUNCATE of append-only tables, whoever sends them", async () => {
    const store = await open();
    await store.appendRecord(recordInput());
    await store.markStale({
      repository: "octo/repo",
      pullNumber: 12,
      supersededBy: SHA_B,
      at: "2025-01-02T00:00:00.000Z",
    });
    await store.appendAudit({
      kind: "k",
      subject: "s",
      decision: 1,
      facts: 2,
      at: "2025-01-01T00:00:00Z",
    });
    for (const [table, what] of [
      ["acceptance_records", "acceptance records"],
      ["acceptance_record_stale_marks", "stale marks"],
      ["audit_log", "audit log entries"],
    ]) {
      await expect(raw.query(`UPDATE ${table} SET recorded_at = now()`)).rejects.toThrow(
        `${what} are append-only: UPDATE is refused`,
      );
      await expect(raw.query(`DELETE FROM ${table}`)).rejects.toThrow(
        `${what} are append-only: DELETE is refused`,
      );
      await expect(raw.query(`TRUNCATE ${table} CASCADE`)).rejects.toThrow(
        /append-only: TRUNCATE is refused/,
      );
    }
    await expect(
      raw.query("INSERT INTO acceptance_record_stale_marks VALUES (1, $1, 'x', now())", [SHA_B]),
    ).rejects.toThrow(/duplicate key/);
    expect(
      (await store.listRecords({ repository: "octo/repo", pullNumber: 12 }))[0]?.stale,
    ).toEqual({
      superseded_by: SHA_B,
      at: "2025-01-02T00:00:00.000Z",
    });
  });

  it("keeps a write intent: never deleted, completed once, nothing else of it changed", async () => {
    const store = await open();
    await twoWriteIntents(store);
    await expect(raw.query("DELETE FROM write_intents")).rejects.toThrow(/never deleted/);
    await expect(raw.query("TRUNCATE write_intents")).rejects.toThrow(/never deleted/);
    await expect(
      raw.query("UPDATE write_intents SET github_id = 8 WHERE key = 'a'"),
    ).rejects.toThrow(/only gets GitHub's id, once/);
    await expect(
      raw.query(
        "UPDATE write_intents SET body = 'x', github_id = 9, done_at = now() WHERE key = 'b'",
      ),
    ).rejects.toThrow(/only gets GitHub's id, once/);
    await expect(
      raw.query("UPDATE write_intents SET github_id = 9 WHERE key = 'b'"),
    ).rejects.toThrow(/check constraint/);
  });

  it("lets a payload go only by a prune of a processed delivery past its retention", async () => {
    const clock = frozenClock();
    const store = await PostgresStore.open({ url: database.url, now: clock.now });
    opened.push(store);
    const payload = payloadOf("d-1");
    await store.recordDelivery({ delivery: delivery("d-1", payload), payload, jobs: [job("k")] });
    await expect(raw.query("DELETE FROM delivery_payloads")).rejects.toThrow(
      /only retention deletes one/,
    );
    await expect(raw.query("UPDATE delivery_payloads SET payload = '{}'")).rejects.toThrow(
      /UPDATE is refused/,
    );
    const prune = (at: string) =>
      raw.query("INSERT INTO delivery_payload_prunes VALUES ('d-1', $1, $2)", [HOUR, at]);
    await expect(prune("2025-01-01T02:00:00Z")).rejects.toThrow(
      /while a job of the delivery is queued or running/,
    );
    const claimed = await store.claimJob({ workerId: "w", leaseMs: HOUR });
    if (!claimed) throw new Error("expected the delivery's job");
    await store.completeJob(claimed.lease);
    await expect(prune("2025-01-01T00:59:59Z")).rejects.toThrow(/before the retention has passed/);
    await expect(prune("2999-01-01T00:00:00Z")).rejects.toThrow(/ahead of the database host/);
    await prune("2025-01-01T01:00:00Z");
    await expect(store.getDelivery("d-1")).rejects.toThrow(
      /was processed, and its payload was pruned/,
    );
    await expect(prune("2025-01-01T03:00:00Z")).rejects.toThrow(/duplicate key|only once/);
  });
});

describe("replicas on one database", () => {
  it("claim every job exactly once between them, all claiming at once (FOR UPDATE SKIP LOCKED)", async () => {
    const replicas = await Promise.all([open(), open(), open()]);
    const [first] = replicas;
    if (!first) throw new Error("unreachable");
    for (let n = 0; n < 30; n++) await first.enqueue({ kind: "a", payload: n });
    const claimed: number[] = [];
    await Promise.all(
      replicas.flatMap((replica, r) =>
        [0, 1, 2].map(async (w) => {
          for (;;) {
            const got = await replica.claimJob({ workerId: `r${r}w${w}`, leaseMs: HOUR });
            if (!got) return;
            claimed.push(got.job.id);
            await replica.completeJob(got.lease);
          }
        }),
      ),
    );
    expect(claimed.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it("run one job of a concurrency key at a time, however many claim at once", async () => {
    const replicas = await Promise.all([open(), open(), open()]);
    const [first] = replicas;
    if (!first) throw new Error("unreachable");
    for (let n = 0; n < 4; n++) {
      await first.enqueue({ kind: "a", payload: n, concurrency_key: "octo/repo#1" });
    }
    const claims = await Promise.all(
      replicas.flatMap((replica, r) =>
        [0, 1, 2].map((w) => replica.claimJob({ workerId: `r${r}w${w}`, leaseMs: HOUR })),
      ),
    );
    expect(claims.filter((c) => c !== null).map((c) => c?.job.id)).toEqual([1]);
  });

  it("settle the same delivery arriving at two replicas at once: one new, one duplicate, its jobs once", async () => {
    const [a, b] = await Promise.all([open(), open()]);
    if (!a || !b) throw new Error("unreachable");
    const payload = payloadOf("d-1");
    const input = { delivery: delivery("d-1", payload), payload, jobs: [job("x"), job("y")] };
    const results = await Promise.all([a.recordDelivery(input), b.recordDelivery(input)]);
    expect(results.map((r) => r.status).sort()).toEqual(["duplicate", "new"]);
    expect(results[0]?.jobIds).toEqual(results[1]?.jobIds);
    expect(await a.countJobs()).toBe(2);
  });

  it("hold a dedupe key in the database: a replica's enqueue waits for another's uncommitted one, then returns it", async () => {
    const store = await open();
    const insert = (status: string) =>
      raw.query<{ id: string }>(
        `INSERT INTO jobs (kind, payload, status, attempts, max_attempts, run_at, created_at,
           updated_at, dedupe_key)
         VALUES ('gate.reconcile', 'null', $1, 0, 8, now(), now(), now(), 'reconcile') RETURNING id`,
        [status],
      );
    // Another replica's enqueue of the key, not yet committed.
    await raw.query("BEGIN");
    const first = Number((await insert("queued")).rows[0]?.id);
    const second = store.enqueue(
      { kind: "gate.reconcile", payload: null },
      { dedupeKey: "reconcile" },
    );
    // It waits on the first one's index entry: pg_locks shows it (and nothing is written yet).
    for (;;) {
      const { rows } = await raw.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'",
      );
      if ((rows[0]?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await raw.query("COMMIT");
    expect((await second).id).toBe(first);
    expect(await store.countJobs()).toBe(1);
    // Written by hand, a second holder is refused by the unique index itself; a done one is not.
    await expect(insert("queued")).rejects.toThrow(/jobs_dedupe/);
    await raw.query("UPDATE jobs SET status = 'done'");
    await insert("queued");
    expect(await store.countJobs({ status: "queued" })).toBe(1);
  });

  it("cancel a statement past the timeout, saying so, and write nothing", async () => {
    const store = await open({ statementTimeoutMs: 200 });
    await store.enqueue({ kind: "a", payload: null });
    // Another session holds the table: the claim's dead-letter UPDATE waits on it.
    await raw.query("BEGIN");
    await raw.query("LOCK TABLE jobs IN EXCLUSIVE MODE");
    const error = await store.claimJob({ workerId: "w", leaseMs: HOUR }).catch((e: unknown) => e);
    await raw.query("ROLLBACK");
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe("statement_timeout");
    expect((error as Error).message).toMatch(
      /statement timeout of 200 ms .*AGATE_DATABASE_STATEMENT_TIMEOUT/,
    );
    expect(await store.listJobs({ status: "queued" })).toHaveLength(1);
  });
});
