/**
 * The RecordStore port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 * listRepositories also names the repositories of deliveries, so the subject is a
 * RecordStore and the DeliveryLog of the same database.
 */
import { describe, expect, it } from "vitest";
import {
  delivery,
  HOUR,
  type OpenContractDatabase,
  payloadOf,
  recordInput,
  SHA_A,
  SHA_B,
  SHA_C,
  STORE_BACKENDS,
  TREE_1,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError } from "../errors.js";
import type { DeliveryLog } from "../ports/delivery-log.js";
import type { RecordStore } from "../ports/record-store.js";

const PR = { repository: "octo/repo", pullNumber: 12 };

function recordStoreContract(
  backend: string,
  open: OpenContractDatabase<RecordStore & DeliveryLog>,
): void {
  describe(`RecordStore contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    describe("acceptance records", () => {
      it("round-trip every field, read back after reopening, filtered by head and tree", async () => {
        const input = recordInput();
        const bare = recordInput({
          head_sha: SHA_B,
          tested: null,
          commands: [],
          provenance: null,
          runner: null,
          grader: { agate_version: "0.1.0", config_digest: "e".repeat(64), evaluator: null },
          verdict: null,
          verdict_by: null,
          handoff: {
            path: "HANDOFF.md",
            required_by: ["the label long-task"],
            blob_sha: null,
            valid: false,
            status: null,
            findings: ["missing: tried"],
          },
          decision: { state: "pending", reasons: [] },
        });
        const writer = t.port;
        const first = await writer.appendRecord(input);
        const second = await writer.appendRecord(bare);
        await writer.close();

        expect(first).toEqual({
          ...input,
          id: 1,
          recorded_at: t.clock.now().toISOString(),
          stale: null,
        });
        const reader = await t.connect();
        expect(await reader.listRecords(PR)).toEqual([first, second]);
        expect(second).toMatchObject(bare);
        expect(await reader.listRecords({ ...PR, treeSha: TREE_1 })).toEqual([first]);
        expect(await reader.listRecords({ ...PR, headSha: SHA_B })).toEqual([second]);
        expect(await reader.listRecords({ ...PR, headSha: SHA_A })).toEqual([first]);
        expect(await reader.listRecords({ repository: "octo/other", pullNumber: 12 })).toEqual([]);
      });

      it("are validated before anything is written", async () => {
        const store = t.port;
        const bad = { ...recordInput(), head_sha: "not-a-sha" };
        await expect(store.appendRecord(bad)).rejects.toThrow(InvalidInputError);
        await expect(store.appendRecord(bad)).rejects.toThrow(/head_sha/);
        expect(await store.listRecords(PR)).toEqual([]);
      });

      it("are appended once per dedupe key: a retried job's second append returns its first", async () => {
        const key = { dedupeKey: `job:7@${SHA_A}:accepted` };
        const first = await t.port.appendRecord(recordInput(), key);
        t.clock.advance(1_000);
        const other = await t.connect();
        const again = await other.appendRecord(
          recordInput({ decided_at: "2025-01-01T12:00:00.000Z" }),
          key,
        );
        expect(again).toEqual(first);
        const next = await other.appendRecord(recordInput(), {
          dedupeKey: `job:8@${SHA_A}:accepted`,
        });
        expect(await other.listRecords(PR)).toEqual([first, next]);
        await expect(t.port.appendRecord(recordInput(), { dedupeKey: "" })).rejects.toThrow(
          InvalidInputError,
        );
      });

      it("become stale for every older head, once, with every field kept as it was", async () => {
        const store = t.port;
        const onA = await store.appendRecord(recordInput({ head_sha: SHA_A }));
        const rejectedA = await store.appendRecord(
          recordInput({
            head_sha: SHA_A,
            decision: { state: "rejected", reasons: ["test failed"] },
          }),
        );
        const onB = await store.appendRecord(recordInput({ head_sha: SHA_B }));
        const otherPull = await store.appendRecord(recordInput({ pull_number: 13 }));

        const at = "2025-01-02T00:00:00.000Z";
        expect(await store.markStale({ ...PR, supersededBy: SHA_B, at })).toBe(2);
        const [a1, a2, b] = await store.listRecords(PR);
        expect(a1).toEqual({ ...onA, stale: { superseded_by: SHA_B, at } });
        expect(a2).toEqual({ ...rejectedA, stale: { superseded_by: SHA_B, at } });
        expect(b).toEqual(onB);
        expect(await store.listRecords({ ...PR, pullNumber: 13 })).toEqual([otherPull]);

        // A second push marks B, and leaves A's first mark alone.
        const later = "2025-01-03T00:00:00.000Z";
        expect(await store.markStale({ ...PR, supersededBy: SHA_C, at: later })).toBe(1);
        expect(await store.markStale({ ...PR, supersededBy: SHA_C, at: later })).toBe(0);
        const records = await store.listRecords(PR);
        expect(records.map((r) => r.stale)).toEqual([
          { superseded_by: SHA_B, at },
          { superseded_by: SHA_B, at },
          { superseded_by: SHA_C, at: later },
        ]);
        // A push back to an old head (force-push) does not un-stale anything.
        expect(await store.markStale({ ...PR, supersededBy: SHA_A, at: later })).toBe(0);
        expect((await store.listRecords({ ...PR, headSha: SHA_A }))[0]?.stale).toEqual({
          superseded_by: SHA_B,
          at,
        });
        // Appending never touches older rows.
        const fresh = await store.appendRecord(recordInput({ head_sha: SHA_C }));
        expect(fresh.stale).toBeNull();
        expect((await store.listRecords(PR)).slice(0, 3)).toEqual(records);
      });

      it("refuse a malformed stale mark", async () => {
        await expect(
          t.port.markStale({ ...PR, supersededBy: "HEAD", at: "2025-01-02T00:00:00.000Z" }),
        ).rejects.toThrow(InvalidInputError);
      });
    });

    describe("repositories", () => {
      it("are every one agate has heard of, from deliveries (pruned too) or records, for the reconcile pass", async () => {
        const store = t.port;
        expect(await store.listRepositories()).toEqual([]);
        for (const [id, name] of [
          ["a", "octo/b"],
          ["b", "octo/a"],
          ["c", "octo/b"],
        ] as const) {
          await store.recordDelivery({
            delivery: delivery(id, payloadOf(id, name)),
            payload: payloadOf(id, name),
            jobs: [],
          });
        }
        // A payload that names no repository adds none.
        const bare = JSON.stringify({ action: "opened", number: 12 });
        await store.recordDelivery({ delivery: delivery("d", bare), payload: bare, jobs: [] });
        expect(await store.listRepositories()).toEqual(["octo/a", "octo/b"]);

        await store.appendRecord(recordInput({ repository: "octo/c" }));
        await store.appendRecord(recordInput({ repository: "octo/a" }));
        expect(await store.listRepositories()).toEqual(["octo/a", "octo/b", "octo/c"]);

        // A repository known only from a delivery whose payload was pruned is still heard of.
        t.clock.advance(HOUR);
        expect((await store.pruneDeliveryPayloads({ retentionMs: HOUR })).pruned).toBe(4);
        expect(await store.listRepositories()).toEqual(["octo/a", "octo/b", "octo/c"]);
      });
    });
  });
}

for (const backend of STORE_BACKENDS) recordStoreContract(backend.name, backend.open);
