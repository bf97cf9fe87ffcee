/**
 * The triage dashboard: one issue per repository, kept by the App as Renovate keeps its
 * Dependency Dashboard. First what needs a human, by category, then what is parked; each line
 * with its link, since when, and who holds it (the entry's owner once claimed, else its
 * author; a pull request's author). Pure and deterministic (no clock: an age is the time
 * the state began, never "3 hours ago"), so the App writes the issue only when the text differs,
 * and a transition replayed renders the same text and writes nothing.
 */
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import { codeSpan, GITHUB_TEXT_LIMIT, shortSha } from "../markdown.js";
import type { DashboardPull, PullCategory } from "./pulls.js";

export const DASHBOARD_TITLE = "agate triage dashboard";

/**
 * Ends the body. The App finds its dashboard by this marker in an issue its own bot opened:
 * anyone can type the marker, only the App's issue counts.
 */
export const DASHBOARD_MARKER = "<!-- agate:dashboard -->";

/** The entry states the dashboard lists; a transition touching neither leaves it as it is. */
export const LISTED_ENTRY_STATES = ["escalated", "blocked"] as const;
export const isListedEntryState = (state: HandoffEntry["state"]) =>
  (LISTED_ENTRY_STATES as readonly string[]).includes(state);

export interface DashboardInput {
  /** Every entry of the repository (only escalated and blocked ones are shown). */
  entries: readonly HandoffEntry[];
  /** The open pull requests the dashboard shows (dashboardPull's non-null results). */
  pulls: readonly DashboardPull[];
  /** Escalated entries an agent waits on (their `agate:blocking` label): said on their line. */
  waiting?: ReadonlySet<number>;
}

/** Whether anything is listed: no dashboard issue is opened for an empty one. */
export function dashboardHasItems(input: DashboardInput): boolean {
  return input.pulls.length > 0 || input.entries.some((e) => isListedEntryState(e.state));
}

/** A time as people read it, to the minute: `2026-12-04 03:30 UTC`. */
function dayAndMinute(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const who = (login: string) => codeSpan(login, 60);

/**
 * agate's own words on one line. They keep someone else's text in code spans; a reason cut
 * short may have lost a span's closing backticks, which would let that text out as Markdown (a
 * mention, HTML), so such a reason is fenced whole.
 */
export function agateWords(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const runs = [...flat.matchAll(/`+/g)].map((m) => m[0].length);
  let open: number | null = null;
  for (const run of runs) {
    if (open === null) open = run;
    else if (run === open) open = null;
  }
  return open === null ? flat : codeSpan(flat, 300);
}

interface Line {
  number: number;
  since: string;
  text: string;
}

/** Oldest first (the longest wait on top), then by number: the same input, the same order. */
const ordered = (lines: Line[]) =>
  [...lines].sort((a, b) => a.since.localeCompare(b.since) || a.number - b.number);

/** Lines per section, widest first; fewer when the whole would pass GitHub's body limit. */
const CAPS = [50, 20, 8, 3, 1] as const;

function section(
  heading: string,
  hint: string,
  lines: Line[],
  cap: number,
  more: string,
): string[] {
  const shown = ordered(lines).slice(0, cap);
  const rest = lines.length - shown.length;
  return [
    `### ${heading}`,
    "",
    `_${hint}_`,
    "",
    ...(lines.length === 0 ? ["None."] : shown.map((l) => l.text)),
    ...(rest > 0 ? [`- … and ${rest} more, ${more}`] : []),
    "",
  ];
}

function entryLine(entry: HandoffEntry, waiting: boolean): Line {
  // An entry's owner is whoever claimed it (docs/entries.md); before that it has only an author.
  const holder = entry.owner ? `claimed by ${who(entry.owner)}` : `asked by ${who(entry.author)}`;
  const reason =
    entry.state === "escalated" && entry.escalation_reason ? `${entry.escalation_reason}: ` : "";
  const text = [
    `- #${entry.issue_number} ${codeSpan(entry.fields.question, 120)}`,
    `${reason}${codeSpan(entry.why ?? entry.state, 200)}`,
    holder,
    `since ${dayAndMinute(entry.state_changed_at)}`,
    // No time: a renewed wait changes nothing here, so the issue is not rewritten for it.
    ...(waiting ? ["**an agent waits on it**"] : []),
  ].join(" · ");
  return { number: entry.issue_number, since: entry.state_changed_at, text };
}

function pullLine(pull: DashboardPull): Line {
  const action =
    pull.category === "override"
      ? ` · approve ${shortSha(pull.head_sha)} in a review, or comment \`/agate accept ${pull.head_sha} <why>\``
      : "";
  const text = [
    `- #${pull.number} ${codeSpan(pull.title, 120)}`,
    agateWords(pull.why),
    `author ${who(pull.author)}`,
    `since ${dayAndMinute(pull.since)}${action}`,
  ].join(" · ");
  return { number: pull.number, since: pull.since, text };
}

/**
 * The issue's body: within GitHub's limit on an issue body, each section showing its oldest items
 * (the longest waits) and counting the rest.
 */
export function renderDashboard(input: DashboardInput, limit = GITHUB_TEXT_LIMIT): string {
  let body = "";
  for (const cap of CAPS) {
    body = renderWith(input, cap);
    if (body.length <= limit) return body;
  }
  return body;
}

function renderWith(input: DashboardInput, cap: number): string {
  const entries = (state: HandoffEntry["state"]) =>
    input.entries
      .filter((e) => e.state === state)
      .map((e) => entryLine(e, input.waiting?.has(e.issue_number) ?? false));
  const pulls = (category: PullCategory) =>
    input.pulls.filter((p) => p.category === category).map(pullLine);
  return [
    "agate keeps this issue: what needs a maintainer, then what is parked. It is rewritten when an entry or a pull request changes state, so an edit here does not last; act on the linked issue or pull request.",
    "",
    "## Needs a human",
    "",
    ...section(
      "Escalated entries",
      "Money, external effects, irreversible actions, credentials or scope. Decide, then comment `/answer <the decision>` on the entry.",
      entries("escalated"),
      cap,
      "listed by the `agate:escalated` label",
    ),
    ...section(
      "Escalated pull requests",
      "The decision needed is on each line; the pull request's `agate` check says more.",
      pulls("escalated"),
      cap,
      "listed by the `agate:escalated` label",
    ),
    ...section(
      "Maintainer overrides pending",
      "A protected path changed: only a maintainer's approval of this exact commit, or `/agate accept <sha> <why>`, lets it merge.",
      pulls("override"),
      cap,
      "listed by the `agate:escalated` label",
    ),
    "## Parked",
    "",
    "_Nobody is notified of these; they are here to be readable._",
    "",
    ...section(
      "Blocked entries",
      "Nobody could help, or a counter ran out. Open a new entry when something changed.",
      entries("blocked"),
      cap,
      "listed by the `agate:blocked` label",
    ),
    ...section(
      "Stalled pull requests",
      "Attempts that made no progress; the `agate` check keeps what was achieved.",
      pulls("stalled"),
      cap,
      "listed by the `agate:stalled` label",
    ),
    ...section(
      "Capped pull requests",
      "A budget in `.github/agate.yml` ran out.",
      pulls("capped"),
      cap,
      "listed by the `agate:capped` label",
    ),
    DASHBOARD_MARKER,
  ].join("\n");
}
