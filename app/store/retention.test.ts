import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { NewJob } from "../../schemas/store.js";
import { DeliveryPrunedError, InvalidInputError } from "./errors.js";
import { MIGRATIONS, migrate } from "./migrations.js";
import { SqliteStore } from "./sqlite-store.js";
import { frozenClock, type TestClock, useTempDatabaseFile } from "./test-support.js";

const databaseFile = useTempDatabaseFile();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

function payloadOf(id: string, repository = "octo/repo"): string {
  return JSON.stringify({ action: "opened", id, repository: { full_name: repository } });
}

async function receive(
  store: SqliteStore,
  clock: TestClock,
  id: string,
  jobs: NewJob[],
  payload = payloadOf(id),
) {
  const delivery = {
    id,
    event: "pull_request",
    action: "opened",
    payload_sha256: createHash("sha256").update(payload).digest("hex"),
    received_at: clock.now().toISOString(),
  };
  const result = await store.recordDelivery({ delivery, payload, jobs });
  return { delivery, payload, result };
}

/** Claims the delivery's one job and completes it, fails it for good, or leaves it running. */
async function work(store: SqliteStore, kind: string, outcome: "done" | "dead" | "running") {
  const claimed = await store.claimJob({ workerId: "w", leaseMs: HOUR, kinds: [kind] });
  if (!claimed) throw new Error(`no ${kind} job to claim`);
  if (outcome === "done") await store.completeJob(claimed.lease);
  if (outcome === "dead") await store.failJob(claimed.lease, "boom", { permanent: true });
}

const job = (kind: string): NewJob => ({ kind, payload: null });

/**
 * Five deliveries in every state (done, dead, queued, running, no job at all) and, a day later,
 * one more done; the clock left a millisecond before the first five are a week old.
 */
async function sixDeliveries(store: SqliteStore, clock: TestClock) {
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

describe("delivery retention", () => {
  it("prunes exactly the payloads of processed deliveries older than the retention, and keeps the rest across a reopen", async () => {
    const clock = frozenClock();
    const store = SqliteStore.open(databaseFile(), { now: clock.now });
    const d = await sixDeliveries(store, clock);

    // A millisecond before a week: nothing is old enough yet.
    expect(await store.pruneDeliveryPayloads({ retentionMs: WEEK })).toEqual({
      pruned: 0,
      more: false,
    });
    clock.advance(1);
    expect(await store.pruneDeliveryPayloads({ retentionMs: WEEK })).toEqual({
      pruned: 3,
      more: false,
    });
    // Nothing left to do: a second pass prunes nothing and changes nothing.
    expect(await store.pruneDeliveryPayloads({ retentionMs: WEEK })).toEqual({
      pruned: 0,
      more: false,
    });
    const prunedAt = clock.now().toISOString();
    await store.close();

    const reader = SqliteStore.open(databaseFile(), { now: clock.now });
    for (const kept of [d.queued, d.running, d.young]) {
      expect(await reader.getDelivery(kept.delivery.id)).toEqual({
        ...kept.delivery,
        payload: kept.payload,
      });
      expect((await reader.getDeliveryRecord(kept.delivery.id))?.pruned).toBeNull();
    }
    for (const gone of [d.done, d.dead, d.none]) {
      const error = await reader.getDelivery(gone.delivery.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeliveryPrunedError);
      expect((error as Error).message).toContain(
        `delivery ${gone.delivery.id} was processed, and its payload was pruned at ${prunedAt}`,
      );
      // Id, event, action, digest, received_at, repository kept; the prune is a fact of its own.
      expect(await reader.getDeliveryRecord(gone.delivery.id)).toEqual({
        ...gone.delivery,
        repository: gone === d.none ? "octo/pinged" : "octo/repo",
        recorded_at: gone.delivery.received_at,
        pruned: { pruned_at: prunedAt, retention_ms: WEEK },
      });
    }
    // The outcome is the jobs, which stay as they were.
    expect((await reader.listJobs({ deliveryId: "done" })).map((j) => j.status)).toEqual([
      "done",
      "done",
    ]);
    expect((await reader.listJobs({ deliveryId: "dead" }))[0]).toMatchObject({
      status: "dead",
      last_error: "boom",
    });
    // The reconcile pass still hears of a repository known only from a pruned delivery.
    expect(await reader.listRepositories()).toEqual(["octo/pinged", "octo/repo"]);
    await reader.close();
  });

  it("still recognises a pruned delivery sent again: same body a duplicate, another body a conflict", async () => {
    const clock = frozenClock();
    const store = SqliteStore.open(databaseFile(), { now: clock.now });
    const first = await receive(store, clock, "d-1", [job("k")]);
    await work(store, "k", "done");
    clock.advance(WEEK);
    expect((await store.pruneDeliveryPayloads({ retentionMs: WEEK })).pruned).toBe(1);

    const again = await receive(store, clock, "d-1", [job("k")], first.payload);
    expect(again.result).toEqual({ status: "duplicate", jobIds: first.result.jobIds });
    const other = await receive(store, clock, "d-1", [job("k")], payloadOf("forged"));
    expect(other.result).toEqual({ status: "conflict", jobIds: [] });
    expect(await store.listJobs()).toHaveLength(1);
    expect(await store.getDeliveryRecord("d-1")).toMatchObject({
      payload_sha256: first.delivery.payload_sha256,
      received_at: first.delivery.received_at,
    });
    await store.close();
  });

  it("goes in batches of a limit, saying when there is more", async () => {
    const clock = frozenClock();
    const store = SqliteStore.open(databaseFile(), { now: clock.now });
    for (const id of ["a", "b", "c", "d", "e"]) await receive(store, clock, id, []);
    clock.advance(HOUR);
    const limit = 2;
    expect(await store.pruneDeliveryPayloads({ retentionMs: HOUR, limit })).toEqual({
      pruned: 2,
      more: true,
    });
    expect(await store.pruneDeliveryPayloads({ retentionMs: HOUR, limit })).toEqual({
      pruned: 2,
      more: true,
    });
    expect(await store.pruneDeliveryPayloads({ retentionMs: HOUR, limit })).toEqual({
      pruned: 1,
      more: false,
    });
    await store.close();
  });

  it("refuses a retention under an hour", async () => {
    const store = SqliteStore.open(databaseFile());
    await expect(store.pruneDeliveryPayloads({ retentionMs: HOUR - 1 })).rejects.toThrow(
      InvalidInputError,
    );
    await store.close();
  });

  it("is the only change the database allows to a delivery: every other deletion or update is refused", async () => {
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

describe("migration 4", () => {
  it("moves stored payloads to their own table, keeping digests, and fills each delivery's repository", async () => {
    const file = databaseFile();
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
});
