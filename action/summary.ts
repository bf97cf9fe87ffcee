import { commandPassed, failedCommands } from "../checks/command-results.js";
import {
  tableCell as cell,
  codeSpan,
  escapeHtml,
  fenced,
  shortSha as short,
} from "../checks/markdown.js";
import type { CommandRecord, CommandResult } from "../schemas/command-record.js";
import { formatDuration } from "../schemas/duration.js";

export function resultText(command: CommandResult): string {
  if (command.timed_out) return "timed out";
  if (command.signal) return `killed (${command.signal})`;
  return command.exit_code === 0 ? "passed" : `failed (exit ${command.exit_code})`;
}

/** How many paths a command changed, the first few named in code spans (the names are the pull request's). */
function changedText(command: CommandResult): string {
  if (command.changed_paths_count === 0) return "none";
  const named = command.changed_paths.slice(0, 3).map((path) => codeSpan(path));
  const more = command.changed_paths_count - named.length;
  return `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/** 1234 ms -> "1.2s"; whole units read as the config writes them. */
export function durationText(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)}s`;
  return formatDuration(Math.round(ms / 1_000) * 1_000);
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
  const lines = [
    `### agate: ${headline(record)}`,
    "",
    `Tested commit \`${tested.sha}\` (tree \`${tested.tree_sha}\`)` +
      (tested.parents.length > 1
        ? `, a merge of ${tested.parents.map((p) => `\`${short(p)}\``).join(" and ")}`
        : ""),
    record.pull_request
      ? `Pull request #${record.pull_request.number}: head \`${short(record.pull_request.head_sha)}\`, base \`${short(record.pull_request.base_sha)}\``
      : "",
    tested.clean_before
      ? ""
      : `**The work tree already differed from the tested commit before the first command** (an earlier step changed ${tested.dirty_before
          .slice(0, 10)
          .map((path) => codeSpan(path))
          .join(", ")}${tested.dirty_before.length > 10 ? ", ..." : ""}).`,
    tested.clean
      ? "The work tree was clean after the commands."
      : `**The work tree was not clean after the commands** (changed files digest \`${tested.dirty_digest}\`).`,
    `Config digest \`${record.grader.config_digest}\`, agate ${record.grader.agate_version}.`,
    "",
    "| command | result | duration | files changed |",
    "| --- | --- | --- | --- |",
    ...record.commands.map(
      (c) =>
        `| ${cell(c.name)} | ${commandPassed(c) ? "✅" : "❌"} ${resultText(c)} | ${durationText(c.duration_ms)} | ${cell(changedText(c))} |`,
    ),
  ].filter((line, index, all) => line !== "" || all[index - 1] !== "");

  for (const command of record.commands.filter((c) => !commandPassed(c))) {
    const tail = command.output.tail.slice(-tailChars);
    const note =
      tail.length < command.output.bytes
        ? ` (last ${tail.length} characters of ${command.output.bytes} bytes)`
        : "";
    lines.push(
      "",
      `<details><summary>${escapeHtml(command.name)}: ${resultText(command)}${note}</summary>`,
      "",
      codeSpan(command.run, 2_000),
      "",
      fenced(tail),
      "",
      "</details>",
    );
  }
  if (record.cut.length > 0)
    lines.push("", `Shortened to fit GitHub's limits: ${record.cut.join(", ")}.`);
  return `${lines.join("\n")}\n`;
}
