/**
 * npm run bench:evaluator — prints figures, asserts nothing.
 * The evaluator bundle and prompt for pull requests of growing size, up to 5,000 changed files
 * (300 with patches, as GitHub's compare lists at most that many; the rest by name), under the
 * default token budget: build time, prompt size and whether the budget held.
 */
import { randomBytes } from "node:crypto";
import { buildBundle, estimateTokens } from "../checks/evaluator/bundle.js";
import { buildEvaluatorPrompt } from "../checks/evaluator/prompt.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const LIMIT = 60_000;

function files(total: number) {
  const listed = Math.min(300, total);
  const patch = (i: number) =>
    `@@ -1,12 +1,${12 + (i % 40)} @@\n${"+export const value = compute(input, options);\n".repeat(12 + (i % 40))}`;
  return {
    files: Array.from({ length: listed }, (_, i) => ({
      filename: `packages/pkg-${i % 37}/src/module-${i}.ts`,
      previous_filename: null,
      status: "modified",
      additions: 12 + (i % 40),
      deletions: 3,
      patch: patch(i),
    })),
    unlisted: Array.from({ length: total - listed }, (_, i) => ({
      filename: `packages/pkg-${i % 37}/generated/file-${i}.ts`,
      status: "added",
    })),
  };
}

console.log(
  `token budget ${LIMIT} (budgets.evaluator_bundle_tokens default), ${ROUNDS} rounds each\n`,
);
console.log(
  "files | build ms (median) | prompt chars | est. tokens | patches shown | named | held",
);
for (const total of [10, 100, 1_000, 5_000]) {
  const { files: listed, unlisted } = files(total);
  const times: number[] = [];
  let last: { chars: number; tokens: number; shown: number; named: number; held: boolean } | null =
    null;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const bundle = buildBundle({
      repository: "octo/monorepo",
      pullNumber: 4242,
      baseSha: "a".repeat(40),
      headSha: "b".repeat(40),
      treeSha: "c".repeat(40),
      title: "Rename the compute API across every package",
      body: `Fixes #12.\n\n${"A long description of the change. ".repeat(200)}`,
      issues: [{ number: 12, title: "Rename compute", body: "Rename it everywhere.".repeat(50) }],
      instructions: [{ path: "AGENTS.md", text: "Run npm test before pushing.\n".repeat(100) }],
      rubric: "Every package builds; the changelog names the rename.",
      minScore: 0.8,
      files: listed,
      unlisted,
      commands: [],
      handoff: null,
      tokenLimit: LIMIT,
    });
    const prompt = buildEvaluatorPrompt(bundle, randomBytes(16).toString("hex"));
    times.push(performance.now() - started);
    const chars = prompt.system.length + prompt.user.length;
    last = {
      chars,
      tokens: estimateTokens(prompt.system + prompt.user),
      shown: bundle.diff.files.filter((f) => f.patch !== null).length,
      named: bundle.diff.files.length,
      held:
        estimateTokens(prompt.system + prompt.user) <= LIMIT &&
        bundle.budget.estimated_tokens <= LIMIT,
    };
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  if (!last) continue;
  console.log(
    `${String(total).padStart(5)} | ${median.toFixed(1).padStart(17)} | ${String(last.chars).padStart(12)} | ${String(last.tokens).padStart(11)} | ${String(last.shown).padStart(13)} | ${String(last.named).padStart(5)} | ${last.held ? "yes" : "NO"}`,
  );
}
