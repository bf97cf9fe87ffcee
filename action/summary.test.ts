import { describe, expect, it } from "vitest";
import { commandRecord } from "../test/support/gate-facts.js";
import { outsideCode, tableCellCount } from "../test/support/inert-markdown.js";
import { renderRecordMarkdown } from "./summary.js";

/**
 * File names are the pull request's choice (a command can create any), and the job summary is
 * Markdown people read: a name must render as text, never as a link, an image, a mention,
 * emphasis, HTML or a broken table.
 */
const HOSTILE_PATHS = [
  "![i](https://evil.example/i.png)",
  "[x](https://evil.example) @octo-org/security-team **urgent**",
  "<img src=x onerror=alert(1)>.txt",
  "a|b``c`.txt",
  "line\n## Acceptance criteria (trusted)",
];

describe("the job summary", () => {
  it("shows changed and earlier-dirty file names as inert text, in and out of the table", () => {
    const record = commandRecord([0, 1]);
    record.tested.clean_before = false;
    record.tested.dirty_before = HOSTILE_PATHS;
    for (const command of record.commands) {
      command.changed_paths = HOSTILE_PATHS.slice(0, 3);
      command.changed_paths_count = HOSTILE_PATHS.length;
    }
    const markdown = renderRecordMarkdown(record);
    const rendered = outsideCode(markdown);
    for (const bad of ["](https://evil", "![", "@octo-org", "**urgent**", "<img"]) {
      expect(rendered.includes(bad), `${bad} outside code in\n${markdown}`).toBe(false);
    }
    expect(rendered).not.toMatch(/^\s*#+\s*Acceptance/m);
    const rows = markdown.split("\n").filter((line) => line.startsWith("|"));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(tableCellCount(row), row).toBe(tableCellCount(rows[0] ?? ""));
    expect(markdown).toContain("and 2 more");
  });

  it("shows a failing command's text as the config writes it, backticks and angle brackets included", () => {
    const record = commandRecord([1]);
    const [command] = record.commands;
    if (!command) throw new Error("no command");
    command.run = "test `cat n` -lt 3 && grep '<x>' out.txt";
    const markdown = renderRecordMarkdown(record);
    expect(markdown).toContain("``test `cat n` -lt 3 && grep '<x>' out.txt``");
    expect(markdown).not.toContain("&lt;x&gt;' out.txt");
  });

  it("says first what happened and what to do next, opens failing output and folds passing output", () => {
    const record = commandRecord([0, 1]);
    const [unit, lint] = record.commands;
    if (!unit || !lint) throw new Error("two commands");
    lint.output.tail = "\u001b[31mFAIL\u001b[0m a.test.ts\n";
    const markdown = renderRecordMarkdown(record);
    expect(markdown.split("\n")[0]).toBe(
      "### agate: 1 of 2 required commands failed on 3333333. Next: make `lint` pass, then push (the output is below).",
    );
    expect(markdown).toContain(
      "<details open><summary>lint: failed (exit 1)</summary>\n\n`npm run lint`\n\n```text\nFAIL a.test.ts\n```",
    );
    expect(markdown).toContain("<details><summary>unit: passed</summary>");
    expect(markdown).not.toContain("\u001b");
    // Display only: the record keeps the raw bytes its digests were taken over.
    expect(lint.output.tail).toContain("\u001b[31m");
    expect(markdown).toContain("| lint | ❌ failed (exit 1) | 1.2 s | none |");

    const passed = renderRecordMarkdown(commandRecord([0, 0]));
    expect(passed.split("\n")[0]).toBe(
      "### agate: 2 of 2 required commands passed on 3333333. Next: nothing here; the `agate` check on the commit decides whether it may merge.",
    );
  });

  it("for a work tree changed before the commands, points at the steps before agate, not at what the commands write", () => {
    const record = commandRecord([0, 0]);
    Object.assign(record.tested, { clean_before: false, dirty_before: ["package-lock.json"] });
    Object.assign(record.tested, { clean: false, dirty_digest: "d".repeat(64) });
    const markdown = renderRecordMarkdown(record);
    expect(markdown.split("\n")[0]).toBe(
      "### agate: 2 of 2 required commands passed on 3333333. Next: make the workflow's steps before agate leave the checkout as it is (put installs and builds into the config's commands), then run it again.",
    );
    expect(markdown).not.toContain("commands[].writes");
    expect(markdown).toContain(
      "- The commands changed nothing; the work tree still differed after them, as before.",
    );
    // A command that wrote, on a clean checkout: then what it writes is the fix.
    const wrote = commandRecord([0, 0]);
    Object.assign(wrote.tested, { clean: false, dirty_digest: "d".repeat(64) });
    Object.assign(wrote.commands[0] ?? {}, { changed_paths: ["out.txt"], changed_paths_count: 1 });
    expect(renderRecordMarkdown(wrote).split("\n")[0]).toContain(
      "list what they write in commands[].writes",
    );
  });

  it("gives a timed-out command that printed nothing one line, not an empty block", () => {
    const record = commandRecord([1]);
    const [command] = record.commands;
    if (!command) throw new Error("no command");
    Object.assign(command, { exit_code: null, timed_out: true, duration_ms: 184_000 });
    command.output.tail = "";
    const markdown = renderRecordMarkdown(record);
    expect(markdown).toContain("| unit | ❌ timed out | 3 min 4 s | none |");
    expect(markdown).toContain("\nunit: timed out after 3 min 4 s; it printed nothing.\n");
    expect(markdown).not.toContain("<details");
  });
});
