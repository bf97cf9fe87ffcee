import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CorruptRowError, InvalidInputError } from "./errors.js";
import { SqliteStore } from "./sqlite-store.js";
import {
  frozenClock,
  recordInput,
  SHA_A,
  SHA_B,
  SHA_C,
  TREE_1,
  useTempDatabaseFile,
} from "./test-support.js";

const databaseFile = useTempDatabaseFile();

const PR = { repository: "octo/repo", pullNumber: 12 };

describe("acceptance records", () => {
  it("round-trip every field through a real file, closed and reopened", async () => {
    const clock = frozenClock();
    const input = recordInput();
    const bare = recordInput({
      head_sha: SHA_B,
      tested: null,
      commands: [],
      provenance: null,
      runner: null,
      grader: { agate_version: "0.1.0", config_digest: "e".repeat(64), evaluator: null },
      verdict: null,
      verdict_by: null,
      handoff: {
        path: "HANDOFF.md",
        required_by: ["the label long-task"],
        blob_sha: null,
        valid: false,
        status: null,
        findings: ["missing: tried"],
      },
      decision: { state: "pending", reasons: [] },
    });
    const writer = SqliteStore.open(databaseFile(), { now: clock.now });
    const first = await writer.appendRecord(input);
    const second = await writer.appendRecord(bare);
    await writer.close();

    expect(first).toEqual({ ...input, id: 1, recorded_at: clock.now().toISOString(), stale: null });
    const reader = SqliteStore.open(databaseFile());
    expect(await reader.getRecord(first.id)).toEqual(first);
    expect(await reader.listRecords(PR)).toEqual([first, second]);
    expect(second).toMatchObject(bare);
    expect(await reader.latestRecord(PR)).toEqual(second);
    expect(await reader.latestRecord({ ...PR, headSha: SHA_A })).toEqual(first);
    expect(await reader.listRecords({ ...PR, treeSha: TREE_1 })).toEqual([first]);
    expect(await reader.listRecords({ ...PR, headSha: SHA_B })).toEqual([second]);
    expect(await reader.latestRecord({ repository: "octo/other", pullNumber: 12 })).toBeNull();
    expect(await reader.getRecord(99)).toBeNull();
    await reader.close();
  });

  it("are validated before anything is written", async () => {
    const store = SqliteStore.open(databaseFile());
    const bad = { ...recordInput(), head_sha: "not-a-sha" };
    await expect(store.appendRecord(bad)).rejects.toThrow(InvalidInputError);
    await expect(store.appendRecord(bad)).rejects.toThrow(/head_sha/);
    expect(await store.listRecords(PR)).toEqual([]);
    await store.close();
  });

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

  it("become stale for every older head, once, with every field kept as it was", async () => {
    const clock = frozenClock();
    const store = SqliteStore.open(databaseFile(), { now: clock.now });
    const onA = await store.appendRecord(recordInput({ head_sha: SHA_A }));
    const rejectedA = await store.appendRecord(
      recordInput({ head_sha: SHA_A, decision: { state: "rejected", reasons: ["test failed"] } }),
    );
    const onB = await store.appendRecord(recordInput({ head_sha: SHA_B }));
    const otherPull = await store.appendRecord(recordInput({ pull_number: 13 }));

    const at = "2025-01-02T00:00:00.000Z";
    expect(await store.markStale({ ...PR, supersededBy: SHA_B, at })).toBe(2);
    const [a1, a2, b] = await store.listRecords(PR);
    expect(a1).toEqual({ ...onA, stale: { superseded_by: SHA_B, at } });
    expect(a2).toEqual({ ...rejectedA, stale: { superseded_by: SHA_B, at } });
    expect(b).toEqual(onB);
    expect(await store.getRecord(otherPull.id)).toEqual(otherPull);

    // A second push marks B, and leaves A's first mark alone.
    const later = "2025-01-03T00:00:00.000Z";
    expect(await store.markStale({ ...PR, supersededBy: SHA_C, at: later })).toBe(1);
    expect(await store.markStale({ ...PR, supersededBy: SHA_C, at: later })).toBe(0);
    const records = await store.listRecords(PR);
    expect(records.map((r) => r.stale)).toEqual([
      { superseded_by: SHA_B, at },
      { superseded_by: SHA_B, at },
      { superseded_by: SHA_C, at: later },
    ]);
    // A push back to an old head (force-push) does not un-stale anything.
    expect(await store.markStale({ ...PR, supersededBy: SHA_A, at: later })).toBe(0);
    expect((await store.getRecord(onA.id))?.stale).toEqual({ superseded_by: SHA_B, at });
    // Appending never touches older rows.
    const fresh = await store.appendRecord(recordInput({ head_sha: SHA_C }));
    expect(fresh.stale).toBeNull();
    expect((await store.listRecords(PR)).slice(0, 3)).toEqual(records);
    await store.close();
  });

  it("refuse a malformed stale mark", async () => {
    const store = SqliteStore.open(databaseFile());
    await expect(
      store.markStale({ ...PR, supersededBy: "HEAD", at: "2025-01-02T00:00:00.000Z" }),
    ).rejects.toThrow(InvalidInputError);
    await store.close();
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
    await expect(reader.getRecord(record.id)).rejects.toThrow(CorruptRowError);
    await expect(reader.getRecord(record.id)).rejects.toThrow(
      /row id 1 in table acceptance_records does not match its schema/,
    );
    await reader.close();
  });
});
