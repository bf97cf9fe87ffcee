/**
 * A separate process for the store's multi-process tests (run by `runStoreChild` in store.ts,
 * with `node --import tsx`).
 *   claim <db> <startAtMs> <workerId>  claims and completes jobs until none is left; prints ids
 *   write <db>                         appends recordInput(), prints its id, then dies by SIGKILL
 *   open <db> <startAtMs>              opens (and so migrates) the database; prints the outcome
 */
import { SqliteStore } from "../../app/store/sqlite-store.js";
import { recordInput } from "./store.js";

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
  throw new Error(`unknown mode ${String(mode)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
});
