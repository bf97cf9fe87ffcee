import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HandoffFrontMatter } from "../../schemas/handoff-file.js";
import { parseHandoffFile, renderHandoffFile } from "./parse-handoff.js";

const P = ".agate/handoff.md";

const GOOD = `---
task: "#12 retry uploads"
branch: agent/retry
status: in-progress
changed_files:
  - src/upload.ts
  - src/upload.test.ts
last_command:
  run: npm test
  exit_code: 1
  output_tail: |
    FAIL src/upload.test.ts
next_step: make the retry back off
open_items: [decide the retry limit]
---

## Notes

Free text stays as written.
`;

const errorsOf = (text: string) => {
  const result = parseHandoffFile(text, P);
  if (result.ok) throw new Error("expected errors");
  return result.errors;
};

describe("parseHandoffFile", () => {
  it("reads the front matter and keeps the free text below it", () => {
    const result = parseHandoffFile(GOOD, P);
    expect(result).toEqual({
      ok: true,
      front: {
        task: "#12 retry uploads",
        branch: "agent/retry",
        status: "in-progress",
        changed_files: ["src/upload.ts", "src/upload.test.ts"],
        last_command: { run: "npm test", exit_code: 1, output_tail: "FAIL src/upload.test.ts\n" },
        next_step: "make the retry back off",
        open_items: ["decide the retry limit"],
      },
      body: "## Notes\n\nFree text stays as written.\n",
    });
  });

  it("fills the optional fields with their defaults", () => {
    const result = parseHandoffFile(
      "---\ntask: t\nbranch: b\nstatus: ready\nchanged_files: []\n---\n",
      P,
    );
    expect(result).toMatchObject({
      ok: true,
      front: { last_command: null, next_step: "", open_items: [] },
      body: "",
    });
  });

  it("accepts CRLF line ends and a byte-order mark", () => {
    const text = `\uFEFF${GOOD.replace(/\n/g, "\r\n")}`;
    const result = parseHandoffFile(text, P);
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(result.front.changed_files).toEqual(["src/upload.ts", "src/upload.test.ts"]);
  });

  it("says when there is no front matter, or when it is never closed", () => {
    expect(errorsOf("# Handoff\n\ntask: x\n")).toEqual([
      `${P}:1:1: no front matter: the file must start with a line \`---\`, then the YAML fields (task, branch, status, changed_files, ...), then another \`---\` line`,
    ]);
    expect(errorsOf("---\ntask: x\n")).toEqual([
      `${P}:1:1: the front matter opened on line 1 is never closed: add a line \`---\` after its last field`,
    ]);
    expect(errorsOf("---\n---\nbody\n")[0]).toBe(
      `${P}:2:1: the front matter is empty: it needs at least task, branch, status, changed_files`,
    );
    expect(errorsOf("---\n- a\n- b\n---\n")[0]).toMatch(
      /^\.agate\/handoff\.md:2:1: the front matter must be a mapping/,
    );
  });

  it("names unknown keys, wrong types and bad values with the file's line and column", () => {
    const text = [
      "---", // 1
      "task: t", // 2
      "branch: [a, b]", // 3
      "status: done", // 4
      "changed_files: src/a.ts", // 5
      "last_command:", // 6
      "  run: npm test", // 7
      "  exitcode: 1", // 8
      "nxt_step: x", // 9
      "---",
      "",
    ].join("\n");
    expect(errorsOf(text)).toEqual([
      `${P}:3:9: branch: expected text, got a list`,
      `${P}:4:9: status: "done" is not one of in-progress, ready, blocked`,
      `${P}:5:16: changed_files: expected a list, got "src/a.ts"`,
      `${P}:7:3: last_command.exit_code: is missing`,
      `${P}:8:3: last_command.exitcode: unknown key; did you mean exit_code? (last_command takes run, exit_code, output_tail)`,
      `${P}:9:1: nxt_step: unknown key; did you mean next_step? (the front matter takes task, branch, status, changed_files, last_command, next_step, open_items)`,
    ]);
  });

  it("says what a missing required field looks like", () => {
    expect(errorsOf("---\ntask: t\nstatus: ready\n---\n")).toEqual([
      `${P}:2:1: branch: is missing; add branch: <the pull request's head branch>`,
      `${P}:2:1: changed_files: is missing; add changed_files: [every file the branch changes against its base]`,
    ]);
  });

  it("reports YAML syntax errors at their place in the file", () => {
    const errors = errorsOf("---\ntask: t\nbranch: b\nbranch: c\n---\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\.agate\/handoff\.md:4:1: YAML syntax: .*unique/i);
    expect(errorsOf('---\ntask: "open\n---\n')[0]).toMatch(
      /^\.agate\/handoff\.md:2:\d+: YAML syntax:/,
    );
  });
});

describe("renderHandoffFile", () => {
  const front: HandoffFrontMatter = {
    task: "#12: retry uploads",
    branch: "agent/retry",
    status: "blocked",
    changed_files: ["a b.ts", "src/ü.ts", "-dash.ts"],
    last_command: {
      run: "npm test -- --grep 'a: b'",
      exit_code: 2,
      output_tail: "line 1\n  indented\n\u001b[31mred\u001b[0m\ntrailing space  \n",
    },
    next_step: "ask: which limit?",
    open_items: ["one", "two: three"],
  };

  it.each([
    ["no free text", ""],
    ["free text", "## Notes\n\nwritten by a person\n"],
    ["free text starting with a blank line, without a final newline", "\n\nkept exactly"],
    ["free text that looks like front matter", "---\nnot: yaml\n---\n"],
  ])("round-trips through parseHandoffFile (%s)", (_name, body) => {
    const text = renderHandoffFile(front, body);
    expect(parseHandoffFile(text, P)).toEqual({ ok: true, front, body });
  });

  it("writes fields in the schema's order, long text as a literal block", () => {
    const text = renderHandoffFile(
      {
        ...front,
        status: "in-progress",
        last_command: { run: "npm test", exit_code: 0, output_tail: "ok\nall passed\n" },
      },
      "",
    );
    expect(text).toBe(
      [
        "---",
        'task: "#12: retry uploads"',
        "branch: agent/retry",
        "status: in-progress",
        "changed_files:",
        "  - a b.ts",
        "  - src/ü.ts",
        "  - -dash.ts",
        "last_command:",
        "  run: npm test",
        "  exit_code: 0",
        "  output_tail: |",
        "    ok",
        "    all passed",
        'next_step: "ask: which limit?"',
        "open_items:",
        "  - one",
        '  - "two: three"',
        "---",
        "",
      ].join("\n"),
    );
  });

  it("writes last_command: null and empty lists explicitly", () => {
    const text = renderHandoffFile(
      { ...front, last_command: null, next_step: "", open_items: [], changed_files: [] },
      "",
    );
    expect(text).toContain(
      'changed_files: []\nlast_command: null\nnext_step: ""\nopen_items: []\n---\n',
    );
  });
});

describe("docs/handoff.md", () => {
  it("its template file is valid", () => {
    const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "handoff.md"), "utf8");
    const template = /```markdown\n([\s\S]*?)```/.exec(docs)?.[1] ?? "";
    const parsed = parseHandoffFile(template, P);
    expect(parsed).toMatchObject({
      ok: true,
      front: { status: "in-progress", branch: "agent/retry-uploads" },
    });
  });
});
