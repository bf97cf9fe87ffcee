/**
 * The AuditLog port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import {
  type OpenContractDatabase,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError } from "../errors.js";
import type { AuditLog } from "../ports/audit-log.js";

function auditLogContract(backend: string, open: OpenContractDatabase<AuditLog>): void {
  describe(`AuditLog contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("appends, and lists by subject and kind, oldest or newest first, across a reopen", async () => {
      const store = t.port;
      const a = await store.appendAudit({
        kind: "gate.decision",
        subject: "octo/repo#12@aaa",
        decision: { state: "accepted" },
        facts: { commands: [{ name: "test", exit_code: 0 }] },
        at: "2025-01-01T00:00:00.000Z",
      });
      const b = await store.appendAudit({
        kind: "entry.transition",
        subject: "octo/repo#7",
        decision: null,
        facts: [],
        at: "2025-01-01T00:00:01.000Z",
      });
      await expect(
        store.appendAudit({
          kind: "gate.decision",
          subject: "x",
          decision: 1,
          facts: 1,
          at: "today",
        }),
      ).rejects.toThrow(InvalidInputError);
      const d = await store.appendAudit({
        kind: "gate.decision",
        subject: "octo/repo#12@aaa",
        decision: { state: "rejected" },
        facts: {},
        at: "2025-01-01T00:00:03.000Z",
      });
      await store.close();

      const reader = await t.connect();
      expect(await reader.listAudit()).toEqual([a, b, d]);
      expect(await reader.listAudit({ subject: "octo/repo#12@aaa" })).toEqual([a, d]);
      expect(await reader.listAudit({ kind: "entry.transition" })).toEqual([b]);
      expect(
        await reader.listAudit({ subject: "octo/repo#12@aaa", order: "desc", limit: 1 }),
      ).toEqual([d]);
    });

    it("appends once per dedupe key: a retried job's second append returns its first", async () => {
      const entry = {
        kind: "gate.decision",
        subject: "octo/repo#12@aaa",
        decision: { state: "accepted" },
        facts: { n: 1 },
        at: "2025-01-01T00:00:00.000Z",
      };
      const first = await t.port.appendAudit(entry, { dedupeKey: "job:7" });
      const other = await t.connect();
      expect(
        await other.appendAudit(
          { ...entry, facts: { n: 2 }, at: "2025-01-01T00:00:09.000Z" },
          {
            dedupeKey: "job:7",
          },
        ),
      ).toEqual(first);
      const plain = await other.appendAudit(entry);
      expect(await other.listAudit()).toEqual([first, plain]);
    });
  });
}

for (const backend of STORE_BACKENDS) auditLogContract(backend.name, backend.open);
