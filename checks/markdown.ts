/** Small text helpers for the summaries agate writes (check runs, job summaries). */
import { NORMALISATION_RULES } from "./normalise-output.js";

/** GitHub's cap on a check run's output.summary and output.text, and on a job summary. */
export const GITHUB_TEXT_LIMIT = 65_535;

/** A commit as people read it. */
export const shortSha = (sha: string) => sha.slice(0, 7);

/** Text safe inside a Markdown table cell. */
export const tableCell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** Text safe inside HTML such as a `<summary>`. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A fence longer than any run of backticks in the text, so command output cannot end it early. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text.replace(/\n$/, "")}\n${fence}`;
}

/**
 * Text someone else wrote (an author, a reviewer, command output) as an inline code span: on
 * GitHub nothing inside one is a mention, a link, an image or HTML. The fence is longer than any
 * backtick run in the text, and line breaks become spaces, so the text cannot close it.
 */
export function codeSpan(text: string, maxChars = 300): string {
  const flat = text.replace(/[\r\n\t]+/g, " ");
  const cut = flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
  const longest = Math.max(0, ...[...cut.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = cut.startsWith("`") || cut.endsWith("`") || cut === "" ? " " : "";
  return `${fence}${pad}${cut}${pad}${fence}`;
}

/** GitHub keeps at most this many characters of a check run's title. */
export const GITHUB_TITLE_LIMIT = 255;

/**
 * A title read at a glance, in the checks list and above the summary: agate's titles say the
 * state and the cause in at most this many characters; the detail is in the summary.
 */
export const TITLE_LIMIT = 120;

/**
 * A title within TITLE_LIMIT: cut at the last space that leaves room for "…", so no word is
 * split (GitHub itself would cut mid-word, at its own limit). A title without a space near the
 * end is cut hard.
 */
export function cutTitle(text: string, limit = TITLE_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  const room = flat.slice(0, limit - 1);
  const space = room.lastIndexOf(" ");
  const cut = space >= limit / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:.(-]+$/, "")}…`;
}

/**
 * The one way agate shows a measured or configured time: `850 ms`, `1.2 s`, `30 s`,
 * `3 min 4 s`, `2 h 5 min`. Summaries, titles and the CLI all use it, so one time never reads two ways.
 */
export function durationText(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${tenths / 10} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) {
    const s = seconds % 60;
    return `${Math.floor(seconds / 60)} min${s > 0 ? ` ${s} s` : ""}`;
  }
  const minutes = Math.round(seconds / 60);
  const m = minutes % 60;
  return `${Math.floor(minutes / 60)} h${m > 0 ? ` ${m} min` : ""}`;
}

/** "1 missing item", "2 missing items": a count and its noun in the right number. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

const TERMINAL_ESCAPES = NORMALISATION_RULES.find((rule) => rule.name === "ansi")?.pattern;

/**
 * Command output as a person should read it: terminal escapes (colours, cursor moves, titles)
 * removed, a line redrawn with carriage returns shown as the terminal left it, and other control
 * characters dropped. Display only: the output's digests are taken over the raw bytes.
 */
export function displayTail(text: string): string {
  if (!TERMINAL_ESCAPES) throw new Error("normalise-output.ts lost its ansi rule");
  return (
    text
      .replace(TERMINAL_ESCAPES, "")
      .split("\n")
      .map((line) => {
        const drawn = line.replace(/\r+$/, "");
        return drawn.slice(drawn.lastIndexOf("\r") + 1);
      })
      .join("\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
  );
}

/**
 * A command's output under a disclosure: open when it failed (that is what the reader came
 * for), collapsed when it passed. Output with nothing to show is one plain line instead, never
 * an empty block.
 */
export function outputDetails(input: {
  /** What ran and how it ended, such as `lint: failed (exit 3)`; HTML-escaped here. */
  label: string;
  /** Words for the disclosure only, such as `, last output` (not said of empty output). */
  note?: string;
  tail: string;
  open: boolean;
  /** Markdown shown above the output inside the block (such as the command's text). */
  lead?: string;
}): string[] {
  const shown = displayTail(input.tail);
  if (shown.trim() === "") return [`${escapeHtml(input.label)}; it printed nothing.`];
  return [
    `<details${input.open ? " open" : ""}><summary>${escapeHtml(`${input.label}${input.note ?? ""}`)}</summary>`,
    "",
    ...(input.lead ? [input.lead, ""] : []),
    fenced(shown),
    "",
    "</details>",
  ];
}

/** A command's outcome in words: `passed`, `failed (exit 3)`, `timed out after 5 min`, `killed (SIGTERM)`. */
export function outcomeText(command: {
  exit_code: number | null;
  timed_out: boolean;
  signal: string | null;
  duration_ms?: number;
}): string {
  if (command.timed_out)
    return command.duration_ms === undefined
      ? "timed out"
      : `timed out after ${durationText(command.duration_ms)}`;
  if (command.signal) return `killed (${command.signal})`;
  return command.exit_code === 0 ? "passed" : `failed (exit ${command.exit_code ?? "none"})`;
}
