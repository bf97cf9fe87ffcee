import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { progressReportSchema } from "../../schemas/trace.js";
import { claudeCall, claudePrompt } from "../../test/support/trace-records.js";
import { runTraceCommand } from "./trace.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "test", "fixtures", "traces");
/**
 * Runs the sub-command in this process with its output captured: the CLI's `trace` is this
 * function and its exit code (action/cli.test.ts runs the built CLI as a process).
 */
async function trace(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const status = await runTraceCommand(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { status, stdout, stderr };
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A Claude Code trace polling the same thing `calls` times with the same result. */
function loopTrace(calls = 5): string {
  dir = mkdtempSync(join(tmpdir(), "agate-trace-cli-"));
  const file = join(dir, "loop.jsonl");
  const records: unknown[] = [claudePrompt("wait for the jobs")];
  for (let i = 0; i < calls; i++) {
    records.push(
      ...claudeCall({
        name: "execute_code",
        input: { code: "print('waiting')" },
        result: JSON.stringify({
          output: "waiting",
          duration_seconds: i + 0.5,
          kernel: { execution_count: i },
        }),
        messageId: `m${i}`,
      }),
    );
  }
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

describe("agate-gate trace FILE", () => {
  it("prints a readable report and exits 0", async () => {
    const file = join(FIXTURES, "claude-code.jsonl");
    const result = await trace(file);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`${file}: claude-code trace, 4 tool calls in 12 records`);
    expect(result.stdout).toContain("verdict: no stall found");
    expect(result.stdout).toMatch(/billed input tokens: \d+/);
  });

  it("--json prints the report JSON, valid by its schema", async () => {
    const result = await trace("--json", join(FIXTURES, "codex.jsonl"));
    expect(result.status).toBe(0);
    const report = progressReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ format: "codex", steps: 3 });
  });

  it("a stalled trace is still exit 0: the stall is in the report, the loop beside it as evidence", async () => {
    const file = loopTrace(12);
    const result = await trace(file);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("verdict: busy without progress: no milestone in steps 1–12");
    expect(result.stdout).toContain(
      "steps 1-12 (line 2), no progress (no milestone) [no-milestone, the stall]",
    );
    expect(result.stdout).toContain(
      "steps 1-12 (line 2), the same call again and again [identical-streak, evidence]",
    );
    expect(result.stdout).toContain(`what repeated: {"code":"print('waiting')"}`);
  });

  it("a loop in a run too short to judge is evidence, not a stall", async () => {
    const result = await trace(loopTrace(5));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "verdict: not stalled (no long stretch without a milestone); a loop below, shown as evidence",
    );
    expect(result.stdout).toContain("[identical-streak, evidence]");
  });

  it("--config takes the thresholds from that config's progress section", async () => {
    const file = loopTrace();
    const config = join(dir as string, "agate.yml");
    const base = "version: 1\ncommands:\n  - name: test\n    run: npm test\n";
    writeFileSync(config, `${base}progress:\n  identical_streak: 6\n  no_new_information: 6\n`);
    const relaxed = await trace(file, "--config", config);
    expect(relaxed.stderr).toBe("");
    expect(relaxed.status).toBe(0);
    expect(relaxed.stdout).toContain("verdict: no stall found");
    writeFileSync(config, `${base}progress:\n  identical_streak: 1\n`);
    const wrong = await trace(file, `--config=${config}`);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("progress.identical_streak");
    expect(wrong.stderr).toMatch(/line 6/);
    const unreadable = await trace(file, "--config", join(dir as string, "none.yml"));
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toContain("cannot read the config");
  });

  it("malformed input: exit 1, naming the line", async () => {
    dir = mkdtempSync(join(tmpdir(), "agate-trace-cli-"));
    const file = join(dir, "bad.jsonl");
    writeFileSync(
      file,
      '{"timestamp":"t","type":"session_meta","payload":{}}\n{"type": "response_item",\n',
    );
    const result = await trace(file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`agate: ${file}: line 2: not valid JSON`);
    expect(result.stdout).toBe("");
  });

  it("usage errors exit 2: no file, two files, an unknown option or format, a missing file", async () => {
    expect((await trace()).status).toBe(2);
    expect((await trace("a", "b")).stderr).toContain("trace takes exactly one FILE, got 2");
    expect((await trace("--verbose", "a")).stderr).toContain("unknown option --verbose");
    const wrong = await trace("--format", "aider", join(FIXTURES, "codex.jsonl"));
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(
      '--format needs one of claude-code, codex, openhands, swe-agent, mini-swe-agent, not "aider"',
    );
    const missing = await trace("/nonexistent/trace.jsonl");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("cannot read /nonexistent/trace.jsonl");
  });
});
