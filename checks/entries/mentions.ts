/**
 * The handoff entries a pull request's description mentions: `#12`, `owner/repo#12` for the
 * pull request's own repository, or an issue's URL (`https://<host>/owner/repo/issues/12`). The
 * description is the author's text, so a mention may only ever make an entry `agate:blocking`
 * and hold the mentioning pull request back (docs/entries.md); which numbers are entries at all
 * is for the caller, who knows agate's store.
 *
 * As GitHub does when it links references, text in code is no reference: fenced code blocks,
 * inline code spans and HTML comments (a pull request template's hidden hints) are skipped.
 * Another repository's reference (`other/repo#12`, its URL) is never one of this repository's
 * entries. A URL of any host counts: GitHub Enterprise hosts differ, and an author who can type
 * the URL can type `#12` as well, so trusting the host would add nothing.
 */

/** At most this many distinct numbers, in the order the description first mentions them. */
export const MAX_ENTRY_MENTIONS = 50;

/** Issue numbers above this are no issue GitHub has (its numbers are 32-bit integers). */
const MAX_ISSUE_NUMBER = 2_147_483_647;

/**
 * The text without what GitHub never links: fenced code blocks (``` or ~~~, closed by a fence
 * of the same character at least as long, or running to the end), HTML comments, and inline
 * code spans (a run of backticks closed by a run of the same length). Each is replaced by a
 * space, so what stood either side of it is not joined into a reference.
 */
export function withoutCode(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const kept: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of lines) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close?.[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.length) fence = null;
      kept.push("");
      continue;
    }
    if (open?.[1]) {
      fence = { char: open[1][0] as string, length: open[1].length };
      kept.push("");
      continue;
    }
    kept.push(line);
  }
  return withoutCodeSpans(kept.join("\n").replace(/<!--[\s\S]*?(?:-->|$)/g, " "));
}

/**
 * Code spans removed: a run of backticks up to the next run of the same length, in one pass over
 * the text. (A backtracking pattern for this took seconds on an author's unclosed runs.)
 */
function withoutCodeSpans(text: string): string {
  const runs: { at: number; length: number }[] = [];
  for (const m of text.matchAll(/`+/g)) runs.push({ at: m.index, length: m[0].length });
  // For each run, the index of the next run of the same length, found from the end backwards.
  const next = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as { at: number; length: number };
    next[i] = seen.get(run.length) ?? -1;
    seen.set(run.length, i);
  }
  let out = "";
  let from = 0;
  for (let i = 0; i < runs.length; i++) {
    const close = next[i] ?? -1;
    if (close < 0) continue;
    const open = runs[i] as { at: number; length: number };
    const end = runs[close] as { at: number; length: number };
    out += `${text.slice(from, open.at)} `;
    from = end.at + end.length;
    i = close;
  }
  return out + text.slice(from);
}

const SAME_REPO_NAME = /[A-Za-z0-9_.-]+/.source;

/**
 * The issue numbers the description mentions in this repository (`owner/name`, compared
 * without case as GitHub does), distinct, in order of first mention, at most MAX_ENTRY_MENTIONS.
 */
export function entryMentions(body: string | null, repository: string): number[] {
  if (!body) return [];
  const text = withoutCode(body);
  const self = repository.toLowerCase();
  const found: { at: number; number: number }[] = [];
  const add = (at: number, digits: string | undefined) => {
    const number = Number(digits);
    if (Number.isSafeInteger(number) && number > 0 && number <= MAX_ISSUE_NUMBER) {
      found.push({ at, number });
    }
  };
  // An issue's URL, on any host; a pull request's URL (`/pull/12`) names no entry.
  const url = new RegExp(
    `https?://[^\\s/<>()]+/(${SAME_REPO_NAME}/${SAME_REPO_NAME})/issues/(\\d+)(?![\\w/])`,
    "g",
  );
  for (const m of text.matchAll(url)) {
    if (m[1]?.toLowerCase() === self) add(m.index, m[2]);
  }
  // Replaced, so nothing inside a URL is read again as a short reference below.
  const rest = text.replace(/https?:\/\/[^\s<>()]+/g, (u) => " ".repeat(u.length));
  // `owner/repo#12`: preceded by nothing that would make it part of a longer word or path.
  const qualified = new RegExp(
    `(?<![\\w/.#-])(${SAME_REPO_NAME}/${SAME_REPO_NAME})#(\\d+)(?![\\w])`,
    "g",
  );
  for (const m of rest.matchAll(qualified)) {
    if (m[1]?.toLowerCase() === self) add(m.index, m[2]);
  }
  // `#12` alone: not `abc#12` (no reference on GitHub either), not `&#12;` (an HTML entity).
  for (const m of rest.matchAll(/(?<![\w/.#&-])#(\d+)(?![\w])/g)) add(m.index, m[1]);
  const numbers: number[] = [];
  for (const { number } of found.sort((a, b) => a.at - b.at)) {
    if (numbers.includes(number)) continue;
    numbers.push(number);
    if (numbers.length === MAX_ENTRY_MENTIONS) break;
  }
  return numbers;
}
