import { describe, expect, it } from "vitest";
import { atLines, bash, claudeCall, claudePrompt } from "../../test/support/trace-records.js";
import { analyseRecords } from "./analyse.js";

/**
 * Issue 29: every miss and false alarm measured on real runs, played back in the shapes the
 * real tools write. Each test failed on the detector before the issue.
 */
const analyse = (records: unknown[], thresholds = {}) =>
  analyseRecords("claude-code", atLines([claudePrompt("fix the bug"), ...records]), thresholds);
const kinds = (records: unknown[]) => analyse(records).findings.map((f) => f.kind);

const edit = (path: string, before: string, after: string) =>
  claudeCall({
    name: "Edit",
    input: { file_path: path, old_string: before, new_string: after },
    result: `The file ${path} has been updated.`,
    toolUseResult: { filePath: path, oldString: before, newString: after, originalFile: before },
  });

describe("the stall verdict rests on milestones; loops are evidence", () => {
  // Both runs below later resolved. Their loops are real and shown; the verdict is not stalled,
  // because the run reached milestones after them (on the old detector any loop finding was a
  // stall: both were false alarms on resolved runs).
  it("a no-op repeated four times, then the fix that passes: the loop is reported, the run is not stalled", () => {
    const records = [
      bash("python -m pytest tests/test_mathml.py -q", "1 failed in 0.31s", 1),
      ...Array.from({ length: 4 }, () =>
        bash("sed -i 's/return mmsubsup/return mmsubsup/' sympy/printing/mathml.py", ""),
      ),
      edit("sympy/printing/mathml.py", "return mmsubsup", "return msubsup"),
      bash("python -m pytest tests/test_mathml.py -q", "12 passed in 0.33s"),
    ].flat();
    const report = analyse(records);
    expect(report.findings.map((f) => [f.kind, f.from_step, f.to_step])).toEqual([
      ["identical-streak", 2, 5],
    ]);
    expect(report.stalled).toBe(false);
  });

  it("three attempts each restored with git checkout, then the one that works: a restore cycle shown, not a stall", () => {
    const attempt = (n: number) => [
      bash(`sed -i 's/attempt_${n - 1}/attempt_${n}/' astropy/table/table.py`, ""),
      bash("python -m pytest astropy/table/tests/test_mixin.py -q", `${n} failed`, 1),
      bash("git checkout astropy/table/table.py", ""),
    ];
    const records = [
      attempt(1),
      attempt(2),
      attempt(3),
      edit("astropy/table/table.py", "data = Column(data)", "data = data.view(NdarrayMixin)"),
      bash("python -m pytest astropy/table/tests/test_mixin.py -q", "40 passed"),
    ].flat(2);
    const report = analyse(records);
    expect(report.findings.map((f) => f.kind)).toEqual(["revert-cycle"]);
    expect(report.stalled).toBe(false);
  });

  it("the same loop never left, long enough to judge, is a stall: the idle stretch, with the loop beside it", () => {
    const records = [
      edit("src/a.py", "x = 1", "x = 2"),
      bash("python -m pytest -q", "1 failed", 1),
      ...Array.from({ length: 12 }, () => bash("python -m pytest -q", "1 failed", 1)),
    ].flat();
    const report = analyse(records);
    expect(report.stalled).toBe(true);
    expect(report.findings.map((f) => f.kind).sort()).toEqual([
      "identical-streak",
      "no-milestone",
      "no-new-information",
    ]);
    expect(report.findings.find((f) => f.kind === "no-milestone")).toMatchObject({
      from_step: 2,
      to_step: 14,
    });
  });
});

describe("false alarms on resolved runs", () => {
  it("three `git checkout <file>` that clean debug prints out of three files are one restore, not a cycle", () => {
    const records = [
      bash("sed -i '10a print(\"DEBUG a\")' src/a.py", ""),
      bash("sed -i '20a print(\"DEBUG b\")' src/b.py", ""),
      bash("sed -i '30a print(\"DEBUG c\")' src/c.py", ""),
      bash("python repro.py", "DEBUG a\nDEBUG b\nDEBUG c\nTraceback: ValueError", 1),
      bash("git checkout src/a.py", ""),
      bash("git checkout src/b.py", ""),
      bash("git checkout src/c.py", ""),
      bash("sed -i 's/x = 1/x = 2/' src/a.py", ""),
      bash("python repro.py", "ok"),
    ].flat();
    const report = analyse(records);
    expect(report.counters.reverts).toBe(1);
    expect(report.findings).toEqual([]);
  });

  it("a baseline check (revert the fix, run the failing test on the unpatched code, re-apply it) is not a cycle", () => {
    const fixed = "def f():\n    return 2\n";
    const broken = "def f():\n    return 1\n";
    const check = (n: number) => [
      bash("git checkout src/f.py", ""),
      bash(`python -m pytest tests/test_f.py::test_${n} -q`, `1 failed in 0.0${n}s`, 1),
      edit("src/f.py", broken, fixed),
      bash("python -m pytest tests -q", `${10 + n} passed`),
    ];
    const records = [edit("src/f.py", broken, fixed), check(1), check(2), check(3)].flat(2);
    const report = analyse(records);
    expect(report.counters.reverts).toBe(0);
    expect(kinds(records)).not.toContain("revert-cycle");
    // The fix survived to the end: a milestone.
    expect(report.counters.milestones).toBeGreaterThan(0);
  });

  it("git stash, run, git stash pop is a baseline check too", () => {
    const round = (n: number) => [
      bash("git stash", "Saved working directory and index state WIP on main: 1a2b3c4 base"),
      bash(`python -m pytest tests/test_f.py -q -k case${n}`, "1 failed", 1),
      bash(
        "git stash pop",
        "On branch main\nChanges not staged for commit:\n\tmodified:   src/f.py",
      ),
      bash("python -m pytest tests -q", "12 passed"),
    ];
    const records = [
      bash("sed -i 's/return 1/return 2/' src/f.py", ""),
      round(1),
      round(2),
      round(3),
    ].flat(2);
    expect(analyse(records).counters.reverts).toBe(0);
    expect(kinds(records)).not.toContain("revert-cycle");
  });
});

describe("milestones that mean progress", () => {
  const write = (path: string, content: string) =>
    claudeCall({
      name: "Write",
      input: { file_path: path, content },
      result: `File created successfully at: ${path}`,
      toolUseResult: { type: "create", filePath: path, content },
    });
  it("a scratch script nobody runs again is no milestone; one run again, or a new module, is", () => {
    const once = analyse([write("fix_v1.py", "print(1)"), bash("python fix_v1.py", "1")].flat());
    expect(once.counters.milestones).toBe(0);
    const reused = analyse(
      [
        write("reproduce.py", "import m; m.run()"),
        bash("python reproduce.py", "wrong: 1"),
        bash("python reproduce.py", "wrong: 2"),
      ].flat(),
    );
    expect(reused.counters.milestones).toBe(1);
    const module = analyse([write("src/pkg/new_module.py", "def g(): ...")].flat());
    expect(module.counters.milestones).toBe(1);
  });

  it("Claude Code's absolute paths are read against the session's cwd: /repo/fix_v1.py is scratch", () => {
    const inCwd = (records: unknown[]) =>
      records.map((r) => ({ ...(r as Record<string, unknown>), cwd: "/home/dev/repo" }));
    const scratch = analyse(inCwd(write("/home/dev/repo/fix_v1.py", "print(1)")));
    expect(scratch.counters.milestones).toBe(0);
    const module = analyse(inCwd(write("/home/dev/repo/src/pkg/m.py", "def g(): ...")));
    expect(module.counters.milestones).toBe(1);
  });
});

describe("stalls that were missed", () => {
  it("an edit → restore loop by `cp file.orig file`: 15 scratch fix scripts, 6 restores, 3 failed patch runs", () => {
    const records: unknown[] = [
      bash("cp django/db/models/query.py django/db/models/query.py.orig", ""),
    ];
    for (let n = 1; n <= 15; n++) {
      records.push(
        bash(
          `cat <<'EOF' > fix_v${n}.py\nsrc = open('django/db/models/query.py').read()\nsrc = src.replace('a${n}', 'b${n}')\nopen('django/db/models/query.py', 'w').write(src)\nEOF`,
          "",
        ),
        bash(`python fix_v${n}.py`, ""),
        bash(
          "python reproduce.py",
          `Traceback (most recent call last):\n  File "reproduce.py", line ${n}\nAssertionError: got ${n}`,
          1,
        ),
      );
      if (n % 5 === 0)
        records.push(
          bash(`patch -p1 < fix_v${n}.diff`, "Hunk #1 FAILED at 120.\n1 out of 1 hunk FAILED", 1),
        );
      if (n % 2 === 0 && n <= 12)
        records.push(bash("cp django/db/models/query.py.orig django/db/models/query.py", ""));
    }
    const report = analyse(records.flat());
    expect(report.counters.reverts).toBe(6);
    expect(report.stalled).toBe(true);
    expect(report.findings.map((f) => f.kind)).toContain("revert-cycle");
    const cycle = report.findings.find((f) => f.kind === "revert-cycle");
    expect(cycle?.excerpt).toContain("cp django/db/models/query.py.orig django/db/models/query.py");
  });

  it("a restore by any means: the old text written back with the editor, three times", () => {
    const original = "def f():\n    return 1\n";
    const attempt = (n: number) => [
      edit("src/f.py", original, `def f():\n    return ${n + 1}\n`),
      bash("python -m pytest tests/test_f.py -q", `1 failed (${n})`, 1),
      edit("src/f.py", `def f():\n    return ${n + 1}\n`, original),
    ];
    const report = analyse([attempt(1), attempt(2), attempt(3)].flat(2));
    expect(report.counters.reverts).toBe(3);
    expect(report.findings.map((f) => f.kind)).toContain("revert-cycle");
  });

  it("an OpenHands run at its iteration cap with 12 of 17 str_replace edits failing: failed edits are not writes", () => {
    const events: unknown[] = [
      { id: 0, source: "user", action: "message", args: { content: "fix it" } },
    ];
    let id = 1;
    const pair = (action: Record<string, unknown>, observation: Record<string, unknown>) => {
      const a = id++;
      events.push({ id: a, source: "agent", ...action });
      events.push({ id: id++, source: "agent", cause: a, ...observation });
    };
    const run = (n: number) =>
      pair(
        { action: "run", args: { command: "python -m pytest tests/test_views.py -q" } },
        {
          observation: "run",
          content: `F\nFAILED tests/test_views.py::test_redirect - AssertionError: 302 != 200\n1 failed in 0.${n}s`,
          extras: { metadata: { exit_code: 1, pid: 100 + n } },
        },
      );
    // Five edits work; then twelve str_replace calls fail while the same test keeps failing.
    for (let n = 0; n < 17; n++) {
      const ok = n < 5;
      pair(
        {
          action: "edit",
          args: {
            path: "/workspace/app/views.py",
            command: "str_replace",
            old_str: `a${n}`,
            new_str: `b${n}`,
          },
        },
        ok
          ? {
              observation: "edit",
              content: "The file /workspace/app/views.py has been edited.",
              extras: {
                path: "/workspace/app/views.py",
                old_content: `v${n}`,
                new_content: `v${n + 1}`,
              },
            }
          : {
              observation: "edit",
              content: `ERROR:\nNo replacement was performed, old_str \`a${n}\` did not appear verbatim in /workspace/app/views.py.`,
              extras: { path: "/workspace/app/views.py", old_content: null, new_content: null },
            },
      );
      run(n);
      if (ok) continue;
      for (const look of ["views.py", "urls.py", "tests/test_views.py"]) {
        pair(
          { action: "read", args: { path: `/workspace/app/${look}` } },
          { observation: "read", content: `${look} at attempt ${n}`, extras: { path: look } },
        );
      }
    }
    events.push({
      id: id++,
      source: "environment",
      observation: "agent_state_changed",
      content: "",
      extras: {
        agent_state: "error",
        reason:
          "RuntimeError: Agent reached maximum iteration. Current iteration: 51, max iteration: 50",
      },
    });
    const report = analyseRecords(
      "openhands",
      events.map((record, i) => ({ record, at: `event [${i}]` })),
    );
    expect(report.steps).toBe(5 * 2 + 12 * 5);
    // 5 edits worked; the 12 that failed changed nothing and are no milestones.
    expect(report.counters.milestones).toBeLessThanOrEqual(5);
    expect(report.stalled).toBe(true);
    expect(report.findings.map((f) => f.kind)).toContain("no-milestone");
  });
});

describe("seed 002 variants, 20 calls each: flagged", () => {
  const execute = (code: string, output: string, n: number) =>
    claudeCall({
      name: "execute_code",
      input: { code },
      result: JSON.stringify({
        status: "ok",
        output,
        duration_seconds: 0.5 + n / 100,
        kernel: { execution_count: n },
      }),
    });
  const variants: [string, (n: number) => unknown[]][] = [
    [
      "a timestamp as seconds since the epoch",
      (n) => execute("import time; print(int(time.time()))", `${1764412345 + n * 7}\n`, n),
    ],
    [
      "a timestamp in milliseconds",
      (n) => execute("print(now_ms())", `${1764412345123 + n * 7001}\n`, n),
    ],
    [
      "a random id that is not a uuid",
      (n) => execute("print(poll())", `job aB3xK${n}9mQ2pLz${n}Q still running\n`, n),
    ],
    [
      "a 32-hex id",
      (n) =>
        execute(
          "print(poll())",
          `request ${(n * 7919).toString(16).padStart(8, "0")}9f3a2b1c4d5e6f708192a3b4c5d6e7f8 pending\n`,
          n,
        ),
    ],
    [
      "the same no-op reworded each call",
      (n) => {
        const words = [
          "still waiting",
          "waiting for the subagents",
          "subagents are still running",
          "checking again",
          "no news yet",
        ];
        const said = words[n % words.length] as string;
        return execute(`print("${said}")`, `${said}\n`, n);
      },
    ],
  ];
  it.each(variants)("%s", (_name, call) => {
    const report = analyse(Array.from({ length: 20 }, (_, n) => call(n)).flat());
    const streak = report.findings.find((f) => f.kind === "identical-streak");
    expect(streak).toBeDefined();
    expect(streak?.from_step).toBe(1);
    expect(streak?.to_step).toBe(20);
    expect(report.stalled).toBe(true);
  });

  it("different work reworded is not flagged: outputs that say something new", () => {
    const report = analyse(
      Array.from({ length: 20 }, (_, n) =>
        bash(`python -c "print(${n} ** 2)"`, `${n * n}\n`),
      ).flat(),
    );
    // (20 calls with no milestone at all are a no-milestone finding; not a loop.)
    expect(report.findings.map((f) => f.kind)).not.toContain("identical-streak");
  });
});
