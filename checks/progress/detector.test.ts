import { describe, expect, it } from "vitest";
import { atLines, bash, claudeCall, claudePrompt } from "../../test/support/trace-records.js";
import { analyseRecords } from "./analyse.js";
import { DEFAULT_PROGRESS_THRESHOLDS } from "./detector.js";

const analyse = (records: unknown[], thresholds = {}) =>
  analyseRecords("claude-code", atLines([claudePrompt("fix the bug"), ...records]), thresholds);

const kinds = (records: unknown[], thresholds = {}) =>
  analyse(records, thresholds).findings.map((f) => [f.kind, f.from_step, f.to_step]);

/** Claude Code's Edit of `path`, whose text is `x = 1`, replacing it by `after`. */
const editX = (path: string, after: string, result = "updated") =>
  claudeCall({
    name: "Edit",
    input: { file_path: path, old_string: "x = 1", new_string: after },
    result,
    toolUseResult: { originalFile: "x = 1\n", oldString: "x = 1", newString: after },
  });

describe("seed 002: a loop guard blinded by volatile fields", () => {
  // Hermes' execute_code result: the same output, with a wall-clock duration and a kernel
  // counter that change on every call.
  const noop = (n: number) =>
    claudeCall({
      name: "execute_code",
      input: { code: "print('still waiting')" },
      result: JSON.stringify({
        status: "ok",
        output: "still waiting\n",
        duration_seconds: 0.8 + n / 1000,
        kernel: { execution_count: 17 + n },
      }),
    });

  it("the raw results all differ, so a guard that hashed them would stay silent", () => {
    const results = new Set(
      Array.from({ length: 186 }, (_, n) =>
        JSON.stringify((noop(n)[1] as { message: { content: unknown[] } }).message.content[0]),
      ),
    );
    expect(results.size).toBe(186);
  });

  it("186 identical no-op calls are flagged by the third repetition", () => {
    expect(kinds([noop(0), noop(1)].flat())).toEqual([]);
    expect(kinds([noop(0), noop(1), noop(2)].flat())).toEqual([["identical-streak", 1, 3]]);
    const report = analyse(Array.from({ length: 186 }, (_, n) => noop(n)).flat());
    const streak = report.findings.find((f) => f.kind === "identical-streak");
    expect(streak).toMatchObject({ from_step: 1, to_step: 186 });
    expect(streak?.why).toContain("186 times in a row");
    expect(report.counters.no_new_information).toBe(185);
    expect(report.stalled).toBe(true);
  });
});

describe("new information", () => {
  it("a read whose content was seen before, the same command name, exit and output, and a write that changes nothing are not new", () => {
    const report = analyse(
      [
        claudeCall({ name: "Read", input: { file_path: "a.py" }, result: "1\tx = 1" }),
        claudeCall({ name: "Read", input: { file_path: "a.py", offset: 1 }, result: "1\tx = 1" }),
        bash("grep -n foo a.py", "", 1),
        bash("grep -n bar a.py", "", 1),
        editX("a.py", "x = 1", "The file a.py has been updated."),
      ].flat(),
    );
    expect(report.counters).toMatchObject({ new_information: 2, no_new_information: 3 });
  });

  it("timestamps, durations and temp paths in output do not make it new", () => {
    const report = analyse(
      [
        bash("pytest -q", "1 failed in 0.52s at 2025-11-01T10:00:00Z (/tmp/pytest-1/x)", 1),
        bash("pytest -q", "1 failed in 0.61s at 2025-11-01T10:05:09Z (/tmp/pytest-2/x)", 1),
      ].flat(),
    );
    expect(report.counters).toMatchObject({ new_information: 1, no_new_information: 1 });
  });
});

describe("milestones", () => {
  it("a command that newly passes and a new net diff are milestones; steps since are counted", () => {
    const report = analyse(
      [
        bash("pytest -q", "1 failed", 1),
        editX("a.py", "x = 2"),
        bash("pytest -q", "1 passed", 0),
        bash("git status", "clean", 0),
      ].flat(),
    );
    expect(report.counters).toMatchObject({ milestones: 2, steps_since_last_milestone: 1 });
  });

  it("many steps without a milestone are flagged by their length (seed 001); a stale share can be asked for too", () => {
    const t = { steps_without_milestone: 10, no_new_information: 100 };
    const reads = Array.from({ length: 12 }, (_, i) => bash(`cat f${i}.py`, `content ${i}`));
    expect(kinds(reads.flat(), t)).toEqual([["no-milestone", 1, 12]]);
    expect(kinds(reads.flat(), { ...t, no_milestone_stale_share: 0.5 })).toEqual([]);
    const same = Array.from({ length: 12 }, (_, i) => bash(`grep -n x${i} a.py`, "", 1));
    expect(
      kinds(same.flat(), { ...t, identical_streak: 50, no_milestone_stale_share: 0.5 }),
    ).toEqual([["no-milestone", 1, 12]]);
  });

  it("the stretch is measured from the last milestone: a run that reaches one and then idles", () => {
    const t = { steps_without_milestone: 10, no_new_information: 100 };
    const fix = [
      bash("pytest -q", "1 failed", 1),
      bash("sed -i 's/x = 1/x = 2/' a.py", ""),
      bash("pytest -q", "1 passed", 0),
    ];
    const idle = Array.from({ length: 11 }, (_, i) => bash(`cat notes${i}.md`, `note ${i}`));
    const report = analyse([fix, idle].flat(2), t);
    expect(report.findings.map((f) => [f.kind, f.from_step, f.to_step])).toEqual([
      ["no-milestone", 4, 14],
    ]);
    expect(report.findings[0]?.why).toMatch(
      /^11 tool calls without a milestone .* after the last one/,
    );
    expect(report.findings[0]?.excerpt).toMatch(/^cat ×11; first: cat notes0\.md/);
  });
});

describe("loops and cycles", () => {
  it("A-B-A-B-A-B with unchanged results is a short cycle; with changing results it is not", () => {
    const a = () => bash("cat a.py", "a");
    const b = () => bash("python run.py", "error", 1);
    expect(kinds([a(), b(), a(), b(), a(), b()].flat())).toEqual([["short-cycle", 1, 6]]);
    const changing = [a(), b(), a(), bash("python run.py", "other", 1), a(), b()].flat();
    expect(kinds(changing)).toEqual([]);
  });

  it("edit → run → revert cycles whose tree keeps returning are flagged at the third revert", () => {
    const cycle = (n: number) =>
      [
        bash(`sed -i 's/a/debug${n}/' src/m.py`, ""),
        bash("python run.py", `out ${n}`, 1),
        bash("git checkout src/m.py", ""),
      ].flat();
    expect(kinds([cycle(1), cycle(2)].flat())).toEqual([]);
    const report = analyse([cycle(1), cycle(2), cycle(3)].flat());
    expect(report.findings.map((f) => [f.kind, f.from_step, f.to_step])).toEqual([
      ["revert-cycle", 1, 9],
    ]);
    expect(report.counters.reverts).toBe(3);
  });

  it("a revert followed by a command newly passing resets the revert count", () => {
    const steps = [
      bash("sed -i 's/a/b/' m.py", ""),
      bash("git checkout m.py", ""),
      bash("sed -i 's/a/c/' m.py", ""),
      bash("git checkout m.py", ""),
      bash("pytest", "failed", 1),
      bash("pytest", "passed", 0),
      bash("sed -i 's/a/d/' m.py", ""),
      bash("git checkout m.py", ""),
    ];
    expect(kinds(steps.flat())).toEqual([]);
  });
});

/** How a good run ends: the test fails, the fix goes in (and stays), the test passes. */
const finish = () =>
  [
    bash("pytest -q", "1 failed", 1),
    editX("fix.py", "x = 2"),
    bash("pytest -q", "1 passed", 0),
  ].flat();

describe("what must not be flagged", () => {
  it("30 reads of different content in a row, as resolved runs do", () => {
    const reads = Array.from({ length: 30 }, (_, i) =>
      bash(`sed -n '${i * 20},${i * 20 + 20}p' big.py`, `lines ${i}`),
    );
    expect(kinds([...reads.flat(), ...finish()])).toEqual([]);
  });

  it("re-running the same command after each edit (edits change the tree)", () => {
    const rounds = Array.from({ length: 9 }, (_, i) =>
      [
        bash(`cat > example.rst <<'EOF'\nversion ${i}\nEOF`, ""),
        bash("rm -rf out; sphinx-build -q . out", "build succeeded."),
        bash("cat out/index.txt", "the same output"),
      ].flat(),
    );
    expect(kinds([...rounds.flat(), ...finish()])).toEqual([]);
  });

  it("a poller whose result changes", () => {
    const polls = Array.from({ length: 10 }, (_, i) =>
      bash("gh run view 1", `in progress ${i}/10 jobs`),
    );
    expect(kinds([...polls.flat(), ...finish()])).toEqual([]);
  });

  it("infrastructure failures (rate limits, 5xx, timeouts) repeated are not stalls", () => {
    const failures = Array.from({ length: 6 }, () =>
      bash("curl https://api.example", "HTTP 503 Service Unavailable", 22),
    );
    const report = analyse(failures.flat());
    expect(report.findings).toEqual([]);
    expect(report.infrastructure_failure_count).toBe(6);
    expect(report.infrastructure_failures[0]?.kind).toBe("server-error");
  });
});

describe("budgets, in their own units", () => {
  it("counts usage repeated on several lines of one message once", () => {
    const usage = {
      input_tokens: 5,
      cache_read_input_tokens: 995,
      cache_creation_input_tokens: 0,
      output_tokens: 7,
    };
    const report = analyse(
      [
        claudeCall({
          name: "Bash",
          input: { command: "ls" },
          result: "a",
          usage,
          messageId: "msg_same",
        }),
        claudeCall({
          name: "Bash",
          input: { command: "pwd" },
          result: "/",
          usage,
          messageId: "msg_same",
        }),
      ].flat(),
    );
    expect(report.budgets).toMatchObject({
      model_calls: 1,
      input_tokens: 1000,
      cached_input_tokens: 995,
      output_tokens: 7,
      peak_context_tokens: 1000,
      tool_calls: 2,
      executed_tool_calls: 2,
      max_tool_calls_per_model_call: 2,
      max_tool_calls_per_turn: 2,
      turns: 1,
    });
  });

  it("a configured limit crossed is a budget finding, not a stall", () => {
    const report = analyse([bash("ls", "a"), bash("pwd", "/"), bash("id", "u")].flat(), {
      max_tool_calls: 2,
    });
    expect(report.findings.map((f) => [f.kind, f.why])).toEqual([
      ["budget", "tool calls: 3 is over the limit of 2"],
    ]);
    expect(report.stalled).toBe(false);
  });

  it("reports the thresholds it used, defaults filled in", () => {
    expect(analyse([]).thresholds).toEqual(DEFAULT_PROGRESS_THRESHOLDS);
    expect(analyse([], { identical_streak: 5 }).thresholds.identical_streak).toBe(5);
  });
});
