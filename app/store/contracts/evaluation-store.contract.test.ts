/**
 * The EvaluationStore port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import type { EvaluationInput } from "../../../schemas/evaluation.js";
import {
  evaluation,
  type OpenContractDatabase,
  overBudgetEvaluation,
  SHA_B,
  STORE_BACKENDS,
  TREE_1,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError } from "../errors.js";
import type { EvaluationStore } from "../ports/evaluation-store.js";

const PR = { repository: "octo/repo", pullNumber: 12 };

function evaluationStoreContract(
  backend: string,
  open: OpenContractDatabase<EvaluationStore>,
): void {
  describe(`EvaluationStore contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("round-trip through a reopened database, filtered by tree and by time", async () => {
      const writer = t.port;
      const first = await writer.appendEvaluation(evaluation());
      await writer.appendEvaluation(
        evaluation({
          head_sha: SHA_B,
          tree_sha: "2".repeat(40),
          outcome: { status: "failed", error: "HTTP 500", fix: "retry later" },
          at: "2025-01-02T10:00:00.000Z",
        }),
      );
      await writer.close();

      const reader = await t.connect();
      const all = await reader.listEvaluations(PR);
      expect(all.map((e) => e.id)).toEqual([first.id, first.id + 1]);
      expect(all[0]).toEqual(first);
      expect((await reader.listEvaluations({ ...PR, treeSha: TREE_1 })).map((e) => e.id)).toEqual([
        first.id,
      ]);
      const since = await reader.listEvaluations({ ...PR, since: "2025-01-02T00:00:00.000Z" });
      expect(since.map((e) => e.outcome.status)).toEqual(["failed"]);
      expect(await reader.listEvaluations({ ...PR, pullNumber: 13 })).toEqual([]);
    });

    it("compare `since` as instants, whatever offset either time is written with", async () => {
      const store = t.port;
      // 2025-01-01T23:30Z, written at +02:00: its text sorts after the cut-off's, the instant before.
      const before = await store.appendEvaluation(
        evaluation({ at: "2025-01-02T01:30:00.000+02:00" }),
      );
      // 2025-01-02T00:30Z, written at -01:00: its text sorts before the cut-off's, the instant after.
      const after = await store.appendEvaluation(
        evaluation({ at: "2025-01-01T23:30:00.000-01:00" }),
      );
      const since = await store.listEvaluations({ ...PR, since: "2025-01-02T00:00:00.000Z" });
      expect(since.map((e) => e.id)).toEqual([after.id]);
      const sinceOffset = await store.listEvaluations({
        ...PR,
        since: "2025-01-02T01:00:00+01:00",
      });
      expect(sinceOffset.map((e) => e.id)).toEqual([after.id]);
      expect((await store.listEvaluations(PR)).map((e) => e.at)).toEqual([before.at, after.at]);
      await expect(store.listEvaluations({ ...PR, since: "yesterday" })).rejects.toThrow(
        /evaluations since/,
      );
    });

    it("keep a bundle found over budget as the tree's outcome: nothing sent, the sizes kept", async () => {
      const store = t.port;
      const over = overBudgetEvaluation();
      const stored = await store.appendEvaluation(over);
      expect(stored).toEqual({ id: stored.id, ...over });
      const reader = await t.connect();
      expect(await reader.listEvaluations({ ...PR, treeSha: TREE_1 })).toEqual([stored]);
    });

    it("keep the base commit each evaluation was judged against; refuse one without it", async () => {
      const store = t.port;
      const onMain = await store.appendEvaluation(evaluation());
      const onEvil = await store.appendEvaluation(evaluation({ base_sha: SHA_B }));
      const reader = await t.connect();
      expect((await reader.listEvaluations(PR)).map((e) => e.base_sha)).toEqual([
        onMain.base_sha,
        SHA_B,
      ]);
      expect(onEvil.base_sha).toBe(SHA_B);
      const unbound = { ...evaluation(), base_sha: null } as unknown as EvaluationInput;
      await expect(store.appendEvaluation(unbound)).rejects.toThrow(InvalidInputError);
      expect(await store.listEvaluations(PR)).toHaveLength(2);
    });

    it("refuse a verdict outside the schema, writing nothing", async () => {
      const store = t.port;
      await expect(
        store.appendEvaluation(
          evaluation({
            outcome: {
              status: "verdict",
              verdict: { complete: true, score: 2, missing: [], evidence: [] },
            },
          }),
        ),
      ).rejects.toThrow(InvalidInputError);
      expect(await store.listEvaluations(PR)).toEqual([]);
    });
  });
}

for (const backend of STORE_BACKENDS) evaluationStoreContract(backend.name, backend.open);
