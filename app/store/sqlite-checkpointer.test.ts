import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  delivery,
  job,
  payloadOf,
  runStoreChild,
  useTempDatabaseFile,
} from "../../test/support/store.js";
import { SqliteCheckpointer } from "./sqlite-checkpointer.js";
import { SqliteStore } from "./sqlite-store.js";

const record = (store: SqliteStore, id: string) => {
  const payload = payloadOf(`${id} ${"x".repeat(6000)}`);
  return store.recordDelivery({ delivery: delivery(id, payload), payload, jobs: [job("k")] });
};

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("SQLite checkpoints on their own thread", () => {
  const databaseFile = useTempDatabaseFile();

  it("run off the writer's connection once it has committed enough; what was committed is read back whole", async () => {
    const file = databaseFile();
    const store = SqliteStore.open(file, { checkpointThreadAfter: 5 });
    for (let i = 0; i < 4; i++) await record(store, `d-${i}`);
    // A store that writes little never starts the thread: SQLite checkpoints as by default.
    expect(store.checkpoints()).toMatchObject({ running: false, checkpoints: 0 });
    for (let i = 4; i < 120; i++) await record(store, `d-${i}`);
    expect(store.checkpoints()?.running).toBe(true);
    await until(() => (store.checkpoints()?.checkpoints ?? 0) > 0);
    // Everything committed so far is in the database file: a checkpoint from a third connection
    // finds at most the frames of commits after the thread's last one.
    const reader = new Database(file);
    try {
      const [row] = reader.pragma("wal_checkpoint(PASSIVE)") as { busy: number; log: number }[];
      expect(row?.busy).toBe(0);
    } finally {
      reader.close();
    }
    await store.close();
    expect(store.checkpoints()?.failure).toBeNull();
    const again = SqliteStore.open(file);
    try {
      for (let i = 0; i < 120; i++)
        expect(await again.getDelivery(`d-${i}`), `d-${i}`).not.toBeNull();
      expect(again.checkpoints()).toMatchObject({ running: false });
    } finally {
      await again.close();
    }
  });

  it("lose no answered delivery when the process dies while they run", async () => {
    // One delivery at a time, so each is a commit of its own: the thread starts after 32 and
    // checkpoints every 40 or so while the child goes on; SIGKILL after the 400th answer.
    const file = databaseFile();
    const result = await runStoreChild(["deliveries", file, "1", "400"]);
    expect(result.stderr).toBe("");
    expect(result.signal).toBe("SIGKILL");
    const answered = result.stdout.split("\n").filter(Boolean);
    expect(answered.length).toBeGreaterThanOrEqual(400);
    const integrity = new Database(file);
    try {
      expect(integrity.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      integrity.close();
    }
    const reader = SqliteStore.open(file);
    try {
      for (const id of answered) {
        expect(await reader.getDelivery(id), id).toMatchObject({ id, payload: payloadOf(id) });
      }
    } finally {
      await reader.close();
    }
  });

  it("are not started for an in-memory database", async () => {
    const store = SqliteStore.open(":memory:", { checkpointThreadAfter: 1 });
    await record(store, "d-1");
    expect(store.checkpoints()).toBeNull();
    await store.close();
  });

  it("hand checkpoints back to the writer when the thread fails, so the WAL stays bounded", async () => {
    const file = databaseFile();
    await SqliteStore.open(file).close();
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    const checkpointer = new SqliteCheckpointer(db, file, {
      busyTimeoutMs: 1000,
      startAfterCommits: 1,
      driver: "/nonexistent/better-sqlite3",
    });
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on("warning", warned);
    checkpointer.committed();
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(8000);
    await until(() => checkpointer.state.failure !== null);
    expect(checkpointer.state.failure?.message).toMatch(/checkpoint thread stopped/);
    // The operator is told once, in the process's log.
    await until(() => warnings.length > 0);
    process.off("warning", warned);
    expect(warnings.map((w) => (w as Error & { code?: string }).code)).toEqual([
      "AGATE_SQLITE_CHECKPOINT_THREAD",
    ]);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    checkpointer.committed(); // ignored from now on: no second thread
    expect(checkpointer.state.running).toBe(false);
    await checkpointer.close();
    db.close();
  });
});
