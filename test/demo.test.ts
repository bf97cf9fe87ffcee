import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

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
