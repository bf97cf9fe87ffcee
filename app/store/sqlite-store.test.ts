/**
 * What only the SQLite backend can show: the database itself refusing changes that bypass the
 * store (triggers), a transaction failing half-way, and rows corrupted outside agate. The
 * ports' behaviour is tested in contracts/, each suite run against every backend in
 * test/support/store.ts's STORE_BACKENDS.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  delivery,
  evaluation,
  frozenClock,
  HOUR,
  override,
  recordInput,
  SHA_A,
  SHA_B,
  SHA_C,
  sixDeliveries,
  twoWriteIntents,
  useTempDatabaseFile,
  WEEK,
} from "../../test/support/store.js";
import { CorruptRowError } from "./errors.js";
import { SqliteStore } from "./sqlite-store.js";

const databaseFile = useTempDatabaseFile();

const PR = { repository: "octo/repo", pullNumber: 12 };
const PAYLOAD = JSON.stringify({ action: "opened", number: 12 });

/** The store, its database made to refuse inserting a job of kind "boom" (a trigger). */
async function openWithBoom(): Promise<SqliteStore> {
  await SqliteStore.open(databaseFile()).close();
  const db = new Database(databaseFile());
  db.exec(`CREATE TRIGGER test_boom BEFORE INSERT ON jobs WHEN NEW.kind = 'boom'
           BEGIN SELECT RAISE(ABORT, 'boom'); END`);
  db.close();
  return SqliteStore.open(databaseFile());
}

describe("SQLite webhook deliveries", () => {
  it("are written with their jobs or not at all", async () => {
    // The second job's insert fails inside the transaction.
    const again = await openWithBoom();
    await expect(
      again.recordDelivery({
        delivery: delivery("d-1", PAYLOAD),
        payload: PAYLOAD,
        jobs: [
          { kind: "fine", payload: 1 },
          { kind: "boom", payload: 2 },
        ],
      }),
    ).rejects.toThrow(/boom/);
    expect(await again.getDelivery("d-1")).toBeNull();
    expect(await again.listJobs()).toEqual([]);
    await again.close();
  });

  it("arriving together, one that fails takes nothing of the others with it, and what was accepted before close is committed", async () => {
    const again = await openWithBoom();
    const record = (id: string, kind: string) =>
      again.recordDelivery({
        delivery: delivery(id, PAYLOAD),
        payload: PAYLOAD,
        jobs: [
          { kind: "fine", payload: id },
          { kind, payload: id },
        ],
      });
    const settled = await Promise.allSettled([
      record("d-1", "fine"),
      record("d-2", "boom"),
      record("d-3", "fine"),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/boom/);
    expect(await again.getDelivery("d-2")).toBeNull();
    expect((await again.listJobs()).map((j) => j.delivery_id)).toEqual([
      "d-1",
      "d-1",
      "d-3",
      "d-3",
    ]);
    // Closing commits what was accepted before it: nothing answered is lost.
    const late = record("d-4", "fine");
    await again.close();
    expect((await late).status).toBe("new");
    const reopened = SqliteStore.open(databaseFile());
    expect(await reopened.getDelivery("d-4")).not.toBeNull();
    await reopened.close();
  });

  it("lose their payload only by retention: every other deletion or update is refused", async () => {
    const clock = frozenClock();
    const store = SqliteStore.open(databaseFile(), { now: clock.now });
    await sixDeliveries(store, clock);
    clock.advance(1);
    const now = clock.now().toISOString();
    await store.close();

    const db = new Database(databaseFile());
    db.pragma("foreign_keys = ON");
    const refused = (sql: string, ...params: unknown[]) =>
      expect(() => db.prepare(sql).run(...params), sql).toThrow();
    const prune = "INSERT INTO delivery_payload_prunes VALUES (?, ?, ?)";

    // Delivery rows: never changed, never deleted, not even old and processed ones.
    expect(() => db.prepare("UPDATE deliveries SET action = 'closed'").run()).toThrow(
      /append-only/,
    );
    expect(() => db.prepare("DELETE FROM deliveries WHERE id = 'done'").run()).toThrow(
      /append-only/,
    );
    expect(() => db.prepare("DELETE FROM deliveries").run()).toThrow(/append-only/);
    // Payloads: no UPDATE, and no DELETE except by a prune, even of an old processed one.
    expect(() => db.prepare("UPDATE delivery_payloads SET payload = '{}'").run()).toThrow(
      /append-only/,
    );
    expect(() =>
      db.prepare("DELETE FROM delivery_payloads WHERE delivery_id = 'done'").run(),
    ).toThrow(/only retention deletes one/);
    expect(() => db.prepare("DELETE FROM delivery_payloads").run()).toThrow(/append-only/);
    // A prune of a delivery with a queued or running job, of a young one, with a retention
    // under an hour, dated ahead of the host's clock, of an unknown delivery: refused.
    expect(() => db.prepare(prune).run("queued", WEEK, now)).toThrow(/queued or running/);
    expect(() => db.prepare(prune).run("running", WEEK, now)).toThrow(/queued or running/);
    expect(() => db.prepare(prune).run("young", WEEK, now)).toThrow(/before the retention/);
    expect(() => db.prepare(prune).run("done", WEEK + 1, now)).toThrow(/before the retention/);
    refused(prune, "done", HOUR - 1, now);
    expect(() => db.prepare(prune).run("done", WEEK, "2999-01-01T00:00:00.000Z")).toThrow(
      /ahead of the database host's clock/,
    );
    refused(prune, "nobody", WEEK, now);
    expect(db.prepare("SELECT count(*) FROM delivery_payloads").pluck().get()).toBe(6);

    // The one allowed change: a processed, old delivery's prune, which removes its payload.
    db.prepare(prune).run("done", WEEK, now);
    expect(
      db.prepare("SELECT count(*) FROM delivery_payloads WHERE delivery_id = 'done'").pluck().get(),
    ).toBe(0);
    // Once only, and the prune itself is append-only.
    expect(() => db.prepare(prune).run("done", WEEK, now)).toThrow(/only once/);
    refused("UPDATE delivery_payload_prunes SET retention_ms = 7200000");
    refused("DELETE FROM delivery_payload_prunes");
    expect(db.prepare("SELECT count(*) FROM deliveries").pluck().get()).toBe(6);
    db.close();
  });
});

describe("SQLite acceptance records", () => {
  it("cannot be updated or deleted, even with raw SQL: the database refuses", async () => {
    const store = SqliteStore.open(databaseFile());
    await store.appendRecord(recordInput());
    await store.markStale({ ...PR, supersededBy: SHA_B, at: "2025-01-02T00:00:00.000Z" });
    await store.close();

    const db = new Database(databaseFile());
    expect(() => db.prepare("UPDATE acceptance_records SET head_sha = ?").run(SHA_C)).toThrow(
      /append-only: UPDATE is refused/,
    );
    expect(() =>
      db.prepare("UPDATE acceptance_records SET decision = ?").run('{"state":"accepted"}'),
    ).toThrow(/append-only/);
    expect(() => db.prepare("DELETE FROM acceptance_records").run()).toThrow(
      /append-only: DELETE is refused/,
    );
    // Nor can a stale mark be undone or moved to another SHA.
    expect(() => db.prepare("DELETE FROM acceptance_record_stale_marks").run()).toThrow(
      /append-only/,
    );
    expect(() =>
      db.prepare("UPDATE acceptance_record_stale_marks SET superseded_by = ?").run(SHA_C),
    ).toThrow(/append-only/);
    expect(() =>
      db.prepare("INSERT INTO acceptance_record_stale_marks VALUES (1, ?, 'x', 'x')").run(SHA_C),
    ).toThrow(/UNIQUE|PRIMARY KEY/);
    const own = db
      .prepare(
        "INSERT INTO acceptance_records (repository, pull_number, head_sha, " +
          "base_sha, commands, grader, decision, decided_at, recorded_at) " +
          "VALUES ('octo/repo', 12, ?, ?, '[]', '{}', '{}', 'x', 'x') RETURNING id",
      )
      .get(SHA_B, SHA_C) as { id: number };
    expect(() =>
      db
        .prepare("INSERT INTO acceptance_record_stale_marks VALUES (?, ?, 'x', 'x')")
        .run(own.id, SHA_B),
    ).toThrow(/cannot be superseded by its own head/);
    db.close();
  });

  it("that were corrupted outside agate fail loudly when read", async () => {
    const store = SqliteStore.open(databaseFile());
    const record = await store.appendRecord(recordInput());
    await store.close();
    const db = new Database(databaseFile());
    db.exec("DROP TRIGGER acceptance_records_no_update");
    db.prepare("UPDATE acceptance_records SET decision = ? WHERE id = ?").run(
      '{"state":"approved-by-agent","reasons":[]}',
      record.id,
    );
    db.close();
    const reader = SqliteStore.open(databaseFile());
    await expect(reader.listRecords(PR)).rejects.toThrow(CorruptRowError);
    await expect(reader.listRecords(PR)).rejects.toThrow(
      /row id 1 in table acceptance_records does not match its schema/,
    );
    await reader.close();
  });
});

describe("SQLite append-only tables", () => {
  it("refuse UPDATE and DELETE of evaluations, overrides, observations and the audit log", async () => {
    const store = SqliteStore.open(databaseFile());
    await store.appendEvaluation(evaluation());
    await store.appendOverride(override());
    await store.recordHeadObservation({
      repository: "octo/repo",
      head_sha: SHA_A,
      pull_number: 12,
      base_ref: "main",
      base_sha: SHA_B,
      observed_at: "2025-01-01T10:00:00.000Z",
    });
    await store.recordMergeCommit({
      repository: "octo/repo",
      pull_number: 12,
      head_sha: SHA_A,
      merge_sha: SHA_B,
      observed_at: "2025-01-01T10:00:00.000Z",
    });
    await store.appendAudit({
      kind: "gate.decision",
      subject: "octo/repo#12@aaa",
      decision: { state: "accepted" },
      facts: {},
      at: "2025-01-01T00:00:00.000Z",
    });
    await store.close();

    const raw = new Database(databaseFile());
    expect(() => raw.prepare("UPDATE evaluations SET status = 'verdict'").run()).toThrow(
      /append-only/,
    );
    expect(() => raw.prepare("DELETE FROM evaluations").run()).toThrow(/append-only/);
    expect(() => raw.prepare("UPDATE maintainer_overrides SET head_sha = 'x'").run()).toThrow(
      /append-only/,
    );
    expect(() => raw.prepare("DELETE FROM maintainer_overrides").run()).toThrow(/append-only/);
    expect(() => raw.prepare("DELETE FROM head_observations").run()).toThrow(/append-only/);
    expect(() => raw.prepare("DELETE FROM merge_commits").run()).toThrow(/append-only/);
    expect(() => raw.prepare("UPDATE audit_log SET decision = 'null'").run()).toThrow(
      /append-only/,
    );
    expect(() => raw.prepare("DELETE FROM audit_log").run()).toThrow(/append-only/);
    raw.close();
  });

  it("keep guarding the handoff entry tables (migration 6): no delete, one version at a time, history append-only", async () => {
    await SqliteStore.open(databaseFile()).close();
    const db = new Database(databaseFile());
    db.pragma("foreign_keys = ON");
    db.prepare(
      `INSERT INTO handoff_entries (repository, issue_number, entry, version, updated_at)
       VALUES ('octo/repo', 7, '{"state":"open"}', 1, 'x')`,
    ).run();
    db.prepare(
      `INSERT INTO handoff_entry_events (repository, issue_number, version, kind, actor,
         from_state, to_state, event, recorded_at)
       VALUES ('octo/repo', 7, 1, 'opened', 'a', NULL, 'open', '{}', 'x')`,
    ).run();
    expect(() => db.prepare("DELETE FROM handoff_entries").run()).toThrow(/never deleted/);
    expect(() =>
      db.prepare(`UPDATE handoff_entries SET entry = '{"state":"resolved"}'`).run(),
    ).toThrow(/bump version/);
    expect(() => db.prepare("DELETE FROM handoff_entry_events").run()).toThrow(/append-only/);
    db.close();
  });

  it("keep a write intent (migration 9): never deleted, completed once, nothing else of it changed", async () => {
    const store = SqliteStore.open(databaseFile());
    await twoWriteIntents(store);
    await store.close();
    const db = new Database(databaseFile());
    expect(() => db.prepare("DELETE FROM write_intents").run()).toThrow(/never deleted/);
    expect(() =>
      db.prepare("UPDATE write_intents SET github_id = 8 WHERE key = 'a'").run(),
    ).toThrow(/only gets GitHub's id, once/);
    expect(() =>
      db
        .prepare(
          "UPDATE write_intents SET body = 'x', github_id = 9, done_at = 'x' WHERE key = 'b'",
        )
        .run(),
    ).toThrow(/only gets GitHub's id, once/);
    expect(() =>
      db.prepare("UPDATE write_intents SET github_id = 9 WHERE key = 'b'").run(),
    ).toThrow(/CHECK constraint/);
    db.close();
  });
});
