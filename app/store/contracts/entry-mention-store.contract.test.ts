/**
 * The EntryMentionStore port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import {
  type OpenContractDatabase,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import type { EntryMentionStore } from "../ports/entry-mention-store.js";
import type { JobQueue } from "../ports/job-queue.js";

const PR = { repository: "octo/repo", pullNumber: 12 };

function entryMentionStoreContract(
  backend: string,
  open: OpenContractDatabase<EntryMentionStore & JobQueue>,
): void {
  describe(`EntryMentionStore contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("replaces a pull request's set whole and returns the one it replaced", async () => {
      const store = t.port;
      expect(await store.listEntryMentions(PR)).toEqual([]);
      expect(await store.replaceEntryMentions({ ...PR, issues: [9, 3, 9] })).toEqual([]);
      expect(await store.listEntryMentions(PR)).toEqual([3, 9]);
      expect(await store.replaceEntryMentions({ ...PR, issues: [4, 3] })).toEqual([3, 9]);
      expect(await store.listEntryMentions(PR)).toEqual([3, 4]);
      expect(await store.replaceEntryMentions({ ...PR, issues: [] })).toEqual([3, 4]);
      expect(await store.listEntryMentions(PR)).toEqual([]);
      expect(await store.replaceEntryMentions({ ...PR, issues: [] })).toEqual([]);
    });

    it("finds the pull requests that mention an issue, per repository", async () => {
      const store = t.port;
      await store.replaceEntryMentions({ ...PR, issues: [3, 7] });
      await store.replaceEntryMentions({ ...PR, pullNumber: 5, issues: [7] });
      await store.replaceEntryMentions({ repository: "octo/other", pullNumber: 6, issues: [7] });
      expect(
        await store.listMentioningPullRequests({ repository: "octo/repo", issueNumber: 7 }),
      ).toEqual([5, 12]);
      expect(
        await store.listMentioningPullRequests({ repository: "octo/repo", issueNumber: 3 }),
      ).toEqual([12]);
      expect(
        await store.listMentioningPullRequests({ repository: "octo/other", issueNumber: 7 }),
      ).toEqual([6]);
      expect(
        await store.listMentioningPullRequests({ repository: "octo/repo", issueNumber: 4 }),
      ).toEqual([]);
      // Another pull request's replacement leaves this one's alone.
      await store.replaceEntryMentions({ ...PR, pullNumber: 5, issues: [] });
      expect(
        await store.listMentioningPullRequests({ repository: "octo/repo", issueNumber: 7 }),
      ).toEqual([12]);
      // Seen from another connection: it is stored, not held in one.
      const other = await t.connect();
      expect(await other.listEntryMentions(PR)).toEqual([3, 7]);
    });

    it("refuses a number that is no issue's, writing nothing", async () => {
      const store = t.port;
      await store.replaceEntryMentions({ ...PR, issues: [3] });
      await expect(store.replaceEntryMentions({ ...PR, issues: [4, 0] })).rejects.toThrow(/issues/);
      await expect(store.replaceEntryMentions({ ...PR, issues: [2_147_483_648] })).rejects.toThrow(
        /issues/,
      );
      await expect(
        store.replaceEntryMentions({ ...PR, pullNumber: -1, issues: [4] }),
      ).rejects.toThrow(/pull_number/);
      expect(await store.listEntryMentions(PR)).toEqual([3]);
    });

    it("enqueues the jobs given with the mentions in the same write; a malformed job is refused before anything is written", async () => {
      const store = t.port;
      const job = { kind: "entries.entry", payload: { n: 1 }, concurrency_key: "octo/repo#3" };
      expect(await store.replaceEntryMentions({ ...PR, issues: [3], jobs: [job, job] })).toEqual(
        [],
      );
      const queued = await store.listJobs({ kind: "entries.entry" });
      expect(queued.map((j) => [j.payload, j.concurrency_key, j.status])).toEqual([
        [{ n: 1 }, "octo/repo#3", "queued"],
        [{ n: 1 }, "octo/repo#3", "queued"],
      ]);
      await expect(
        store.replaceEntryMentions({
          ...PR,
          issues: [4],
          jobs: [job, { kind: "", payload: null } as unknown as typeof job],
        }),
      ).rejects.toThrow(/jobs of entry mentions/);
      expect(await store.listEntryMentions(PR)).toEqual([3]);
      expect(await store.listJobs({ kind: "entries.entry" })).toHaveLength(2);
    });
  });
}

for (const backend of STORE_BACKENDS) entryMentionStoreContract(backend.name, backend.open);
