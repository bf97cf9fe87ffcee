import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { buildEvaluatorPrompt } from "../checks/evaluator/prompt.js";
import { standInVerdict } from "../scripts/demo-model.js";
import { exampleBundle } from "./support/fake-llm-server.js";

const ROOT = resolve(import.meta.dirname, "..");

describe("npm run demo (the README's quickstart)", () => {
  // The smoke run: the whole story is played by `.ci/run` (`npm run demo`); each of its later
  // steps is an end-to-end test of its own.
  it("--smoke: opened → waiting, a failing command → rejected, through the built Action and the durable App, exits 0 and leaves its database in the working directory", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "agate-demo-"));
    const child = spawn(
      join(ROOT, "node_modules", ".bin", "tsx"),
      [join(ROOT, "scripts", "demo.ts"), "--smoke"],
      {
        cwd,
        env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, "tsconfig.json") },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code, output).toBe(0);
    expect(output).toContain("✓ demo: every step of the smoke run came out as expected.");
    expect(output).toContain("▶ What the App kept");
    expect(output).not.toContain("✗");
    expect(existsSync(join(cwd, "agate-demo.db"))).toBe(true);
    rmSync(cwd, { recursive: true, force: true });
  }, 120_000);
});

describe("the demo's stand-in model", () => {
  // It reads the prompt the App really builds: a change to the prompt that hides the rubric or
  // the diff's files from it fails here, not in the middle of `npm run demo`.
  const rubric = "requires: README.md document the answer for users";
  const file = exampleBundle().diff.files[0];
  const diffOf = (...names: string[]) => ({
    ...exampleBundle().diff,
    files: names.map((filename) => ({ ...(file as NonNullable<typeof file>), filename })),
  });
  const verdictFor = (...names: string[]) =>
    standInVerdict(
      buildEvaluatorPrompt(exampleBundle({ rubric, diff: diffOf(...names) }), "b".repeat(32)).user,
    );

  it("names each required path the diff does not change as a missing item", () => {
    expect(verdictFor("src/answer.txt")).toEqual({
      complete: false,
      score: 0,
      missing: ["Change README.md: document the answer for users"],
      evidence: [],
    });
  });

  it("signs off when the diff changes every required path", () => {
    expect(verdictFor("src/answer.txt", "README.md")).toEqual({
      complete: true,
      score: 1,
      missing: [],
      evidence: ["README.md is changed"],
    });
  });
});
