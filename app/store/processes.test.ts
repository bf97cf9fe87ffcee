import { describe, expect, it } from "vitest";
import { recordInput, runStoreChild, useTempDatabaseFile } from "../../test/support/store.js";
import { SqliteStore } from "./sqlite-store.js";

const databaseFile = useTempDatabaseFile();

describe("across processes", () => {
  it("claimers never get the same job and together get all of them", async () => {
    const jobs = 300;
    const store = SqliteStore.open(databaseFile());
    for (let n = 0; n < jobs; n++) await store.enqueue({ kind: "a", payload: n });
    await store.close();

    const startAt = String(Date.now() + 2000);
    const results = await Promise.all(
      ["p1", "p2", "p3", "p4"].map((worker) =>
        runStoreChild(["claim", databaseFile(), startAt, worker]),
      ),
    );
    const perProcess = results.map((result) => {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as number[];
    });
    const all = perProcess.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: jobs }, (_, i) => i + 1));

    const reader = SqliteStore.open(databaseFile());
    const done = await reader.listJobs({ status: "done" });
    await reader.close();
    expect(done).toHaveLength(jobs);
    // Each job was claimed exactly once.
    expect(done.every((job) => job.attempts === 1)).toBe(true);
  });

  it("a record survives its writer being killed the moment the write returned", async () => {
    const result = await runStoreChild(["write", databaseFile()]);
    expect(result.signal).toBe("SIGKILL");
    expect(result.stderr).toBe("");
    const { id } = JSON.parse(result.stdout) as { id: number };
    const reader = SqliteStore.open(databaseFile());
    const records = await reader.listRecords({ repository: "octo/repo", pullNumber: 12 });
    await reader.close();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ ...recordInput(), id, stale: null });
  });
});
