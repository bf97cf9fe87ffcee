import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { EvaluationInput } from "../../schemas/evaluation.js";
import { InvalidInputError } from "./errors.js";
import { SqliteStore } from "./sqlite-store.js";
import { DIGEST, SHA_A, SHA_B, TREE_1, useTempDatabaseFile } from "./test-support.js";

const databaseFile = useTempDatabaseFile();

const PR = { repository: "octo/repo", pullNumber: 12 };

function evaluation(overrides: Partial<EvaluationInput> = {}): EvaluationInput {
  return {
    repository: "octo/repo",
    pull_number: 12,
    head_sha: SHA_A,
    tree_sha: TREE_1,
    config_digest: DIGEST,
    run: {
      kind: "llm",
      provider: "openai",
      model: "gpt-test",
      prompt_version: "agate-eval-1",
      input_tokens: 1200,
      output_tokens: 80,
      latency_ms: 950,
      requests: 1,
    },
    outcome: {
      status: "verdict",
      verdict: { complete: false, score: 0.4, missing: ["docs"], evidence: ["diff"] },
    },
    at: "2025-01-01T10:00:00.000Z",
    ...overrides,
  };
}

describe("evaluations", () => {
  it("round-trip through a reopened file, filtered by tree and by time", async () => {
    const writer = SqliteStore.open(databaseFile());
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

    const reader = SqliteStore.open(databaseFile());
    const all = await reader.listEvaluations(PR);
    expect(all.map((e) => e.id)).toEqual([first.id, first.id + 1]);
    expect(all[0]).toEqual(first);
    expect((await reader.listEvaluations({ ...PR, treeSha: TREE_1 })).map((e) => e.id)).toEqual([
      first.id,
    ]);
    const since = await reader.listEvaluations({ ...PR, since: "2025-01-02T00:00:00.000Z" });
    expect(since.map((e) => e.outcome.status)).toEqual(["failed"]);
    expect(await reader.listEvaluations({ ...PR, pullNumber: 13 })).toEqual([]);
    await reader.close();
  });

  it("refuse a verdict outside the schema and keep the table append-only", async () => {
    const store = SqliteStore.open(databaseFile());
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
    await store.appendEvaluation(evaluation());
    await store.close();
    const raw = new Database(databaseFile());
    expect(() => raw.prepare("UPDATE evaluations SET status = 'verdict'").run()).toThrow(
      /append-only/,
    );
    expect(() => raw.prepare("DELETE FROM evaluations").run()).toThrow(/append-only/);
    raw.close();
  });
});
