import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { progressReportSchema } from "../schemas/trace.js";

const FIXTURES = join(import.meta.dirname, "..", "test", "fixtures", "traces");
const TSX = fileURLToPath(import.meta.resolve("tsx"));
const COMMAND = join(import.meta.dirname, "trace-command.ts");

/** Runs runTraceCommand in a real Node process, as the CLI's `trace` sub-command will. */
function trace(...args: string[]) {
  const scriptDir = mkdtempSync(join(tmpdir(), "agate-trace-entry-"));
  const entry = join(scriptDir, "entry.mts");
  writeFileSync(
    entry,
    `import { runTraceCommand } from ${JSON.stringify(COMMAND)};
process.exitCode = await runTraceCommand(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
});
`,
  );
  try {
    const result = spawnSync(process.execPath, ["--import", TSX, entry, ...args], {
      encoding: "utf8",
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  } finally {
    rmSync(scriptDir, { recursive: true, force: true });
  }
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("agate-gate trace FILE", () => {
  it("prints a readable report and exits 0", () => {
    const file = join(FIXTURES, "claude-code.jsonl");
    const result = trace(file);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`${file}: claude-code trace, 4 tool calls in 12 records`);
    expect(result.stdout).toContain("verdict: no stall found");
    expect(result.stdout).toMatch(/billed input tokens: \d+/);
  });

  it("--json prints the report JSON, valid by its schema", () => {
    const result = trace("--json", join(FIXTURES, "codex.jsonl"));
    expect(result.status).toBe(0);
    const report = progressReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ format: "codex", steps: 3 });
  });

  it("a stalled trace is still exit 0: the stall is in the report", () => {
    dir = mkdtempSync(join(tmpdir(), "agate-trace-cli-"));
    const file = join(dir, "loop.jsonl");
    const lines = [
      JSON.stringify({
        type: "user",
        uuid: "p",
        sessionId: "s",
        message: { role: "user", content: "wait for the jobs" },
      }),
    ];
    for (let i = 0; i < 5; i++) {
      lines.push(
        JSON.stringify({
          type: "assistant",
          uuid: `a${i}`,
          sessionId: "s",
          message: {
            id: `m${i}`,
            content: [
              {
                type: "tool_use",
                id: `t${i}`,
                name: "execute_code",
                input: { code: "print('waiting')" },
              },
            ],
          },
        }),
        JSON.stringify({
          type: "user",
          uuid: `u${i}`,
          sessionId: "s",
          message: {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: `t${i}`,
                content: JSON.stringify({
                  output: "waiting",
                  duration_seconds: i + 0.5,
                  kernel: { execution_count: i },
                }),
              },
            ],
          },
        }),
      );
    }
    writeFileSync(file, `${lines.join("\n")}\n`);
    const result = trace(file);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("verdict: busy without progress");
    expect(result.stdout).toContain("identical-streak at steps 1-5 (line 2)");
  });

  it("malformed input: exit 1, naming the line", () => {
    dir = mkdtempSync(join(tmpdir(), "agate-trace-cli-"));
    const file = join(dir, "bad.jsonl");
    writeFileSync(
      file,
      '{"timestamp":"t","type":"session_meta","payload":{}}\n{"type": "response_item",\n',
    );
    const result = trace(file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`agate: ${file}: line 2: not valid JSON`);
    expect(result.stdout).toBe("");
  });

  it("usage errors exit 2: no file, two files, an unknown option or format, a missing file", () => {
    expect(trace().status).toBe(2);
    expect(trace("a", "b").stderr).toContain("trace takes exactly one FILE, got 2");
    expect(trace("--verbose", "a").stderr).toContain("unknown option --verbose");
    const wrong = trace("--format", "aider", join(FIXTURES, "codex.jsonl"));
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(
      '--format needs one of claude-code, codex, openhands, swe-agent, mini-swe-agent, not "aider"',
    );
    const missing = trace("/nonexistent/trace.jsonl");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("cannot read /nonexistent/trace.jsonl");
  });
});
