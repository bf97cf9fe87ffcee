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
});
