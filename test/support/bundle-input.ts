/** A small pull request's bundle input for the evaluator's tests: one file, one passing command. */
import { type BundleInput, bundleCommands } from "../../checks/evaluator/bundle.js";
import { commandResult } from "./gate-facts.js";

const SHA = "a".repeat(40);

export function bundleInput(overrides: Partial<BundleInput> = {}): BundleInput {
  return {
    repository: "octo/repo",
    pullNumber: 7,
    baseSha: SHA,
    headSha: "b".repeat(40),
    treeSha: "c".repeat(40),
    title: "Add retries",
    body: "Fixes #12",
    issues: [{ number: 12, title: "Retries", body: "Retry 3 times and document it." }],
    instructions: [{ path: "AGENTS.md", text: "Run npm test." }],
    rubric: "Docs updated.",
    minScore: 0.8,
    files: [
      {
        filename: "src/a.ts",
        previous_filename: null,
        status: "modified",
        additions: 3,
        deletions: 1,
        patch: "@@ -1 +1,3 @@\n+retry",
      },
    ],
    unlisted: [],
    commands: bundleCommands([commandResult("test", "npm run test", "ok\n")], 60_000),
    handoff: null,
    tokenLimit: 60_000,
    ...overrides,
  };
}
