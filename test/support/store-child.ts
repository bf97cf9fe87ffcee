/**
 * A separate process for the store's multi-process tests (run by `runStoreChild` in store.ts,
 * with `node --import tsx`).
 *   claim <db> <startAtMs> <workerId>  claims and completes jobs until none is left; prints ids
 *   write <db>                         appends recordInput(), prints its id, then dies by SIGKILL
 *   open <db> <startAtMs>              opens (and so migrates) the database; prints the outcome
 *   deliveries <url> <inFlight> <killAfter>
 *                                      records deliveries as an intake does, inFlight at once, each
 *                                      followed by the next; prints each id the moment its promise
 *                                      resolves, and dies by SIGKILL right after the killAfter-th,
 *                                      with more in flight
 */
import { writeSync } from "node:fs";
import { openStore } from "../../app/store/open-store.js";
import { SqliteStore } from "../../app/store/sqlite-store.js";
import { delivery, job, payloadOf, recordInput } from "./store.js";

const [mode, db, startAt, workerId] = process.argv.slice(2);

/** Spin until a shared start time so the processes really overlap. */
function waitUntil(ms: number): void {
  while (Date.now() < ms) {
    // busy wait: a timer would let the processes drift apart
  }
}

async function main(): Promise<void> {
  if (!db) throw new Error("usage: store-child.ts <claim|write|open> <db> ...");
  if (mode === "claim") {
    waitUntil(Number(startAt));
    const store = SqliteStore.open(db, { busyTimeoutMs: 20_000 });
    const ids: number[] = [];
    for (;;) {
      const claimed = await store.claimJob({ workerId: workerId ?? "child", leaseMs: 600_000 });
      if (!claimed) break;
      ids.push(claimed.job.id);
      // "Work" outside any transaction, as a real worker does, so the others get the lock.
      await new Promise((resolve) => setTimeout(resolve, 1));
      await store.completeJob(claimed.lease);
    }
    await store.close();
    process.stdout.write(`${JSON.stringify(ids)}\n`);
    return;
  }
  if (mode === "write") {
    const store = SqliteStore.open(db);
    const record = await store.appendRecord(recordInput());
    process.stdout.write(`${JSON.stringify({ id: record.id })}\n`, () => {
      // No close, no exit handlers: the process dies the moment the write has returned.
      process.kill(process.pid, "SIGKILL");
    });
    return;
  }
  if (mode === "open") {
    waitUntil(Number(startAt));
    const store = SqliteStore.open(db, { busyTimeoutMs: 20_000 });
    await store.close();
    process.stdout.write("opened\n");
    return;
  }
  if (mode === "deliveries") {
    const store = await openStore({ url: db });
    const inFlight = Number(startAt);
    const killAfter = Number(workerId);
    let sent = 0;
    let answered = 0;
    const send = (): void => {
      const id = `child-${++sent}`;
      const payload = payloadOf(id);
      void store
        .recordDelivery({ delivery: delivery(id, payload), payload, jobs: [job("k"), job("k")] })
        .then(() => {
          // Synchronously, so that what is printed is exactly what was answered before the kill.
          writeSync(1, `${id}\n`);
          // No close, no exit handlers: dead at once, with deliveries still in flight.
          if (++answered === killAfter) process.kill(process.pid, "SIGKILL");
          send();
        });
    };
    for (let i = 0; i < inFlight; i++) send();
    return;
  }
  throw new Error(`unknown mode ${String(mode)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
});
