/**
 * The JobQueue port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import {
  type OpenContractDatabase,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError, LeaseLostError, NotFoundError } from "../errors.js";
import type { JobQueue } from "../ports/job-queue.js";

const LEASE = 30_000;

function jobQueueContract(backend: string, open: OpenContractDatabase<JobQueue>): void {
  describe(`JobQueue contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("leases the oldest due job, counts the attempt, and completes it", async () => {
      const { clock, port: store } = t;
      const first = await store.enqueue({ kind: "a", payload: { n: 1 } });
      await store.enqueue({ kind: "a", payload: { n: 2 } });
      const claimed = await store.claimJob({ workerId: "w1", leaseMs: LEASE });
      expect(claimed?.lease).toEqual({ jobId: first.id, workerId: "w1", attempt: 1 });
      expect(claimed?.job).toMatchObject({
        id: first.id,
        status: "running",
        attempts: 1,
        lease_owner: "w1",
        lease_expires_at: new Date(clock.now().getTime() + LEASE).toISOString(),
      });
      if (!claimed) throw new Error("unreachable");
      const done = await store.completeJob(claimed.lease);
      expect(done).toMatchObject({ status: "done", lease_expires_at: null });
      expect((await store.claimJob({ workerId: "w1", leaseMs: LEASE }))?.job.payload).toEqual({
        n: 2,
      });
      expect(await store.claimJob({ workerId: "w1", leaseMs: LEASE })).toBeNull();
    });

    it("filters by kind", async () => {
      const store = t.port;
      await store.enqueue({ kind: "a", payload: 1 });
      const b = await store.enqueue({ kind: "b", payload: 2 });
      const claimed = await store.claimJob({ workerId: "w", leaseMs: LEASE, kinds: ["b", "c"] });
      expect(claimed?.job.id).toBe(b.id);
      expect(await store.claimJob({ workerId: "w", leaseMs: LEASE, kinds: ["c"] })).toBeNull();
    });

    it("lists jobs oldest first, by status, delivery, kind and concurrency key", async () => {
      const store = t.port;
      const a = await store.enqueue({ kind: "a", payload: 1 });
      const b = await store.enqueue({ kind: "b", payload: 2 });
      const claimed = await store.claimJob({ workerId: "w", leaseMs: LEASE });
      expect(claimed?.job.id).toBe(a.id);
      expect((await store.listJobs()).map((j) => j.id)).toEqual([a.id, b.id]);
      expect((await store.listJobs({ status: "queued" })).map((j) => j.id)).toEqual([b.id]);
      expect((await store.listJobs({ status: "running" })).map((j) => j.id)).toEqual([a.id]);
      expect(await store.listJobs({ deliveryId: "none" })).toEqual([]);
      expect((await store.listJobs({ kind: "b" })).map((j) => j.id)).toEqual([b.id]);
      expect(await store.countJobs()).toBe(2);
      expect(await store.countJobs({ status: "queued" })).toBe(1);
      expect(await store.countJobs({ status: "queued", kind: "a" })).toBe(0);
      expect(await store.countJobs({ kind: "a" })).toBe(1);
      const keyed = await store.enqueue({ kind: "b", payload: 3, concurrency_key: "octo/repo#1" });
      expect((await store.listJobs({ concurrencyKey: "octo/repo#1" })).map((j) => j.id)).toEqual([
        keyed.id,
      ]);
      expect(await store.countJobs({ concurrencyKey: "octo/repo#2" })).toBe(0);
      expect(
        await store.countJobs({ kind: "b", status: "queued", concurrencyKey: "octo/repo#1" }),
      ).toBe(1);
      expect(await store.getJob(b.id)).toEqual(b);
      expect(await store.getJob(999)).toBeNull();
    });

    it("gives two connections to the same database different jobs, and all of them", async () => {
      const store = t.port;
      const other = await t.connect();
      for (let n = 0; n < 20; n++) await store.enqueue({ kind: "a", payload: n });
      const seen: number[] = [];
      for (;;) {
        const a = await store.claimJob({ workerId: "one", leaseMs: LEASE });
        const b = await other.claimJob({ workerId: "two", leaseMs: LEASE });
        if (!a && !b) break;
        for (const claimed of [a, b]) if (claimed) seen.push(claimed.job.id);
      }
      await other.close();
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it("makes a job with an expired lease claimable again, and the old owner loses it", async () => {
      const { clock, port: store } = t;
      await store.enqueue({ kind: "a", payload: null });
      const first = await store.claimJob({ workerId: "w1", leaseMs: LEASE });
      if (!first) throw new Error("expected a job");
      clock.advance(LEASE - 1);
      expect(await store.claimJob({ workerId: "w2", leaseMs: LEASE })).toBeNull();
      clock.advance(1);
      const second = await store.claimJob({ workerId: "w2", leaseMs: LEASE });
      expect(second?.job).toMatchObject({ id: first.job.id, attempts: 2, lease_owner: "w2" });
      if (!second) throw new Error("expected a job");

      const lost = await store.completeJob(first.lease).catch((error: unknown) => error);
      expect(lost).toBeInstanceOf(LeaseLostError);
      expect((lost as Error).message).toBe(
        `cannot complete job ${first.job.id}: worker w1 no longer holds its lease (attempt 1); it ` +
          "is now leased to w2 on attempt 2, claimed after this lease expired. Stop working on it " +
          "and do not write its results.",
      );
      await expect(store.heartbeat(first.lease, LEASE)).rejects.toThrow(LeaseLostError);
      await expect(store.failJob(first.lease, "oops")).rejects.toThrow(LeaseLostError);
      expect(await store.completeJob(second.lease)).toMatchObject({ status: "done" });
      await expect(store.completeJob(second.lease)).rejects.toThrow(/it is done/);
    });

    it("tells a worker's stale execution from its newer claim of the same job", async () => {
      const { clock, port: store } = t;
      await store.enqueue({ kind: "a", payload: null });
      const first = await store.claimJob({ workerId: "w", leaseMs: LEASE });
      clock.advance(LEASE);
      const again = await store.claimJob({ workerId: "w", leaseMs: LEASE });
      if (!first || !again) throw new Error("expected claims");
      await expect(store.completeJob(first.lease)).rejects.toThrow(LeaseLostError);
      expect(await store.completeJob(again.lease)).toMatchObject({ status: "done", attempts: 2 });
    });

    it("extends a held lease with a heartbeat", async () => {
      const { clock, port: store } = t;
      await store.enqueue({ kind: "a", payload: null });
      const claimed = await store.claimJob({ workerId: "w1", leaseMs: LEASE });
      if (!claimed) throw new Error("expected a job");
      clock.advance(LEASE - 1000);
      const beat = await store.heartbeat(claimed.lease, LEASE);
      expect(beat.lease_expires_at).toBe(new Date(clock.now().getTime() + LEASE).toISOString());
      clock.advance(LEASE - 1);
      expect(await store.claimJob({ workerId: "w2", leaseMs: LEASE })).toBeNull();
    });

    it("retries a failed job no earlier than retryAt, keeping the error", async () => {
      const { clock, port: store } = t;
      await store.enqueue({ kind: "a", payload: null });
      const claimed = await store.claimJob({ workerId: "w", leaseMs: LEASE });
      if (!claimed) throw new Error("expected a job");
      const retryAt = new Date(clock.now().getTime() + 60_000);
      const failed = await store.failJob(claimed.lease, "GitHub answered 502", { retryAt });
      expect(failed).toMatchObject({
        status: "queued",
        run_at: retryAt.toISOString(),
        lease_owner: null,
        last_error: "GitHub answered 502",
      });
      clock.advance(59_999);
      expect(await store.claimJob({ workerId: "w", leaseMs: LEASE })).toBeNull();
      clock.advance(1);
      expect((await store.claimJob({ workerId: "w", leaseMs: LEASE }))?.job.attempts).toBe(2);
    });

    it("is dead after max_attempts failures, or at once when the failure is permanent", async () => {
      const store = t.port;
      const job = await store.enqueue({ kind: "a", payload: null, max_attempts: 2 });
      for (const expected of ["queued", "dead"]) {
        const claimed = await store.claimJob({ workerId: "w", leaseMs: LEASE });
        if (!claimed) throw new Error("expected a job");
        expect((await store.failJob(claimed.lease, "boom")).status).toBe(expected);
      }
      expect(await store.claimJob({ workerId: "w", leaseMs: LEASE })).toBeNull();
      expect(await store.getJob(job.id)).toMatchObject({
        status: "dead",
        attempts: 2,
        last_error: "boom",
      });

      await store.enqueue({ kind: "unknown", payload: null });
      const claimed = await store.claimJob({ workerId: "w", leaseMs: LEASE });
      if (!claimed) throw new Error("expected a job");
      expect(
        (await store.failJob(claimed.lease, "no handler for kind unknown", { permanent: true }))
          .status,
      ).toBe("dead");
    });

    it("declares dead a job whose worker died on its last attempt", async () => {
      const { clock, port: store } = t;
      const job = await store.enqueue({ kind: "a", payload: null, max_attempts: 1 });
      await store.claimJob({ workerId: "w1", leaseMs: LEASE });
      clock.advance(LEASE);
      expect(await store.claimJob({ workerId: "w2", leaseMs: LEASE })).toBeNull();
      const dead = await store.getJob(job.id);
      expect(dead?.status).toBe("dead");
      expect(dead?.last_error).toMatch(/lease of w1 expired on attempt 1 of 1/);
    });

    it("runs jobs of one concurrency key one at a time, in order", async () => {
      const { clock, port: store } = t;
      const k1 = await store.enqueue({ kind: "a", payload: 1, concurrency_key: "octo/repo#1" });
      const k2 = await store.enqueue({ kind: "a", payload: 2, concurrency_key: "octo/repo#1" });
      const free = await store.enqueue({ kind: "a", payload: 3 });
      const other = await store.enqueue({ kind: "a", payload: 4, concurrency_key: "octo/repo#2" });

      const c1 = await store.claimJob({ workerId: "w1", leaseMs: LEASE });
      const c2 = await store.claimJob({ workerId: "w2", leaseMs: LEASE });
      const c3 = await store.claimJob({ workerId: "w3", leaseMs: LEASE });
      expect([c1?.job.id, c2?.job.id, c3?.job.id]).toEqual([k1.id, free.id, other.id]);
      // k2 waits while k1 runs …
      expect(await store.claimJob({ workerId: "w4", leaseMs: LEASE })).toBeNull();
      // … and while k1 waits for its retry: order holds across failures.
      if (!c1) throw new Error("expected a job");
      await store.failJob(c1.lease, "later", { retryAt: new Date(clock.now().getTime() + 5000) });
      expect(await store.claimJob({ workerId: "w4", leaseMs: LEASE })).toBeNull();
      clock.advance(5000);
      const retry = await store.claimJob({ workerId: "w4", leaseMs: LEASE });
      expect(retry?.job.id).toBe(k1.id);
      if (!retry) throw new Error("expected a job");
      await store.completeJob(retry.lease);
      expect((await store.claimJob({ workerId: "w5", leaseMs: LEASE }))?.job.id).toBe(k2.id);
    });

    it("stores a future run_at and honours it", async () => {
      const { clock, port: store } = t;
      const later = new Date(clock.now().getTime() + 10_000);
      const job = await store.enqueue({
        kind: "timer.entry",
        payload: { issue: 7 },
        run_at: "2025-01-01T01:00:10.000+01:00",
      });
      expect(job.run_at).toBe(later.toISOString());
      expect(await store.claimJob({ workerId: "w", leaseMs: LEASE })).toBeNull();
      clock.advance(10_000);
      expect((await store.claimJob({ workerId: "w", leaseMs: LEASE }))?.job.id).toBe(job.id);
    });

    it("queues one job per dedupe key while it is queued or running, a new one after", async () => {
      const { clock, port: store } = t;
      const first = await store.enqueue({ kind: "reconcile", payload: 1 }, { dedupeKey: "r" });
      const again = await store.enqueue({ kind: "reconcile", payload: 2 }, { dedupeKey: "r" });
      expect(again).toEqual(first);
      const other = await store.enqueue({ kind: "other", payload: 3 }, { dedupeKey: "s" });
      const plain = await store.enqueue({ kind: "other", payload: 4 });
      expect(new Set([first.id, other.id, plain.id]).size).toBe(3);
      expect(await store.countJobs()).toBe(3);

      const kinds = ["reconcile"];
      const claimed = await store.claimJob({ workerId: "w", leaseMs: LEASE, kinds });
      if (claimed?.job.id !== first.id) throw new Error("expected the first job");
      // Running holds the key too (until: "finished", the default) …
      expect((await store.enqueue({ kind: "reconcile", payload: 5 }, { dedupeKey: "r" })).id).toBe(
        first.id,
      );
      // … and so does a retry; a dead or done job does not.
      const retried = await store.failJob(claimed.lease, "boom", {
        retryAt: new Date(clock.now().getTime() + 1000),
      });
      expect(retried.status).toBe("queued");
      expect((await store.enqueue({ kind: "reconcile", payload: 6 }, { dedupeKey: "r" })).id).toBe(
        first.id,
      );
      clock.advance(1000);
      const again2 = await store.claimJob({ workerId: "w", leaseMs: LEASE, kinds });
      if (again2?.job.id !== first.id) throw new Error("expected the retried job");
      await store.completeJob(again2.lease);
      const next = await store.enqueue({ kind: "reconcile", payload: 7 }, { dedupeKey: "r" });
      expect(next.id).toBeGreaterThan(plain.id);
      expect(next.payload).toBe(7);
      expect(await store.countJobs()).toBe(4);
    });

    it("lets a running job enqueue its successor under a key held until started", async () => {
      const { clock, port: store } = t;
      const opts = { dedupeKey: "reconcile", until: "started" } as const;
      const pass = await store.enqueue({ kind: "reconcile", payload: 1 }, opts);
      expect((await store.enqueue({ kind: "reconcile", payload: 2 }, opts)).id).toBe(pass.id);
      const running = await store.claimJob({ workerId: "w", leaseMs: LEASE });
      if (running?.job.id !== pass.id) throw new Error("expected the pass");
      const soon = new Date(clock.now().getTime() + 60_000).toISOString();
      const successor = await store.enqueue({ kind: "reconcile", payload: 3, run_at: soon }, opts);
      expect(successor.id).not.toBe(pass.id);
      expect((await store.enqueue({ kind: "reconcile", payload: 4 }, opts)).id).toBe(successor.id);
      // The pass fails and is retried while its successor holds the key: it gives the key up
      // and both stay queued (a retry is never lost), and the key still dedupes.
      const retried = await store.failJob(running.lease, "GitHub answered 502");
      expect(retried.status).toBe("queued");
      expect((await store.enqueue({ kind: "reconcile", payload: 5 }, opts)).id).toBe(successor.id);
      expect(
        (await store.listJobs({ kind: "reconcile", status: "queued" })).map((j) => j.id),
      ).toEqual([pass.id, successor.id]);
    });

    it("queues one job when two connections enqueue the same key at the same time", async () => {
      const store = t.port;
      const other = await t.connect();
      for (let round = 0; round < 3; round++) {
        const key = `reconcile-${round}`;
        const jobs = await Promise.all(
          Array.from({ length: 16 }, (_, n) =>
            (n % 2 === 0 ? store : other).enqueue(
              { kind: "reconcile", payload: { round, n } },
              { dedupeKey: key },
            ),
          ),
        );
        expect(new Set(jobs.map((j) => j.id)).size).toBe(1);
      }
      await other.close();
      expect(await store.countJobs({ kind: "reconcile" })).toBe(3);
    });

    it("refuses bad input with a clear error", async () => {
      const store = t.port;
      await expect(store.enqueue({ kind: "", payload: null })).rejects.toThrow(InvalidInputError);
      await expect(store.enqueue({ kind: "a", payload: null }, { dedupeKey: "" })).rejects.toThrow(
        /enqueue options/,
      );
      expect(await store.countJobs()).toBe(0);
      await expect(store.claimJob({ workerId: "w", leaseMs: 0 })).rejects.toThrow(/leaseMs/);
      await expect(store.completeJob({ jobId: 999, workerId: "w", attempt: 1 })).rejects.toThrow(
        NotFoundError,
      );
    });
  });
}

for (const backend of STORE_BACKENDS) jobQueueContract(backend.name, backend.open);
