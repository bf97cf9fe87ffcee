import { commandPassed, failedCommands } from "../checks/command-results.js";
import { isolationLine } from "../checks/gate/isolation.js";
import {
  tableCell as cell,
  codeSpan,
  durationText,
  outcomeText,
  outputDetails,
  shortSha as short,
} from "../checks/markdown.js";
import type { CommandRecord, CommandResult } from "../schemas/command-record.js";

/** The one duration format (checks/markdown.ts), re-exported for the CLI's lines. */
export { durationText };

/** A command's outcome in a table cell, where the duration has a column of its own. */
export function resultText(command: CommandResult): string {
  return outcomeText({ ...command, duration_ms: undefined });
}

/** How many paths a command changed, the first few named in code spans (the names are the pull request's). */
function changedText(command: CommandResult): string {
  if (command.changed_paths_count === 0) return "none";
  const named = command.changed_paths.slice(0, 3).map((path) => codeSpan(path));
  const more = command.changed_paths_count - named.length;
  return `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/** Whether any command changed a path (the work tree may be dirty from before them instead). */
const commandsWrote = (record: CommandRecord) =>
  record.commands.some((c) => c.changed_paths_count > 0);

/** What the person reading the job summary does next. */
function nextAction(record: CommandRecord): string {
  const failed = failedCommands(record);
  if (failed.length > 0)
    return `make ${failed.map((name) => codeSpan(name, 80)).join(", ")} pass, then push (the output is below)`;
  // The fix for a tree changed before the commands is in the workflow, not in the commands.
  if (!record.tested.clean_before)
    return "make the workflow's steps before agate leave the checkout as it is (put installs and builds into the config's commands), then run it again";
  if (!record.tested.clean && commandsWrote(record))
    return "make the commands leave the work tree clean, or list what they write in commands[].writes";
  return "nothing here; the `agate` check on the commit decides whether it may merge";
}

export function headline(record: CommandRecord): string {
  const failed = failedCommands(record).length;
  const total = record.commands.length;
  const on = `on ${short(record.tested.sha)}`;
  return failed === 0
    ? `${total} of ${total} required commands passed ${on}`
    : `${failed} of ${total} required commands failed ${on}`;
}

/**
 * The human summary of a record: what ran on which commit, the result of each command, and the
 * end of each failing output. Each tail is capped at `tailChars` so the whole stays within
 * GitHub's 65,535-character limits for job summaries and check-run summaries.
 */
export function renderRecordMarkdown(record: CommandRecord, tailChars = 8_000): string {
  const tested = record.tested;
  // What was tested and how, one fact a line (a list, so Markdown does not run them together).
  const facts = [
    `Tested commit \`${tested.sha}\` (tree \`${tested.tree_sha}\`)` +
      (tested.parents.length > 1
        ? `, a merge of ${tested.parents.map((p) => `\`${short(p)}\``).join(" and ")}`
        : ""),
    record.pull_request
      ? `Pull request #${record.pull_request.number}: head \`${short(record.pull_request.head_sha)}\`, base \`${short(record.pull_request.base_sha)}\``
      : null,
    tested.clean_before
      ? null
      : `**The work tree already differed from the tested commit before the first command** (an earlier step changed ${tested.dirty_before
          .slice(0, 10)
          .map((path) => codeSpan(path))
          .join(", ")}${tested.dirty_before.length > 10 ? ", ..." : ""}).`,
    tested.clean
      ? "The work tree was clean after the commands."
      : !tested.clean_before && !commandsWrote(record)
        ? "The commands changed nothing; the work tree still differed after them, as before."
        : `**The work tree was not clean after the commands** (changed files digest \`${tested.dirty_digest}\`).`,
    `Config digest \`${record.grader.config_digest}\`, agate ${record.grader.agate_version}.`,
    isolationLine(record),
  ];
  const lines = [
    `### agate: ${headline(record)}. Next: ${nextAction(record)}.`,
    "",
    ...facts.filter((fact) => fact !== null).map((fact) => `- ${fact}`),
    "",
    "| command | result | duration | files changed |",
    "| --- | --- | --- | --- |",
    ...record.commands.map(
      (c) =>
        `| ${cell(c.name)} | ${commandPassed(c) ? "✅" : "❌"} ${resultText(c)} | ${durationText(c.duration_ms)} | ${cell(changedText(c))} |`,
    ),
  ];

  // Failing output first and open; passing output after it, shorter and folded.
  const failing = record.commands.filter((c) => !commandPassed(c));
  const passing = record.commands.filter((c) => commandPassed(c));
  for (const command of [...failing, ...passing]) {
    const failed = !commandPassed(command);
    const tail = command.output.tail.slice(-(failed ? tailChars : Math.floor(tailChars / 4)));
    if (!failed && tail.trim() === "") continue;
    const note =
      tail.length < command.output.bytes
        ? ` (last ${tail.length} characters of ${command.output.bytes} bytes)`
        : "";
    lines.push(
      "",
      ...outputDetails({
        label: `${command.name}: ${outcomeText(command)}`,
        note,
        tail,
        open: failed,
        lead: codeSpan(command.run, 2_000),
      }),
    );
  }
  if (record.cut.length > 0)
    lines.push("", `Shortened to fit GitHub's limits: ${record.cut.join(", ")}.`);
  return `${lines.join("\n")}\n`;
}
