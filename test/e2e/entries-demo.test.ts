import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");

describe("npm run demo:entries", () => {
  it("two agents through the CLI and a maintainer on the dashboard: every step as expected, exit 0", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "agate-demo-entries-"));
    const child = spawn(
      join(ROOT, "node_modules", ".bin", "tsx"),
      [join(ROOT, "scripts", "demo-entries.ts")],
      { cwd, env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, "tsconfig.json") } },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    rmSync(cwd, { recursive: true, force: true });
    expect(code, output).toBe(0);
    expect(output).toContain("✓ demo:entries: every step came out as expected.");
    expect(output).toContain("agate triage dashboard (opened by agate-sim[bot])");
    expect(output).toContain("maintainer notifications: 1 (@mo-maintainer)");
    expect(output).not.toContain("✗");
  }, 300_000);
});
