import { describe, expect, it } from "vitest";
import { EVALUATOR_PROMPT_VERSION } from "../../schemas/evaluation.js";
import type { PullRequestSnapshot } from "../../schemas/gate.js";
import { useSqliteStore } from "../../test/support/sqlite-store.js";
import { DIGEST, evaluation, SHA_A, SHA_B, SHA_C, TREE_1 } from "../../test/support/store.js";
import { storedEvaluation } from "./evaluation-facts.js";

const store = useSqliteStore();

const MAIN = "d".repeat(40);
const EVIL = "e".repeat(40);
const pr = (head: string): PullRequestSnapshot => ({
  repository: "octo/repo",
  number: 12,
  state: "open",
  draft: false,
  head_sha: head,
  head_ref: "agent/x",
  base_sha: MAIN,
  base_ref: "main",
  author: { login: "codex[bot]", type: "Bot" },
  labels: [],
});

describe("storedEvaluation: a verdict binds to the tree it judged, on the base commit it judged it on", () => {
  it("reuses a verdict for any SHA of the same tree on the base commit it was judged against, never on another base, the same head included (issue 26)", async () => {
    const judged = (head: string, base: string) =>
      store().appendEvaluation({
        ...evaluation({ head_sha: head, base_sha: base, merge_base_sha: base, tree_sha: TREE_1 }),
        run: { ...evaluation().run, prompt_version: EVALUATOR_PROMPT_VERSION },
      });
    // SHA_A was judged while the pull request targeted the agent's branch (base EVIL).
    await judged(SHA_A, EVIL);
    expect(await storedEvaluation(store(), pr(SHA_A), TREE_1, MAIN, DIGEST)).toEqual({
      status: "not_asked",
    });
    expect(await storedEvaluation(store(), pr(SHA_B), TREE_1, MAIN, DIGEST)).toEqual({
      status: "not_asked",
    });
    // Judged on main's commit: it answers that head and a new SHA of the same tree there.
    await judged(SHA_A, MAIN);
    expect((await storedEvaluation(store(), pr(SHA_A), TREE_1, MAIN, DIGEST)).status).toBe(
      "judged",
    );
    expect((await storedEvaluation(store(), pr(SHA_C), TREE_1, MAIN, DIGEST)).status).toBe(
      "judged",
    );
    expect(await storedEvaluation(store(), pr(SHA_C), "2".repeat(40), MAIN, DIGEST)).toEqual({
      status: "not_asked",
    });
    // A new SHA whose diff starts at another merge base was never shown: nothing answers it.
    expect(await storedEvaluation(store(), pr(SHA_C), TREE_1, EVIL, DIGEST)).toEqual({
      status: "not_asked",
    });
  });
});
