import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const BUNDLE = resolve(import.meta.dirname, "..", "dist", "action", "index.js");

/** Runs the committed bundle the way the runner does: INPUT_* variables and a GITHUB_OUTPUT file. */
function runAction(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "agate-action-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const output = join(dir, "github-output");
  writeFileSync(output, "");
  const result = spawnSync(process.execPath, [BUNDLE], {
    cwd: dir,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      GITHUB_OUTPUT: output,
      "INPUT_WORKING-DIRECTORY": dir,
      INPUT_CONFIG: ".github/agate.yml",
    },
  });
  return { ...result, outputs: readFileSync(output, "utf8") };
}

describe("the Action bundle (dist/action/index.js)", () => {
  it("says in one line that a repository without a config has not adopted agate, and exits 0", () => {
    const result = runAction({});
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(
      "agate: no .github/agate.yml here, so this repository has not adopted agate; nothing to do.",
    );
  });

  it("validates the config and outputs its digest", () => {
    const result = runAction({
      ".github/agate.yml": "version: 1\ncommands:\n  - name: test\n    run: npm test\n",
    });
    expect(result.status).toBe(0);
    expect(result.outputs).toMatch(/^config-digest<<ghadelimiter_[\w-]+\n[0-9a-f]{64}\n/);
    expect(result.stdout).toContain("required: test: npm test");
  });

  it("fails with one annotation per problem, at the problem's line and column", () => {
    const result = runAction({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - name: test\n    run: npm test\n    timeout: 10x\nbugdets: {}\n",
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      '::error title=agate config,file=.github/agate.yml,line=5,col=14::commands[0].timeout: "10x" is not a duration such as 90s, 10m or 1h',
    );
    expect(result.stdout).toContain(
      "::error title=agate config,file=.github/agate.yml,line=6,col=1::bugdets: unknown key; did you mean budgets?",
    );
  });
});
