import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  AlreadyExistsError,
  InvalidInputError,
  NotFoundError,
  VersionConflictError,
} from "./errors.js";
import { SqliteStore } from "./sqlite-store.js";
import { frozenClock, handoffDraft, useTempDatabaseFile } from "./test-support.js";

const databaseFile = useTempDatabaseFile();

describe("handoff entries", () => {
  it("round-trip, update by compare-and-set, and log every change", async () => {
    const clock = frozenClock();
    const store = SqliteStore.open(databaseFile(), { now: clock.now });
    const created = await store.createHandoffEntry(handoffDraft());
    expect(created).toEqual({ ...handoffDraft(), version: 1 });
    await expect(store.createHandoffEntry(handoffDraft())).rejects.toThrow(AlreadyExistsError);

    clock.advance(1000);
    const claimed = await store.updateHandoffEntry(
      {
        ...created,
        state: "claimed",
        owner: "maintainer",
        state_changed_at: clock.now().toISOString(),
      },
      { expectedVersion: created.version },
    );
    expect(claimed).toMatchObject({ state: "claimed", owner: "maintainer", version: 2 });

    // A second writer that read version 1 loses.
    const conflict = await store
      .updateHandoffEntry({ ...created, state: "blocked" }, { expectedVersion: 1 })
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(VersionConflictError);
    expect((conflict as Error).message).toBe(
      "handoff entry octo/repo#7 is at version 2, not 1: it changed since it was read; read it " +
        "again and re-apply the change",
    );
    await store.close();

    const reader = SqliteStore.open(databaseFile());
    expect(await reader.getHandoffEntry("octo/repo", 7)).toEqual(claimed);
    expect(await reader.getHandoffEntry("octo/repo", 8)).toBeNull();
    const events = await reader.listHandoffEntryEvents("octo/repo", 7);
    expect(events.map((e) => [e.version, e.from_state, e.to_state])).toEqual([
      [1, null, "open"],
      [2, "open", "claimed"],
    ]);
    expect(events[1]?.entry).toEqual(claimed);
    expect(events[1]?.recorded_at).toBe("2025-01-01T00:00:01.000Z");
    await reader.close();
  });

  it("are listed by repository and state for the timers", async () => {
    const store = SqliteStore.open(databaseFile());
    await store.createHandoffEntry(handoffDraft({ issue_number: 1 }));
    await store.createHandoffEntry(handoffDraft({ issue_number: 2, state: "claimed", owner: "x" }));
    await store.createHandoffEntry(handoffDraft({ repository: "octo/other", issue_number: 3 }));
    const numbers = async (query: Parameters<typeof store.listHandoffEntries>[0]) =>
      (await store.listHandoffEntries(query)).map((e) => e.issue_number);
    expect(await numbers({})).toEqual([3, 1, 2]);
    expect(await numbers({ repository: "octo/repo" })).toEqual([1, 2]);
    expect(await numbers({ states: ["open"] })).toEqual([3, 1]);
    expect(await numbers({ repository: "octo/repo", states: ["claimed", "blocked"] })).toEqual([2]);
    await store.close();
  });

  it("refuse updates of a missing entry and invalid fields, and are never deleted", async () => {
    const store = SqliteStore.open(databaseFile());
    await expect(store.updateHandoffEntry(handoffDraft(), { expectedVersion: 1 })).rejects.toThrow(
      NotFoundError,
    );
    await expect(
      store.createHandoffEntry(
        handoffDraft({ fields: { project: "", question: "q", tried: "t", needed: "n" } }),
      ),
    ).rejects.toThrow(/project: which project/);
    await expect(store.createHandoffEntry(handoffDraft({ issue_number: 0 }))).rejects.toThrow(
      InvalidInputError,
    );
    await store.createHandoffEntry(handoffDraft());
    await store.close();
    const db = new Database(databaseFile());
    expect(() => db.prepare("DELETE FROM handoff_entries").run()).toThrow(/never deleted/);
    expect(() => db.prepare("UPDATE handoff_entries SET state = 'resolved'").run()).toThrow(
      /bump version/,
    );
    expect(() => db.prepare("DELETE FROM handoff_entry_events").run()).toThrow(/append-only/);
    db.close();
  });
});

describe("audit log", () => {
  it("appends, lists by subject and kind, and refuses UPDATE and DELETE", async () => {
    const store = SqliteStore.open(databaseFile());
    const a = await store.appendAudit({
      kind: "gate.decision",
      subject: "octo/repo#12@aaa",
      decision: { state: "accepted" },
      facts: { commands: [{ name: "test", exit_code: 0 }] },
      at: "2025-01-01T00:00:00.000Z",
    });
    const b = await store.appendAudit({
      kind: "entry.transition",
      subject: "octo/repo#7",
      decision: null,
      facts: [],
      at: "2025-01-01T00:00:01.000Z",
    });
    await expect(
      store.appendAudit({
        kind: "gate.decision",
        subject: "x",
        decision: 1,
        facts: 1,
        at: "today",
      }),
    ).rejects.toThrow(InvalidInputError);
    const d = await store.appendAudit({
      kind: "gate.decision",
      subject: "octo/repo#12@aaa",
      decision: { state: "rejected" },
      facts: {},
      at: "2025-01-01T00:00:03.000Z",
    });
    await store.close();

    const reader = SqliteStore.open(databaseFile());
    expect(await reader.listAudit()).toEqual([a, b, d]);
    expect(await reader.listAudit({ subject: "octo/repo#12@aaa" })).toEqual([a, d]);
    expect(await reader.listAudit({ kind: "entry.transition" })).toEqual([b]);
    expect(
      await reader.listAudit({ subject: "octo/repo#12@aaa", order: "desc", limit: 1 }),
    ).toEqual([d]);
    await reader.close();

    const db = new Database(databaseFile());
    expect(() => db.prepare("UPDATE audit_log SET decision = 'null'").run()).toThrow(/append-only/);
    expect(() => db.prepare("DELETE FROM audit_log").run()).toThrow(/append-only/);
    db.close();
  });
});
