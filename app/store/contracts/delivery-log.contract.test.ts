/**
 * The DeliveryLog port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 * A delivery's jobs are enqueued with it and its retention waits for them, so the subject
 * is a DeliveryLog and the JobQueue of the same database.
 */
import { describe, expect, it } from "vitest";
import type { NewJob } from "../../../schemas/store.js";
import {
  delivery,
  HOUR,
  job,
  type OpenContractDatabase,
  payloadOf,
  receive,
  runStoreChild,
  STORE_BACKENDS,
  sixDeliveries,
  useContractDatabase,
  WEEK,
  work,
} from "../../../test/support/store.js";
import { DeliveryPrunedError, InvalidInputError, StoreError } from "../errors.js";
import type { DeliveryLog } from "../ports/delivery-log.js";
import type { JobQueue } from "../ports/job-queue.js";

const PAYLOAD = JSON.stringify({ action: "opened", number: 12 });
const JOBS = [
  { kind: "pull_request.evaluate", payload: { pull: 12 }, concurrency_key: "octo/repo#12" },
  { kind: "labels.ensure", payload: null },
];

function deliveryLogContract(
  backend: string,
  open: OpenContractDatabase<DeliveryLog & JobQueue>,
): void {
  describe(`DeliveryLog contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    describe("webhook deliveries", () => {
      it("are stored with their payload and jobs, and read back after reopening", async () => {
        const writer = t.port;
        const d = delivery("d-1", PAYLOAD);
        const result = await writer.recordDelivery({ delivery: d, payload: PAYLOAD, jobs: JOBS });
        expect(result).toEqual({ status: "new", jobIds: [1, 2] });
        await writer.close();

        const reader = await t.connect();
        expect(await reader.getDelivery("d-1")).toEqual({ ...d, payload: PAYLOAD });
        expect(await reader.getDelivery("d-2")).toBeNull();
        const now = t.clock.now().toISOString();
        expect(await reader.listJobs({ deliveryId: "d-1" })).toEqual([
          {
            id: 1,
            kind: "pull_request.evaluate",
            payload: { pull: 12 },
            concurrency_key: "octo/repo#12",
            delivery_id: "d-1",
            status: "queued",
            attempts: 0,
            max_attempts: 8,
            run_at: now,
            lease_owner: null,
            lease_expires_at: null,
            last_error: null,
            created_at: now,
            updated_at: now,
          },
          expect.objectContaining({
            id: 2,
            kind: "labels.ensure",
            payload: null,
            concurrency_key: null,
          }),
        ]);
        expect(await reader.getDeliveryRecord("d-1")).toEqual({
          ...d,
          repository: null,
          recorded_at: now,
          pruned: null,
        });
        expect(await reader.getDeliveryRecord("d-2")).toBeNull();
      });

      it("seen again with the same payload are duplicates and enqueue nothing", async () => {
        const store = t.port;
        const d = delivery("d-1", PAYLOAD);
        await store.recordDelivery({ delivery: d, payload: PAYLOAD, jobs: JOBS });
        const again = await store.recordDelivery({
          delivery: { ...d, received_at: "2025-01-01T00:00:09.000Z" },
          payload: PAYLOAD,
          jobs: JOBS,
        });
        expect(again).toEqual({ status: "duplicate", jobIds: [1, 2] });
        expect(await store.listJobs()).toHaveLength(2);
      });

      it("with a known id but another payload are a conflict and never overwrite", async () => {
        const store = t.port;
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
      });

      it("arriving at once are each recorded once; a repeat is a duplicate and another body a conflict, and neither disturbs the rest", async () => {
        const store = t.port;
        const other = JSON.stringify({ action: "closed" });
        const one = [JOBS[1] as (typeof JOBS)[number]];
        const record = (id: string, payload: string) =>
          store.recordDelivery({ delivery: delivery(id, payload), payload, jobs: one });
        // Concurrent callers: which of a pair comes first is the backend's to choose.
        const results = await Promise.all([
          ...Array.from({ length: 6 }, (_, i) => record(`c-${i}`, PAYLOAD)),
          record("c-0", PAYLOAD),
          record("c-1", other),
        ]);
        const c0 = [results[0], results[6]];
        expect(c0.map((r) => r?.status).sort()).toEqual(["duplicate", "new"]);
        expect(c0[0]?.jobIds).toEqual(c0[1]?.jobIds);
        const c1 = [results[1], results[7]];
        expect(c1.map((r) => r?.status).sort()).toEqual(["conflict", "new"]);
        expect(results.slice(2, 6).map((r) => r.status)).toEqual(["new", "new", "new", "new"]);
        const firstC1 = c1[0]?.status === "new" ? PAYLOAD : other;
        expect((await store.getDelivery("c-1"))?.payload).toBe(firstC1);
        for (const i of [0, 2, 3, 4, 5]) {
          expect((await store.getDelivery(`c-${i}`))?.payload).toBe(PAYLOAD);
        }
        const jobs = await store.listJobs();
        expect(jobs).toHaveLength(6);
        expect(new Set(jobs.map((j) => j.delivery_id))).toEqual(
          new Set(["c-0", "c-1", "c-2", "c-3", "c-4", "c-5"]),
        );
      });

      it("must come with the exact payload their digest was computed from", async () => {
        const store = t.port;
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
      });
    });

    describe("deliveries recorded at once (they share commits)", () => {
      const at = (id: string, payload = payloadOf(id), jobs: readonly NewJob[] = JOBS) => ({
        delivery: delivery(id, payload),
        payload,
        jobs,
      });

      it("are each committed before their promise resolves: a writer killed right after its answers loses none of them", async () => {
        // The child keeps 8 deliveries in flight and dies by SIGKILL right after its 20th
        // answer, with others still in flight: every delivery it printed as answered must be
        // there, whole, when the database is read again. (A delivery answered before its
        // transaction committed would be lost with the process.)
        const result = await runStoreChild(["deliveries", t.database.url, "8", "20"]);
        expect(result.stderr).toBe("");
        expect(result.signal).toBe("SIGKILL");
        const answered = result.stdout.split("\n").filter(Boolean);
        expect(answered.length).toBeGreaterThanOrEqual(20);
        const reader = await t.connect();
        for (const id of answered) {
          expect(await reader.getDelivery(id), id).toMatchObject({ id, payload: payloadOf(id) });
          expect(await reader.listJobs({ deliveryId: id }), id).toHaveLength(2);
        }
      });

      it("keep the delivery id's idempotency inside one transaction: the same id twice is new, then a duplicate or a conflict", async () => {
        const store = t.port;
        const other = payloadOf("d-1", "octo/other");
        const results = await Promise.all([
          store.recordDelivery(at("d-1")),
          store.recordDelivery(at("d-2")),
          store.recordDelivery(at("d-1")),
          store.recordDelivery(at("d-1", other)),
        ]);
        expect(results).toEqual([
          { status: "new", jobIds: [1, 2] },
          { status: "new", jobIds: [3, 4] },
          { status: "duplicate", jobIds: [1, 2] },
          { status: "conflict", jobIds: [] },
        ]);
        const reader = await t.connect();
        expect(await reader.getDelivery("d-1")).toMatchObject({ payload: payloadOf("d-1") });
        expect(await reader.listJobs()).toHaveLength(4);
      });

      it("fail alone: one the database refuses halfway leaves nothing of itself and loses none of the others", async () => {
        await t.database.refuseJobKind("refused");
        const store = t.port;
        const refused = at("d-3", payloadOf("d-3"), [job("fine"), job("refused")]);
        const results = await Promise.allSettled(
          ["d-1", "d-2", "d-3", "d-4", "d-5"].map((id) =>
            store.recordDelivery(id === "d-3" ? refused : at(id)),
          ),
        );
        expect(results.map((result) => result.status)).toEqual([
          "fulfilled",
          "fulfilled",
          "rejected",
          "fulfilled",
          "fulfilled",
        ]);
        expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/refused by the test/);
        const reader = await t.connect();
        // Its delivery row and first job went in before its second job was refused: both gone.
        expect(await reader.getDeliveryRecord("d-3")).toBeNull();
        expect(await reader.listJobs({ deliveryId: "d-3" })).toEqual([]);
        expect(await reader.listJobs({ kind: "fine" })).toEqual([]);
        for (const id of ["d-1", "d-2", "d-4", "d-5"]) {
          expect(await reader.getDelivery(id), id).toMatchObject({ id });
          expect(await reader.listJobs({ deliveryId: id }), id).toHaveLength(2);
        }
        // Sent again, once the database takes it, it is recorded as new.
        expect(
          (await store.recordDelivery(at("d-3", payloadOf("d-3"), [job("fine")]))).status,
        ).toBe("new");
      });
    });

    describe("delivery retention", () => {
      it("prunes exactly the payloads of processed deliveries older than the retention, and keeps the rest across a reopen", async () => {
        const { clock } = t;
        const store = t.port;
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

        const reader = await t.connect();
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
      });

      it("still recognises a pruned delivery sent again: same body a duplicate, another body a conflict", async () => {
        const { clock } = t;
        const store = t.port;
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
      });

      it("goes in batches of a limit, saying when there is more", async () => {
        const { clock } = t;
        const store = t.port;
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
      });

      it("refuses a retention under an hour", async () => {
        await expect(t.port.pruneDeliveryPayloads({ retentionMs: HOUR - 1 })).rejects.toThrow(
          InvalidInputError,
        );
      });
    });
  });
}

for (const backend of STORE_BACKENDS) deliveryLogContract(backend.name, backend.open);
