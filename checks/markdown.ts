/** Small text helpers for the summaries agate writes (check runs, job summaries). */

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
