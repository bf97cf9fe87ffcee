import { createHash } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  evaluation,
  expectMigrated12,
  overBudgetEvaluation,
  paramsBefore12,
  payloadOf,
  runStoreChild,
  tempDir,
} from "../../test/support/store.js";
import { DatabaseTooNewError, MigrationMismatchError } from "./errors.js";
import { checkMigrationOrder, LATEST_SCHEMA_VERSION, MIGRATIONS } from "./migrations.js";
import { migrate } from "./sqlite/migrate.js";
import { SqliteStore } from "./sqlite-store.js";

const TABLES = [
  "acceptance_record_stale_marks",
  "acceptance_records",
  "agate_check_runs",
  "audit_log",
  "base_sightings",
  "deliveries",
  "delivery_payload_prunes",
  "delivery_payloads",
  "entry_mentions",
  "evaluations",
  "handoff_entries",
  "handoff_entry_event_posts",
  "handoff_entry_events",
  "head_observations",
  "jobs",
  "maintainer_overrides",
  "merge_commits",
  "pull_request_heads",
  "pull_request_sightings",
  "schema_migrations",
  "write_intents",
];

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

function inspect(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all();
    const versions = db
      .prepare("SELECT version FROM schema_migrations ORDER BY version")
      .pluck()
      .all();
    const journal = db.pragma("journal_mode", { simple: true });
    return { tables, versions, journal };
  } finally {
    db.close();
  }
}

describe("migrations", () => {
  it("are numbered 1, 2, 3, … without gaps", () => {
    expect(() => checkMigrationOrder()).not.toThrow();
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(() =>
      checkMigrationOrder([
        { version: 1, name: "a", up: "" },
        { version: 3, name: "b", up: "" },
      ]),
    ).toThrow(/version 3, expected 2/);
  });

  it("create every table from an empty file and record the version", async () => {
    const file = join(dir, "agate.db");
    const store = SqliteStore.open(file);
    await store.close();
    const { tables, versions, journal } = inspect(file);
    expect(tables).toEqual(TABLES);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    expect(journal).toBe("wal");
  });

  it("leave the connection in WAL, synchronous=FULL, with foreign keys and a busy timeout", async () => {
    const store = SqliteStore.open(join(dir, "agate.db"));
    expect(store.settings()).toEqual({
      journalMode: "wal",
      synchronous: "full",
      foreignKeys: true,
      busyTimeoutMs: 5000,
    });
    await store.close();
  });

  it("are a no-op when the database is current", async () => {
    const file = join(dir, "agate.db");
    await SqliteStore.open(file).close();
    const db = new Database(file);
    const outcome = migrate(db, file, () => new Date());
    db.close();
    expect(outcome).toEqual({
      from: LATEST_SCHEMA_VERSION,
      to: LATEST_SCHEMA_VERSION,
      applied: [],
    });
    await SqliteStore.open(file).close();
    expect(inspect(file).versions).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it("apply only the pending ones, in order", () => {
    const db = new Database(join(dir, "agate.db"));
    const list = [
      { version: 1, name: "one", up: "CREATE TABLE one (x INTEGER)" },
      { version: 2, name: "two", up: "CREATE TABLE two (x INTEGER)" },
    ];
    expect(migrate(db, "x", () => new Date(), list.slice(0, 1)).applied).toEqual([1]);
    expect(migrate(db, "x", () => new Date(), list)).toEqual({ from: 1, to: 2, applied: [2] });
    db.close();
  });

  it("roll back entirely when one fails", () => {
    const db = new Database(join(dir, "agate.db"));
    const list = [
      { version: 1, name: "one", up: "CREATE TABLE one (x INTEGER)" },
      { version: 2, name: "broken", up: "CREATE TABLE (" },
    ];
    expect(() => migrate(db, "x", () => new Date(), list)).toThrow();
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    expect(tables).toEqual([]);
    db.close();
  });

  it("refuse a database newer than the code, saying what to do", async () => {
    const file = join(dir, "agate.db");
    await SqliteStore.open(file).close();
    const db = new Database(file);
    db.prepare("INSERT INTO schema_migrations VALUES (?, 'from the future', 'x')").run(
      LATEST_SCHEMA_VERSION + 1,
    );
    db.close();
    let error: unknown;
    try {
      SqliteStore.open(file, { location: "./agate.db" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect((error as Error).message).toBe(
      `database ./agate.db is at schema version ${LATEST_SCHEMA_VERSION + 1}, this agate knows up ` +
        `to ${LATEST_SCHEMA_VERSION}: upgrade agate, or point AGATE_DATABASE_URL at another database`,
    );
  });

  it("refuse a database whose applied migration has another name", async () => {
    const file = join(dir, "agate.db");
    await SqliteStore.open(file).close();
    const db = new Database(file);
    db.prepare("UPDATE schema_migrations SET name = 'something else' WHERE version = 1").run();
    db.close();
    expect(() => SqliteStore.open(file)).toThrow(MigrationMismatchError);
  });

  it("run once when two processes open the same new file at the same moment", async () => {
    const file = join(dir, "agate.db");
    const startAt = String(Date.now() + 1500);
    const results = await Promise.all([1, 2, 3].map(() => runStoreChild(["open", file, startAt])));
    for (const result of results) {
      expect(result.stderr).toBe("");
      expect(result.stdout.trim()).toBe("opened");
    }
    expect(inspect(file).versions).toEqual(MIGRATIONS.map((m) => m.version));
  });
});

describe("migration 4", () => {
  it("moves stored payloads to their own table, keeping digests, and fills each delivery's repository", async () => {
    const file = join(dir, "agate.db");
    const db = new Database(file);
    migrate(db, file, () => new Date(), MIGRATIONS.slice(0, 3));
    const insert = db.prepare(
      `INSERT INTO deliveries (id, event, action, payload_sha256, payload, received_at, recorded_at)
       VALUES (?, 'pull_request', 'opened', ?, ?, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`,
    );
    const rows = [
      ["a", payloadOf("a", "octo/a")],
      ["b", JSON.stringify({ zen: "no repository" })],
      ["c", JSON.stringify({ repository: { full_name: 42 } })],
    ] as const;
    for (const [id, payload] of rows) {
      insert.run(id, createHash("sha256").update(payload).digest("hex"), payload);
    }
    db.prepare(
      `INSERT INTO jobs (kind, payload, delivery_id, status, attempts, max_attempts, run_at, created_at, updated_at)
       VALUES ('k', 'null', 'a', 'queued', 0, 8, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`,
    ).run();
    db.close();

    const store = SqliteStore.open(file);
    for (const [id, payload] of rows) {
      expect((await store.getDelivery(id))?.payload).toBe(payload);
    }
    expect((await store.getDeliveryRecord("a"))?.repository).toBe("octo/a");
    expect((await store.getDeliveryRecord("b"))?.repository).toBeNull();
    expect((await store.getDeliveryRecord("c"))?.repository).toBeNull();
    expect(await store.listRepositories()).toEqual(["octo/a"]);
    expect(await store.listJobs({ deliveryId: "a" })).toHaveLength(1);
    await store.close();
    const raw = new Database(file);
    expect(() => raw.prepare("UPDATE deliveries SET action = 'x'").run()).toThrow(/append-only/);
    raw.close();
  });

  it("6 replaces migration 1's unused entry tables; the database keeps entries, their history and posted replies as the port promises", async () => {
    const file = join(dir, "agate.db");
    const db = new Database(file);
    migrate(db, file, () => new Date(), MIGRATIONS.slice(0, 5));
    expect(db.prepare("SELECT count(*) FROM handoff_entries").pluck().get()).toBe(0);
    db.close();
    const store = SqliteStore.open(file);
    const entry = {
      repository: "o/r",
      issue_number: 1,
      author: "a",
      fields: { project: "p", question: "q", tried: "t", needed: "n", blocking_pull: null },
      state: "open" as const,
      owner: null,
      follow_ups: 0,
      claim_expiries: 0,
      escalation_reason: null,
      why: null,
      deadline: null,
      comments_through: 0,
      opened_at: "2025-01-01T00:00:00.000Z",
      state_changed_at: "2025-01-01T00:00:00.000Z",
    };
    const event = {
      kind: "opened" as const,
      actor: "a",
      comment_id: null,
      reason: "opened",
      reply: null,
      mentions: [],
      at: "2025-01-01T00:00:00.000Z",
    };
    await store.createEntry({ entry, event });
    await store.markEntryEventPosted({
      repository: "o/r",
      issueNumber: 1,
      version: 1,
      at: "2025-01-01T00:00:00.000Z",
    });
    await store.close();
    const raw = new Database(file);
    expect(() => raw.prepare("DELETE FROM handoff_entries").run()).toThrow(/never deleted/);
    expect(() => raw.prepare("UPDATE handoff_entries SET version = version + 2").run()).toThrow(
      /exactly one/,
    );
    expect(() => raw.prepare("UPDATE handoff_entry_events SET actor = 'x'").run()).toThrow(
      /append-only/,
    );
    expect(() => raw.prepare("DELETE FROM handoff_entry_event_posts").run()).toThrow(/append-only/);
    expect(() =>
      raw
        .prepare(`UPDATE handoff_entries SET entry = json_set(entry, '$.state', 'done'),
        version = version + 1`)
        .run(),
    ).toThrow(/CHECK constraint/);
    raw.close();
  });
  it("11 lets an evaluation be over budget: the table rebuilt keeps every row, its id, the counter, the index and the triggers", async () => {
    const file = join(dir, "agate.db");
    const db = new Database(file);
    migrate(db, file, () => new Date(), MIGRATIONS.slice(0, 10));
    const insert = db.prepare(
      `INSERT INTO evaluations (repository, pull_number, head_sha, tree_sha, config_digest, run,
         outcome, status, at, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const before = [
      evaluation(),
      evaluation({ outcome: { status: "failed", error: "HTTP 500", fix: "retry later" } }),
    ];
    for (const e of before) insert.run(...paramsBefore12(e, e.at));
    const over = overBudgetEvaluation();
    expect(() =>
      insert.run(
        "o/r",
        1,
        "a".repeat(40),
        "b".repeat(40),
        "d",
        "{}",
        "{}",
        "over_budget",
        "x",
        "x",
      ),
    ).toThrow(/CHECK constraint/);
    db.close();

    const store = SqliteStore.open(file);
    const key = { repository: over.repository, pullNumber: over.pull_number };
    expect(await store.listEvaluations(key)).toEqual(
      before.map((e, i) => ({ id: i + 1, ...e, base_sha: null, merge_base_sha: null })),
    );
    expect((await store.appendEvaluation(over)).id).toBe(3);
    await store.close();
    const raw = new Database(file);
    const schema = raw
      .prepare("SELECT type, name FROM sqlite_schema WHERE tbl_name = 'evaluations' ORDER BY name")
      .all();
    expect(schema).toEqual([
      { type: "table", name: "evaluations" },
      { type: "index", name: "evaluations_by_pull" },
      { type: "trigger", name: "evaluations_no_delete" },
      { type: "trigger", name: "evaluations_no_update" },
    ]);
    expect(
      raw.prepare("SELECT name, seq FROM sqlite_sequence WHERE name LIKE 'evaluations%'").all(),
    ).toEqual([{ name: "evaluations", seq: 3 }]);
    expect(() => raw.prepare("UPDATE evaluations SET status = 'verdict'").run()).toThrow(
      /append-only/,
    );
    expect(() => raw.prepare("DELETE FROM evaluations").run()).toThrow(/append-only/);
    // The evaluator job's question (which heads since its pass read) has an index of its own.
    expect(
      raw
        .prepare("SELECT tbl_name FROM sqlite_schema WHERE name = 'head_observations_by_pull'")
        .get(),
    ).toEqual({ tbl_name: "head_observations" });
    raw.close();
  });

  it("12 binds evaluations to their base (those before have none) and starts each pull request's newest head from its observations", async () => {
    const file = join(dir, "agate.db");
    const db = new Database(file);
    migrate(db, file, () => new Date(), MIGRATIONS.slice(0, 11));
    const old = evaluation();
    db.prepare(
      `INSERT INTO evaluations (repository, pull_number, head_sha, tree_sha, config_digest, run,
         outcome, status, at, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...paramsBefore12(old, old.at));
    const seen = db.prepare(
      `INSERT INTO head_observations (repository, head_sha, pull_number, base_ref, observed_at)
       VALUES ('octo/repo', ?, ?, ?, ?)`,
    );
    // Pull request 12: A, then B; the newest is B, though A's text sorts after (+02:00).
    seen.run("a".repeat(40), 12, "main", "2025-01-01T11:30:00.000+02:00");
    seen.run("b".repeat(40), 12, "main", "2025-01-01T10:00:00.000Z");
    seen.run("c".repeat(40), 13, "release", "2025-01-01T09:00:00.000Z");
    db.close();

    const store = SqliteStore.open(file);
    await expectMigrated12(store, old);
    await store.close();
    const raw = new Database(file);
    expect(() => raw.prepare("UPDATE evaluations SET base_sha = 'x'").run()).toThrow(/append-only/);
    raw.close();
  });

  it("7 adds dedupe keys to a database that has jobs: those hold no key, the index holds new ones", async () => {
    const file = join(dir, "agate.db");
    const db = new Database(file);
    migrate(db, file, () => new Date(), MIGRATIONS.slice(0, 6));
    const at = "2025-01-01T00:00:00.000Z";
    db.prepare(
      `INSERT INTO jobs (kind, payload, status, attempts, max_attempts, run_at, created_at, updated_at)
       VALUES ('gate.reconcile', 'null', 'queued', 0, 8, ?, ?, ?)`,
    ).run(at, at, at);
    db.close();
    const store = SqliteStore.open(file);
    expect((await store.getJob(1))?.kind).toBe("gate.reconcile");
    const keyed = await store.enqueue(
      { kind: "gate.reconcile", payload: null },
      { dedupeKey: "r" },
    );
    expect(keyed.id).toBe(2);
    expect((await store.enqueue({ kind: "x", payload: null }, { dedupeKey: "r" })).id).toBe(2);
    await store.close();
    const raw = new Database(file);
    expect(() =>
      raw
        .prepare(
          `INSERT INTO jobs (kind, payload, status, attempts, max_attempts, run_at, created_at,
             updated_at, dedupe_key) VALUES ('x', 'null', 'queued', 0, 8, ?, ?, ?, 'r')`,
        )
        .run(at, at, at),
    ).toThrow(/UNIQUE constraint failed: jobs.dedupe_key/);
    raw.close();
  });
});
