import { describe, expect, it } from "vitest";
import { evaluationBundleSchema } from "../../schemas/evaluation.js";
import { bundleInput } from "../../test/support/bundle-input.js";
import { commandResult } from "../../test/support/gate-facts.js";
import { buildBundle, bundleCommands, estimateTokens, referencedIssues } from "./bundle.js";

const command = (name: string, tail: string) => commandResult(name, `npm run ${name}`, tail);

describe("referencedIssues", () => {
  it("puts closed issues first, keeps this repository's references only, and dedupes", () => {
    const text = "See #3 and other/repo#9. Fixes #12, resolves octo/repo#5; also #3 and #12.";
    expect(referencedIssues(text, "octo/repo")).toEqual([12, 5, 3]);
  });
  it("ignores anchors, headings and numbers inside words", () => {
    expect(referencedIssues("abc#4 https://x.dev/page#5 ## Heading", "octo/repo")).toEqual([]);
  });
});

describe("buildBundle", () => {
  it("shows a small pull request whole, within the schema, with nothing cut", () => {
    const bundle = buildBundle(bundleInput());
    expect(evaluationBundleSchema.parse(bundle)).toEqual(bundle);
    expect(bundle.diff.files[0]).toMatchObject({
      filename: "src/a.ts",
      patch: "@@ -1 +1,3 @@\n+retry",
      omitted: null,
    });
    expect(bundle.budget.cuts).toEqual([]);
    expect(bundle.budget.estimated_tokens).toBeLessThan(60_000);
    expect(bundle.budget.estimated_tokens).toBeGreaterThan(
      estimateTokens(JSON.stringify(bundle.diff)),
    );
  });

  it("keeps whole files, smallest and hand-written first, and names each one left out", () => {
    const patch = (n: number) => `@@\n${"+x\n".repeat(n)}`;
    const file = (filename: string, lines: number | null) => ({
      filename,
      previous_filename: null,
      status: "modified",
      additions: lines ?? 0,
      deletions: 0,
      patch: lines === null ? null : patch(lines),
    });
    const files = [
      file("package-lock.json", 400),
      file("src/big.ts", 3000),
      file("src/mid.ts", 500),
      file("src/small.ts", 5),
      file("img.png", null),
    ];
    const bundle = buildBundle(bundleInput({ files, tokenLimit: 3_000 }));
    const byName = new Map(bundle.diff.files.map((f) => [f.filename, f]));
    expect([...byName.keys()]).toEqual(files.map((f) => f.filename));
    expect(byName.get("src/small.ts")?.patch).toBe(patch(5));
    expect(byName.get("src/mid.ts")?.patch).toBe(patch(500));
    expect(byName.get("src/big.ts")).toMatchObject({
      patch: null,
      omitted: expect.stringContaining("per-file budget"),
    });
    // Smaller than src/mid.ts, but a lock file waits until hand-written files are in.
    expect(byName.get("package-lock.json")).toMatchObject({
      patch: null,
      omitted: "left out to keep within the token budget",
    });
    expect(byName.get("img.png")?.omitted).toMatch(/no patch/);
    expect(bundle.budget.cuts.join("\n")).toMatch(
      /1 patches left out to keep within the token budget/,
    );
    expect(bundle.budget.estimated_tokens).toBeLessThanOrEqual(3_000);
  });

  it("holds the budget for 5,000 files and says by folder what it could not even name", () => {
    const files = Array.from({ length: 300 }, (_, i) => ({
      filename: `src/module-${i}/index.ts`,
      previous_filename: null,
      status: "modified",
      additions: 40,
      deletions: 10,
      patch: `@@ -1,10 +1,40 @@\n${"+const value = compute(input);\n".repeat(40)}`,
    }));
    const unlisted = Array.from({ length: 4_700 }, (_, i) => ({
      filename: `${i % 2 ? "test" : "lib"}/file-${i}.ts`,
      status: "added",
    }));
    const bundle = buildBundle(bundleInput({ files, unlisted }));
    expect(bundle.diff.total_files).toBe(5_000);
    expect(bundle.budget.estimated_tokens).toBeLessThanOrEqual(60_000);
    expect(estimateTokens(JSON.stringify(bundle))).toBeLessThanOrEqual(60_000);
    expect(bundle.budget.cuts.join("\n")).toMatch(/files not even named: "(lib|test)\/" \(\d+\)/);
    expect(bundle.budget.cuts.join("\n")).toMatch(/4700 files beyond the 300/);
  });

  it("cuts long texts at their share and keeps the end of output tails", () => {
    const tail = `${"noise\n".repeat(5_000)}FINAL LINE`;
    const commands = bundleCommands([command("test", tail)], 10_000);
    // The job carries one character more than the bundle shows: the bundle still says it cut.
    expect(commands[0]?.tail.length).toBe(601);
    const bundle = buildBundle(
      bundleInput({ body: "B".repeat(50_000), commands, tokenLimit: 10_000 }),
    );
    expect(bundle.budget.cuts).toContain(
      'the output tail of "test" cut to its last 600 characters',
    );
    expect(bundle.task.body.length).toBeLessThan(50_000);
    expect(bundle.task.body).toMatch(/cut by agate/);
    expect(bundle.commands[0]?.tail.endsWith("FINAL LINE")).toBe(true);
    expect(bundle.budget.cuts.some((c) => c.startsWith("the pull request body cut"))).toBe(true);
    expect(bundle.budget.estimated_tokens).toBeLessThanOrEqual(10_000);
  });
});
