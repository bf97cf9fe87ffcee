/**
 * The WriteIntentLedger port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import type { WriteIntentInput } from "../../../schemas/store.js";
import {
  type OpenContractDatabase,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { WriteIntentLedger } from "../ports/write-intent-ledger.js";

const intent = (overrides: Partial<WriteIntentInput> = {}): WriteIntentInput => ({
  key: "reply:https://github.com/octo/repo/pull/12#issuecomment-7",
  scope: "job:3",
  repository: "octo/repo",
  target: 12,
  kind: "comment",
  body: "agate accepted `abc1234` on the word of `lead`.",
  marker: "0123456789abcdef",
  ...overrides,
});

function writeIntentLedgerContract(
  backend: string,
  open: OpenContractDatabase<WriteIntentLedger>,
): void {
  describe(`WriteIntentLedger contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("records an intent once per key: the first one's body and marker stand", async () => {
      const first = await t.port.recordWriteIntent(intent());
      expect(first).toEqual({
        created: true,
        intent: {
          ...intent(),
          id: first.intent.id,
          recorded_at: t.clock.now().toISOString(),
          github_id: null,
          done_at: null,
        },
      });
      t.clock.advance(5_000);
      const other = await t.connect();
      // A retry of the same job computes its reply again, perhaps differently: the first is kept.
      const again = await other.recordWriteIntent(
        intent({ body: "something else", marker: "fedcba9876543210" }),
      );
      expect(again).toEqual({ created: false, intent: first.intent });
    });

    it("completes an intent with GitHub's id, once; pending ones are listed by scope, oldest first", async () => {
      const a = (await t.port.recordWriteIntent(intent())).intent;
      const b = (await t.port.recordWriteIntent(intent({ key: "b", marker: "b".repeat(16) })))
        .intent;
      await t.port.recordWriteIntent(intent({ key: "c", scope: "job:4", marker: "c".repeat(32) }));
      expect(await t.port.listPendingWriteIntents({ scope: "job:3" })).toEqual([a, b]);

      t.clock.advance(1_000);
      const done = await t.port.completeWriteIntent({ key: a.key, githubId: 9_000_000_001 });
      expect(done).toEqual({
        ...a,
        github_id: 9_000_000_001,
        done_at: t.clock.now().toISOString(),
      });
      // The same answer again (a retry that found its comment) changes nothing.
      t.clock.advance(1_000);
      expect(await t.port.completeWriteIntent({ key: a.key, githubId: 9_000_000_001 })).toEqual(
        done,
      );
      expect((await t.port.recordWriteIntent(intent())).intent).toEqual(done);
      expect(await t.port.listPendingWriteIntents({ scope: "job:3" })).toEqual([b]);
      // Another id for the same intent would be a second write: refused, the first kept.
      await expect(t.port.completeWriteIntent({ key: a.key, githubId: 5 })).rejects.toThrow(
        InvalidInputError,
      );
      await expect(t.port.completeWriteIntent({ key: "nothing", githubId: 5 })).rejects.toThrow(
        NotFoundError,
      );
    });

    it("refuses an intent outside the schema, naming the field, and records nothing", async () => {
      await expect(t.port.recordWriteIntent(intent({ marker: "not hex" }))).rejects.toThrow(
        /marker/,
      );
      await expect(t.port.recordWriteIntent(intent({ target: 0 }))).rejects.toThrow(
        InvalidInputError,
      );
      expect(await t.port.listPendingWriteIntents({ scope: "job:3" })).toEqual([]);
    });
  });
}

for (const backend of STORE_BACKENDS) writeIntentLedgerContract(backend.name, backend.open);
