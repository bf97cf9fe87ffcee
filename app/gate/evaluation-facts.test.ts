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

describe("storedEvaluation: a verdict binds to the tree it judged, on the base it judged it on", () => {
  it("reuses a verdict for a new SHA of the same tree decided on the same base commit, not one given on another base (issue 26)", async () => {
    const judged = (head: string) =>
      store().appendEvaluation({
        ...evaluation({ head_sha: head, tree_sha: TREE_1, config_digest: DIGEST }),
        run: { ...evaluation().run, prompt_version: EVALUATOR_PROMPT_VERSION },
      });
    await judged(SHA_A);
    // SHA_A was decided while the pull request targeted the agent's branch (base EVIL).
    const onEvil = [{ head_sha: SHA_A, base_sha: EVIL }];
    expect(await storedEvaluation(store(), pr(SHA_B), TREE_1, DIGEST, onEvil)).toEqual({
      status: "not_asked",
    });
    // The same verdict for a head decided on main's commit is reused, and the head's own always.
    const onMain = [{ head_sha: SHA_A, base_sha: MAIN }];
    expect((await storedEvaluation(store(), pr(SHA_B), TREE_1, DIGEST, onMain)).status).toBe(
      "judged",
    );
    expect((await storedEvaluation(store(), pr(SHA_A), TREE_1, DIGEST, onEvil)).status).toBe(
      "judged",
    );
    expect((await storedEvaluation(store(), pr(SHA_C), TREE_1, DIGEST, [])).status).toBe(
      "not_asked",
    );
  });
});
