import type { Config } from "../../schemas/config.js";
import type { HandoffFacts } from "../../schemas/gate.js";

export type HandoffRules = Config["handoff"]["required_when"];

/** The commit trailer that names the agent session a commit came from. */
export const SESSION_TRAILER = "Agent-Session";

const KEY = "handoff.required_when";
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * Every rule of `handoff.required_when` that applies to this pull request, in words the summary
 * shows as they are (the config key included, so a maintainer sees which knob to turn). Empty:
 * the handoff file is not required.
 */
export function handoffRequiredBy(
  rules: HandoffRules,
  input: { labels: string[]; facts: HandoffFacts },
): string[] {
  const { facts } = input;
  const reasons: string[] = [];

  // GitHub treats label names case-insensitively (one repository cannot have both spellings).
  const present = new Set(input.labels.map((label) => label.toLowerCase()));
  for (const label of rules.labels) {
    if (present.has(label.toLowerCase())) reasons.push(`the label ${label} (${KEY}.labels)`);
  }

  if (rules.commits_over !== null && facts.commit_count > rules.commits_over) {
    reasons.push(
      `${count(facts.commit_count, "commit")} (more than ${rules.commits_over}: ${KEY}.commits_over)`,
    );
  }

  if (rules.open_longer_than !== null) {
    const open = Date.parse(facts.observed_at) - Date.parse(facts.opened_at);
    if (open > rules.open_longer_than) {
      reasons.push(
        `open ${hours(open)} (longer than ${hours(rules.open_longer_than)}: ${KEY}.open_longer_than)`,
      );
    }
  }

  if (rules.changed_lines_over !== null && facts.changed_lines > rules.changed_lines_over) {
    reasons.push(
      `${count(facts.changed_lines, "changed line")} (more than ${rules.changed_lines_over}: ${KEY}.changed_lines_over)`,
    );
  }

  if (rules.sessions_over !== null) {
    const sessions = agentSessions(facts.commits.map((commit) => commit.message));
    if (sessions.length > rules.sessions_over) {
      reasons.push(
        `${count(sessions.length, "agent session")} (more than ${rules.sessions_over}: ${KEY}.sessions_over, counted from ${SESSION_TRAILER}: commit trailers)`,
      );
    }
  }
  return reasons;
}

/** The distinct `Agent-Session:` trailer values over these commit messages, first seen first. */
export function agentSessions(messages: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const trailer of commitTrailers(message)) {
      if (trailer.key.toLowerCase() === SESSION_TRAILER.toLowerCase() && trailer.value !== "") {
        seen.add(trailer.value);
      }
    }
  }
  return [...seen];
}

export interface Trailer {
  key: string;
  value: string;
}

/** What git itself adds; a block holding one of these may also hold some ordinary text. */
const GIT_GENERATED = ["Signed-off-by: ", "(cherry picked from commit "];

/**
 * The trailers of a commit message, read as `git log --format=%(trailers)` reads them (git
 * 2.39's trailer.c): the last paragraph, never the title paragraph, counts when all its lines
 * are `Key: value` trailers (or continuation lines starting with whitespace), or when it holds a
 * git-generated trailer and at least a quarter of its lines are trailers. A key is letters,
 * digits and `-`, then optional spaces or tabs, then `:`. Keys compare case-insensitively;
 * values are trimmed, and a folded value is unfolded with single spaces.
 */
export function commitTrailers(message: string): Trailer[] {
  const lines = message.replace(/\r\n/g, "\n").split("\n");
  const blank = (line: string) => line.trim() === "";

  // The title is everything up to the first blank line; it can never be the trailer block.
  let titleEnd = lines.findIndex(blank);
  if (titleEnd === -1) return [];
  titleEnd += 1;

  let end = lines.length;
  while (end > titleEnd && blank(lines[end - 1] ?? "")) end--;
  let start = end;
  while (start > titleEnd && !blank(lines[start - 1] ?? "")) start--;
  if (start === end) return [];

  const block = lines.slice(start, end);
  let trailerLines = 0;
  let nonTrailerLines = 0;
  let recognised = false;
  let continuation = 0;
  // Scanned from the bottom, as git does: continuation lines belong to the trailer above them.
  for (let i = block.length - 1; i >= 0; i--) {
    const line = block[i] ?? "";
    if (/^[ \t]/.test(line)) {
      continuation++;
      continue;
    }
    if (GIT_GENERATED.some((prefix) => line.startsWith(prefix))) {
      trailerLines += 1 + continuation;
      recognised = true;
    } else if (separatorAt(line) > 0) {
      trailerLines += 1 + continuation;
    } else {
      nonTrailerLines += 1 + continuation;
    }
    continuation = 0;
  }
  nonTrailerLines += continuation;
  const isBlock =
    (trailerLines > 0 && nonTrailerLines === 0) ||
    (recognised && trailerLines * 3 >= nonTrailerLines);
  if (!isBlock) return [];

  const trailers: Trailer[] = [];
  for (const line of block) {
    const last = trailers.at(-1);
    if (/^[ \t]/.test(line)) {
      if (last) last.value = `${last.value} ${line.trim()}`.trim();
      continue;
    }
    const at = separatorAt(line);
    if (at > 0) {
      trailers.push({ key: line.slice(0, at).trimEnd(), value: line.slice(at + 1).trim() });
    } else {
      // Ordinary text inside a mixed block: it ends any folded value above it.
      trailers.push({ key: "", value: "" });
    }
  }
  return trailers.filter((trailer) => trailer.key !== "");
}

/** Index of the `:` after a trailer key (letters, digits, `-`, then spaces or tabs); -1: none. */
function separatorAt(line: string): number {
  const match = /^([A-Za-z0-9-]+)[ \t]*:/.exec(line);
  return match ? match[0].length - 1 : -1;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Hours as people read them: `30 h`, `1 h 30 min`, `45 min` (rounded down to the minute). */
function hours(ms: number): string {
  const h = Math.floor(ms / HOUR_MS);
  const min = Math.floor((ms - h * HOUR_MS) / MINUTE_MS);
  if (h === 0) return `${min} min`;
  return min === 0 ? `${h} h` : `${h} h ${min} min`;
}
