import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

describe("npm run demo (the README's quickstart)", () => {
  it("runs every step as expected and exits 0, leaving its database in the working directory", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "agate-demo-"));
    const child = spawn(
      join(ROOT, "node_modules", ".bin", "tsx"),
      [join(ROOT, "scripts", "demo.ts")],
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
    expect(output).toContain("✓ demo: every step came out as expected.");
    expect(output).not.toContain("✗");
    expect(existsSync(join(cwd, "agate-demo.db"))).toBe(true);
    rmSync(cwd, { recursive: true, force: true });
  }, 120_000);
});
