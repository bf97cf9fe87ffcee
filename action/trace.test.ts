import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TraceParseError } from "../checks/progress/events.js";
import {
  progressReportSchema,
  TRACE_REPORT_FILE_NAME,
  traceReportArtifactName,
  traceReportFileSchema,
} from "../schemas/trace.js";
import { claudeCall } from "../test/support/trace-records.js";
import { analyseTraceFile, readTraces, TraceFileError } from "./trace.js";
import * as upload from "./upload.js";

const FIXTURES = join(import.meta.dirname, "..", "test", "fixtures", "traces");
const SAMPLES = process.env.AGATE_TRAJECTORIES ?? "/work/shared/trajectories";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
function temp(name: string, content: string): string {
  dir ??= mkdtempSync(join(tmpdir(), "agate-trace-"));
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function parseError(promise: Promise<unknown>): Promise<TraceParseError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TraceParseError);
  return error as TraceParseError;
}

describe("reading each format (small fixtures written from the documented field maps)", () => {
  it("Claude Code session JSONL: steps, the fix as milestones, usage of a split message once", async () => {
    const report = await analyseTraceFile(join(FIXTURES, "claude-code.jsonl"));
    expect(progressReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({ format: "claude-code", records: 12, steps: 4, stalled: false });
    // The edit (a new net diff) and the test that newly passes.
    expect(report.counters.milestones).toBe(2);
    expect(report.budgets).toMatchObject({
      model_calls: 5,
      turns: 1,
      input_tokens: 2012 + 2170 + 2260 + 2330 + 2370,
      cached_input_tokens: 2012 + 2162 + 2252 + 2322,
      peak_context_tokens: 2370,
    });
  });

  it("Codex rollout JSONL: exit codes from both output forms, cumulative usage not summed", async () => {
    const report = await analyseTraceFile(join(FIXTURES, "codex.jsonl"));
    expect(report).toMatchObject({ format: "codex", steps: 3 });
    expect(report.counters.milestones).toBe(2);
    expect(report.budgets).toMatchObject({
      model_calls: 3,
      input_tokens: 17500,
      cached_input_tokens: 15000,
      output_tokens: 450,
      peak_context_tokens: 6500,
      executed_tool_calls: 3,
    });
  });

  it("OpenHands events as JSONL", async () => {
    const report = await analyseTraceFile(join(FIXTURES, "openhands.jsonl"));
    expect(report).toMatchObject({ format: "openhands", steps: 2 });
    expect(report.budgets).toMatchObject({ model_calls: 2, turns: 1, input_tokens: 6100 });
  });

  const samples = [
    [
      "swe-agent",
      "princeton-nlp-SWE-agent/tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj",
    ],
    [
      "mini-swe-agent",
      "gruckion-mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/django__django-16255/django__django-16255.traj.json",
    ],
    [
      "mini-swe-agent",
      "swe-agent-mini-swe-agent-pr816/output/deepseek_chat_test_1-100/django__django-14752/django__django-14752.traj.json",
    ],
    ["openhands", "All-Hands-AI-OpenHands/tests/runtime/trajs/basic_gui_mode.json"],
  ] as const;
  it.skipIf(!existsSync(SAMPLES)).each(samples)("the real %s sample %s", async (format, path) => {
    const report = await analyseTraceFile(join(SAMPLES, path));
    expect(report.format).toBe(format);
    expect(report.steps).toBeGreaterThan(0);
    expect(report.budgets.model_calls).toBeGreaterThanOrEqual(
      report.budgets.tool_calls > 0 ? 1 : 0,
    );
  });

  it.skipIf(!existsSync(SAMPLES))(
    "a provider timeout is an infrastructure failure, not a stall",
    async () => {
      const report = await analyseTraceFile(
        join(
          SAMPLES,
          "swe-agent-mini-swe-agent-pr816/output/deepseek_reasoner_dev/pvlib__pvlib-python-1154/pvlib__pvlib-python-1154.traj.json",
        ),
      );
      expect(report.exit_status).toBe("Timeout");
      expect(report.infrastructure_failures.map((f) => f.kind)).toEqual(["timeout"]);
      expect(report.stalled).toBe(false);
    },
  );
});

describe("every real format, as the tools write them today (fixtures written from the published formats)", () => {
  const cases = [
    ["claude-code-main.jsonl", "claude-code", 5],
    ["claude-code-subagent.jsonl", "claude-code", 1],
    ["codex-exec-command.jsonl", "codex", 3],
    ["openhands-history.json", "openhands", 4],
    ["swe-agent.traj", "swe-agent", 6],
    ["mini-swe-agent-v1.traj.json", "mini-swe-agent", 4],
    ["mini-swe-agent-v2.traj.json", "mini-swe-agent", 4],
  ] as const;
  it.each(cases)("%s is detected as %s without --format", async (name, format, steps) => {
    const report = await analyseTraceFile(join(FIXTURES, name));
    expect(report).toMatchObject({ format, steps, stalled: false });
    expect(progressReportSchema.parse(report)).toEqual(report);
  });

  it("a Claude Code main session opening with a file-history-snapshot line (no sessionId, no uuid) is detected", async () => {
    const first = readFileSync(join(FIXTURES, "claude-code-main.jsonl"), "utf8").split("\n")[0];
    expect(JSON.parse(first as string)).not.toHaveProperty("sessionId");
    const report = await analyseTraceFile(join(FIXTURES, "claude-code-main.jsonl"));
    expect(report.format).toBe("claude-code");
  });

  it("a failed Edit (String to replace not found) is not a write; the test that newly passes is a milestone", async () => {
    const report = await analyseTraceFile(join(FIXTURES, "claude-code-main.jsonl"));
    // The successful Edit survives to the end, and the test newly passes: two milestones.
    expect(report.counters.milestones).toBe(2);
  });

  it("Codex exec_command results: `Process exited with code N` is the exit code", async () => {
    const report = await analyseTraceFile(join(FIXTURES, "codex-exec-command.jsonl"));
    // The patch and the test that newly passes.
    expect(report.counters.milestones).toBe(2);
  });

  it("a JSONL trace whose first line is over 64 KiB is read as JSONL, with or without --format", async () => {
    const lines = readFileSync(join(FIXTURES, "claude-code-main.jsonl"), "utf8").split("\n");
    const snapshot = JSON.parse(lines[0] as string);
    snapshot.snapshot.trackedFileBackups = {
      "src/big.py": { originalContent: "x".repeat(200_000), version: 1 },
    };
    lines[0] = JSON.stringify(snapshot);
    expect(Buffer.byteLength(lines[0])).toBeGreaterThan(64 * 1024);
    const path = temp("huge-first-line.jsonl", lines.join("\n"));
    const unnamed = temp("huge-first-line", lines.join("\n"));
    for (const file of [path, unnamed]) {
      expect((await analyseTraceFile(file)).steps).toBe(5);
      expect((await analyseTraceFile(file, { format: "claude-code" })).steps).toBe(5);
    }
  });

  it("a line of several megabytes in the middle is read (lines of any length up to the line limit)", async () => {
    const lines = readFileSync(join(FIXTURES, "claude-code-main.jsonl"), "utf8").split("\n");
    const progress = JSON.parse(lines[6] as string);
    progress.data.fullOutput = "y".repeat(8 * 1024 * 1024);
    lines[6] = JSON.stringify(progress);
    const report = await analyseTraceFile(temp("long-line.jsonl", lines.join("\n")));
    expect(report.steps).toBe(5);
  });

  it("a pretty-printed or one-line document is still one document", async () => {
    const doc = readFileSync(join(FIXTURES, "swe-agent.traj"), "utf8");
    const oneLine = temp("one-line.traj", JSON.stringify(JSON.parse(doc)));
    expect((await analyseTraceFile(oneLine)).format).toBe("swe-agent");
    const unnamed = temp("pretty", doc);
    expect((await analyseTraceFile(unnamed)).format).toBe("swe-agent");
  });
});

describe("malformed input names the line", () => {
  it("a line that is not JSON", async () => {
    const lines = readFileSync(join(FIXTURES, "codex.jsonl"), "utf8").split("\n");
    lines.splice(4, 0, '{"timestamp": "x", "type": "response_item", "payload": {');
    const error = await parseError(analyseTraceFile(temp("broken.jsonl", lines.join("\n"))));
    expect(error.at).toBe("line 5");
    expect(error.message).toMatch(/^line 5: not valid JSON/);
  });

  it("a record of the right format with a broken shape", async () => {
    const text = `${JSON.stringify({ type: "user", uuid: "u", sessionId: "s", message: { role: "user", content: "hi" } })}\n${JSON.stringify({ type: "assistant", uuid: "a", sessionId: "s" })}\n`;
    const error = await parseError(analyseTraceFile(temp("cc.jsonl", text)));
    expect(error.message).toBe("line 2: an assistant line without a message");
  });

  it("a file in no format agate reads says which formats it does read", async () => {
    const error = await parseError(analyseTraceFile(temp("other.jsonl", '{"hello": 1}\n')));
    expect(error.message).toMatch(
      /^line 1: not a trace agate reads: expected one of claude-code, codex, openhands, swe-agent, mini-swe-agent/,
    );
  });

  it("a pretty-printed document with a syntax error names its line", async () => {
    const error = await parseError(
      analyseTraceFile(temp("x.traj", '{\n  "trajectory": [\n    {"action": "ls",,}\n  ]\n}\n')),
    );
    expect(error.message).toMatch(/^line 3: not valid JSON/);
  });

  it("a document over the size limit is refused with the limit named", async () => {
    const path = temp(
      "big.traj",
      JSON.stringify({ trajectory: [{ action: "ls", observation: "x".repeat(5000) }] }),
    );
    const error = await parseError(analyseTraceFile(path, { maxDocumentBytes: 1000 }));
    expect(error.message).toMatch(/one JSON document of \d+ bytes, over the 1000-byte limit/);
  });

  it("a JSONL line over the line limit is refused, without reading it whole", async () => {
    const good = JSON.stringify({
      type: "user",
      uuid: "u",
      sessionId: "s",
      message: { role: "user", content: "hi" },
    });
    const path = temp(
      "long.jsonl",
      `${good}\n${good}\n{"type":"user","x":"${"y".repeat(3_000_000)}"}\n`,
    );
    const error = await parseError(analyseTraceFile(path, { maxLineBytes: 1_000_000 }));
    expect(error.message).toMatch(/^line 3: longer than 1000000 bytes/);
  });

  it("a FIFO, a symlink or a missing file is a file error, never a hang", async () => {
    dir = mkdtempSync(join(tmpdir(), "agate-trace-"));
    const fifo = join(dir, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    const link = join(dir, "link.jsonl");
    symlinkSync(join(FIXTURES, "codex.jsonl"), link);
    mkdirSync(join(dir, "d"));
    for (const path of [fifo, link, join(dir, "d"), join(dir, "missing.jsonl")]) {
      if (!existsSync(path) && path === fifo) continue;
      await expect(analyseTraceFile(path)).rejects.toBeInstanceOf(TraceFileError);
    }
  });
});

describe("readTraces: never through a symbolic link", () => {
  it("a trace reached through a symlinked folder is refused and never read; a trace at its own path is read, inside the work tree or not", async () => {
    const outside = mkdtempSync(join(tmpdir(), "agate-trace-outside-"));
    dir = mkdtempSync(join(tmpdir(), "agate-trace-"));
    try {
      writeFileSync(join(outside, "secret.jsonl"), "SECRET=hunter2\n");
      symlinkSync(outside, join(dir, "traces"));
      cpSync(join(FIXTURES, "codex.jsonl"), join(dir, "ok.jsonl"));
      cpSync(join(FIXTURES, "codex.jsonl"), join(outside, "downloaded.jsonl"));
      const outcomes = await readTraces(dir, "{ok.jsonl,traces/*.jsonl}");
      const byPath = await readTraces(dir, "traces/secret.jsonl");
      const absolute = await readTraces(dir, join(dir, "traces", "secret.jsonl"));
      for (const refused of [...byPath, ...absolute]) {
        expect(refused.report).toBeNull();
        expect(refused.error).toMatch(
          /is reached through a symbolic link: agate reads a trace only at its own path/,
        );
        expect(refused.error).not.toContain("hunter2");
      }
      // The glob does not descend into the link; the workspace's own trace is read.
      expect(outcomes.map((o) => [o.source, o.error])).toEqual([["ok.jsonl", null]]);
      // A trace downloaded outside the work tree, named by its own path, is read.
      const [downloaded] = await readTraces(dir, join(outside, "downloaded.jsonl"));
      expect(downloaded?.error).toBeNull();
      expect(downloaded?.report).not.toBeNull();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("streaming", () => {
  it("reads a long JSONL trace one line at a time (20 000 calls)", async () => {
    const one = (i: number) =>
      claudeCall({
        name: "Bash",
        input: { command: `cat f${i % 500}.py` },
        result: `body ${i % 500}`,
        usage: { input_tokens: 10, output_tokens: 1 },
        messageId: `m${i}`,
      })
        .map((record) => JSON.stringify(record))
        .join("\n");
    const path = temp(
      "long.jsonl",
      `${Array.from({ length: 20_000 }, (_, i) => one(i)).join("\n")}\n`,
    );
    const report = await analyseTraceFile(path);
    expect(report.steps).toBe(20_000);
    expect(report.budgets.model_calls).toBe(20_000);
    // Past the 500 distinct files every read repeats one seen before.
    expect(report.counters.new_information).toBe(500);
    expect(report.stalled).toBe(true);
  });
});

describe("trace-report.json, as the App reads it", () => {
  it("the outcomes of a trace input, read and unread, are valid by the schema the App parses them with", async () => {
    const outcomes = await readTraces(FIXTURES, "{claude-code,codex,openhands}.jsonl");
    const missing = await readTraces(FIXTURES, "no-such-trace.jsonl");
    const file = JSON.parse(JSON.stringify([...outcomes, ...missing]));
    const parsed = traceReportFileSchema.parse(file);
    expect(parsed.map((o) => [o.source, o.report?.format ?? null, o.error === null])).toEqual([
      ["claude-code.jsonl", "claude-code", true],
      ["codex.jsonl", "codex", true],
      ["openhands.jsonl", "openhands", true],
      ["no-such-trace.jsonl", null, false],
    ]);
  });

  it("the Action uploads under the artifact and file names the App looks for", async () => {
    const uploads: { name: string; files: string[]; root: string; text: string }[] = [];
    // The artifact toolkit cannot reach a runner here: a client that keeps what it was given.
    const client = {
      DefaultArtifactClient: class {
        async uploadArtifact(name: string, files: string[], root: string) {
          uploads.push({ name, files, root, text: readFileSync(files[0] as string, "utf8") });
          return { id: 7 };
        }
      },
    } as unknown as Parameters<typeof upload.uploadTraceReport>[1]["client"];
    const tempDir = mkdtempSync(join(tmpdir(), "agate-trace-upload-"));
    try {
      const said = await upload.uploadTraceReport("[]", {
        env: { GITHUB_RUN_ATTEMPT: "3" },
        tempDir,
        client,
      });
      expect(said).toBe(`the artifact \`${traceReportArtifactName(3)}\` (id 7)`);
      expect(uploads).toHaveLength(1);
      const [only] = uploads;
      expect(only?.name).toBe(traceReportArtifactName(3));
      expect(only?.files.map((f) => relative(only.root, f))).toEqual([TRACE_REPORT_FILE_NAME]);
      expect(only?.text).toBe("[]");
    } finally {
      rmSync(tempDir, { recursive: true, force: true });
    }
  });
});
