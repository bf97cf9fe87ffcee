/**
 * The CheckRunLedger port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import type { AgateCheckRun } from "../../../schemas/store.js";
import {
  type OpenContractDatabase,
  SHA_A,
  SHA_B,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import type { CheckRunLedger } from "../ports/check-run-ledger.js";

const HEAD = { repository: "octo/repo", headSha: SHA_A };

const check = (id: number, conclusion: string | null): AgateCheckRun => ({
  id,
  status: conclusion === null ? "in_progress" : "completed",
  conclusion,
  title: `title ${id}`,
  summary: `summary ${id}`,
  startedAt: "2025-01-01T10:00:00Z",
  externalId: `agate:octo/repo#12@${SHA_A}`,
});

function checkRunLedgerContract(backend: string, open: OpenContractDatabase<CheckRunLedger>): void {
  describe(`CheckRunLedger contract: ${backend}`, () => {
    const t = useContractDatabase(open);
    const record = (c: AgateCheckRun, headSha = SHA_A) =>
      t.port.recordCheckRun({
        repository: "octo/repo",
        head_sha: headSha,
        check: c,
        written_at: "2025-01-01T10:00:01.000Z",
      });

    it("knows the check as last recorded, per commit", async () => {
      expect(await t.port.knownCheckRun(HEAD)).toBeNull();
      await record(check(7, null));
      await record(check(7, "success"));
      expect(await t.port.knownCheckRun(HEAD)).toEqual(check(7, "success"));
      expect(await t.port.knownCheckRun({ ...HEAD, headSha: SHA_B })).toBeNull();
      expect(await t.port.knownCheckRun({ ...HEAD, repository: "octo/other" })).toBeNull();
    });

    it("forgets the check while a write is in flight, until that write is recorded", async () => {
      await record(check(7, "success"));
      await t.port.beginCheckRunWrite(HEAD);
      // A crash here must not leave the old view believed: GitHub may already show the new one.
      expect(await t.port.knownCheckRun(HEAD)).toBeNull();
      const other = await t.connect();
      expect(await other.knownCheckRun(HEAD)).toBeNull();
      await record(check(7, "failure"));
      expect(await other.knownCheckRun(HEAD)).toEqual(check(7, "failure"));
      // Beginning a write on a commit with no entry is harmless.
      await t.port.beginCheckRunWrite({ ...HEAD, headSha: SHA_B });
      expect(await t.port.knownCheckRun({ ...HEAD, headSha: SHA_B })).toBeNull();
    });

    it("refuses an entry that is not a check run, naming the field", async () => {
      await expect(record({ ...check(7, null), id: 0 })).rejects.toThrow(/id/);
    });
  });
}

for (const backend of STORE_BACKENDS) checkRunLedgerContract(backend.name, backend.open);
