import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { InvalidInputError, StoreError } from "./errors.js";
import { SqliteStore } from "./sqlite-store.js";
import { delivery, frozenClock, useTempDatabaseFile } from "./test-support.js";

const databaseFile = useTempDatabaseFile();

const PAYLOAD = JSON.stringify({ action: "opened", number: 12 });
const JOBS = [
  { kind: "pull_request.evaluate", payload: { pull: 12 }, concurrency_key: "octo/repo#12" },
  { kind: "labels.ensure", payload: null },
];

describe("webhook deliveries", () => {
  it("are stored with their payload and jobs, and read back after reopening", async () => {
    const clock = frozenClock();
    const writer = SqliteStore.open(databaseFile(), { now: clock.now });
    const d = delivery("d-1", PAYLOAD);
    const result = await writer.recordDelivery({ delivery: d, payload: PAYLOAD, jobs: JOBS });
    expect(result).toEqual({ status: "new", jobIds: [1, 2] });
    await writer.close();

    const reader = SqliteStore.open(databaseFile());
    expect(await reader.getDelivery("d-1")).toEqual({ ...d, payload: PAYLOAD });
    expect(await reader.getDelivery("d-2")).toBeNull();
    const jobs = await reader.listJobs({ deliveryId: "d-1" });
    expect(jobs).toEqual([
      {
        id: 1,
        kind: "pull_request.evaluate",
        payload: { pull: 12 },
        concurrency_key: "octo/repo#12",
        delivery_id: "d-1",
        status: "queued",
        attempts: 0,
        max_attempts: 8,
        run_at: clock.now().toISOString(),
        lease_owner: null,
        lease_expires_at: null,
        last_error: null,
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      },
      expect.objectContaining({
        id: 2,
        kind: "labels.ensure",
        payload: null,
        concurrency_key: null,
      }),
    ]);
    await reader.close();
  });

  it("name the repositories agate has heard of, for the reconcile pass", async () => {
    const store = SqliteStore.open(databaseFile());
    const payloadOf = (name: string) =>
      JSON.stringify({ action: "opened", repository: { full_name: name } });
    for (const [id, name] of [
      ["a", "octo/b"],
      ["b", "octo/a"],
      ["c", "octo/b"],
    ] as const) {
      await store.recordDelivery({
        delivery: delivery(id, payloadOf(name)),
        payload: payloadOf(name),
        jobs: [],
      });
    }
    await store.recordDelivery({ delivery: delivery("d", PAYLOAD), payload: PAYLOAD, jobs: [] });
    expect(await store.listRepositories()).toEqual(["octo/a", "octo/b"]);
    await store.close();
  });

  it("seen again with the same payload are duplicates and enqueue nothing", async () => {
    const store = SqliteStore.open(databaseFile());
    const d = delivery("d-1", PAYLOAD);
    await store.recordDelivery({ delivery: d, payload: PAYLOAD, jobs: JOBS });
    const again = await store.recordDelivery({
      delivery: { ...d, received_at: "2025-01-01T00:00:09.000Z" },
      payload: PAYLOAD,
      jobs: JOBS,
    });
    expect(again).toEqual({ status: "duplicate", jobIds: [1, 2] });
    expect(await store.listJobs()).toHaveLength(2);
    await store.close();
  });

  it("with a known id but another payload are a conflict and never overwrite", async () => {
    const store = SqliteStore.open(databaseFile());
    const d = delivery("d-1", PAYLOAD);
    await store.recordDelivery({ delivery: d, payload: PAYLOAD, jobs: JOBS });
    const other = JSON.stringify({ action: "closed" });
    const result = await store.recordDelivery({
      delivery: delivery("d-1", other),
      payload: other,
      jobs: JOBS,
    });
    expect(result).toEqual({ status: "conflict", jobIds: [] });
    expect(await store.getDelivery("d-1")).toEqual({ ...d, payload: PAYLOAD });
    expect(await store.listJobs()).toHaveLength(2);
    await store.close();
  });

  it("are written with their jobs or not at all", async () => {
    const store = SqliteStore.open(databaseFile());
    await store.close();
    // Make the second job's insert fail inside the transaction.
    const db = new Database(databaseFile());
    db.exec(`CREATE TRIGGER test_boom BEFORE INSERT ON jobs WHEN NEW.kind = 'boom'
             BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    db.close();
    const again = SqliteStore.open(databaseFile());
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

  it("must come with the exact payload their digest was computed from", async () => {
    const store = SqliteStore.open(databaseFile());
    const err = await store
      .recordDelivery({ delivery: delivery("d-1", PAYLOAD), payload: `${PAYLOAD} `, jobs: [] })
      .catch((error: unknown) => error);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe("payload_mismatch");
    await expect(
      store.recordDelivery({
        delivery: { ...delivery("d-1", PAYLOAD), payload_sha256: "nope" },
        payload: PAYLOAD,
        jobs: [],
      }),
    ).rejects.toThrow(InvalidInputError);
    expect(await store.getDelivery("d-1")).toBeNull();
    await store.close();
  });

  it("cannot be changed or deleted with raw SQL", async () => {
    const store = SqliteStore.open(databaseFile());
    await store.recordDelivery({ delivery: delivery("d-1", PAYLOAD), payload: PAYLOAD, jobs: [] });
    await store.close();
    const db = new Database(databaseFile());
    expect(() => db.prepare("UPDATE deliveries SET action = 'closed'").run()).toThrow(
      /append-only/,
    );
    expect(() => db.prepare("UPDATE delivery_payloads SET payload = '{}'").run()).toThrow(
      /append-only/,
    );
    expect(() => db.prepare("DELETE FROM delivery_payloads").run()).toThrow(/append-only/);
    expect(() => db.prepare("DELETE FROM deliveries").run()).toThrow(/append-only/);
    db.close();
  });
});
