/**
 * Tests only: what the evaluator's bundle is built from (checks/evaluator/bundle.ts), with nothing
 * in it but the pull request's identity, so a test names only what it is about.
 */
import type { BundleInput } from "../../checks/evaluator/bundle.js";

export function bundleInput(overrides: Partial<BundleInput> = {}): BundleInput {
  return {
    repository: "octo/repo",
    pullNumber: 7,
    baseSha: "a".repeat(40),
    headSha: "b".repeat(40),
    treeSha: "c".repeat(40),
    title: "t",
    body: "",
    issues: [],
    instructions: [],
    rubric: "",
    minScore: 0.8,
    files: [],
    unlisted: [],
    commands: [],
    handoff: null,
    tokenLimit: 60_000,
    ...overrides,
  };
}
