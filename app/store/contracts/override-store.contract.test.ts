/**
 * The OverrideStore port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import {
  type OpenContractDatabase,
  override,
  SHA_A,
  SHA_B,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError } from "../errors.js";
import type { OverrideStore } from "../ports/override-store.js";

const PR = { repository: "octo/repo", pullNumber: 12 };

function overrideStoreContract(backend: string, open: OpenContractDatabase<OverrideStore>): void {
  describe(`OverrideStore contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("keeps overrides per exact head, oldest first, across a reopen; another head has none", async () => {
      const writer = t.port;
      const first = await writer.appendOverride(override());
      const second = await writer.appendOverride(
        override({ base_ref: "release", by: "hubot", at: "2025-01-01T11:00:00.000Z" }),
      );
      await writer.appendOverride(override({ pull_number: 13 }));
      await writer.close();
      const reader = await t.connect();
      expect(await reader.listOverrides({ ...PR, headSha: SHA_A })).toEqual([first, second]);
      expect(await reader.listOverrides({ ...PR, headSha: SHA_B })).toEqual([]);
    });

    it("refuses an empty reason, writing nothing", async () => {
      const store = t.port;
      await expect(
        store.appendOverride(override({ reason: "", comment_url: null })),
      ).rejects.toThrow(InvalidInputError);
      expect(await store.listOverrides({ ...PR, headSha: SHA_A })).toEqual([]);
      const kept = await store.appendOverride(override({ reason: "reviewed", comment_url: null }));
      expect(await store.listOverrides({ ...PR, headSha: SHA_A })).toEqual([kept]);
    });

    it("appends once per dedupe key (a retried job's second append is its first), also from another connection", async () => {
      const key = { dedupeKey: "override:https://github.com/octo/repo/pull/12#issuecomment-7" };
      const first = await t.port.appendOverride(override(), key);
      const other = await t.connect();
      // The retry may read the clock and the head again: the first row stands, untouched.
      const again = await other.appendOverride(override({ at: "2025-01-01T12:00:00.000Z" }), key);
      expect(again).toEqual(first);
      const plain = await other.appendOverride(override());
      expect(await other.listOverrides({ ...PR, headSha: SHA_A })).toEqual([first, plain]);
      await expect(t.port.appendOverride(override(), { dedupeKey: "" })).rejects.toThrow(
        InvalidInputError,
      );
    });
  });
}

for (const backend of STORE_BACKENDS) overrideStoreContract(backend.name, backend.open);
