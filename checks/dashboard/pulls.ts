/**
 * What the triage dashboard shows of one open pull request, from the acceptance records agate
 * stored for its live head: nothing, or the category it belongs in, since when, and why. Pure:
 * records in (the store's), one line's facts out.
 */
import type { AcceptanceRecord, DecisionState } from "../../schemas/acceptance-record.js";

export type PullCategory =
  /** Escalated for a reason other than a protected path: a maintainer must decide. */
  | "escalated"
  /** Escalated by a protected path: only a maintainer's approval or `/agate accept` moves it. */
  | "override"
  | "stalled"
  | "capped";

export interface DashboardPull {
  number: number;
  /** The author's login: the owner of the pull request. */
  author: string;
  /** The author's title (shown fenced: an agent wrote it). */
  title: string;
  head_sha: string;
  category: PullCategory;
  /** Why, in agate's own words (someone else's text in them is in code spans already). */
  why: string;
  /** When the head first reached this state: the first of the newest run of equal decisions. */
  since: string;
}

/** The requirement lines agate stores (`name: status: reason`) for what waits on a maintainer. */
const PROTECTED_WAITING = "protected paths: waiting: ";
const ENTRIES_WAITING = "handoff entries: waiting: ";

const CATEGORY: Partial<Record<DecisionState, PullCategory>> = {
  escalated: "escalated",
  stalled: "stalled",
  capped: "capped",
};

/** Whether the dashboard lists a pull request whose live head's newest decision is `state`. */
export function listedOnDashboard(state: DecisionState): boolean {
  return CATEGORY[state] !== undefined;
}

/** Whether the newest of these records (by id) is in a listed state; false for none. */
export function newestListed(records: readonly { id: number; state: DecisionState }[]): boolean {
  const newest = records.reduce<{ id: number; state: DecisionState } | null>(
    (a, r) => (a === null || r.id > a.id ? r : a),
    null,
  );
  return newest !== null && listedOnDashboard(newest.state);
}

/**
 * Whether a stored decision can change the dashboard: it puts the pull request in a listed
 * state, or the newest earlier record had it there (it leaves the list). A pass that decides
 * pending after pending changes nothing the dashboard shows and costs it no refresh.
 */
export function decisionConcernsDashboard(
  state: DecisionState,
  priorRecords: readonly { id: number; state: DecisionState }[],
): boolean {
  return listedOnDashboard(state) || newestListed(priorRecords);
}

/**
 * The pull request's line on the dashboard, or null when it needs nobody (accepted, rejected,
 * pending, not gated, or no record of the live head yet). Only records of `head_sha` count: a
 * record of an earlier head says nothing about the code that would merge now.
 */
export function dashboardPull(
  pull: { number: number; author: string; title: string; head_sha: string },
  records: readonly AcceptanceRecord[],
): DashboardPull | null {
  const own = records
    .filter((r) => r.head_sha === pull.head_sha && r.stale === null)
    .sort((a, b) => a.id - b.id);
  const latest = own.at(-1);
  if (!latest) return null;
  const state = latest.decision.state;
  const found = CATEGORY[state];
  if (!found) return null;
  // The age is the state's, not the last pass's: a pass that decides the same again (a
  // redelivered event, a reconcile) must not move it, or the dashboard would change with it.
  let first = latest;
  for (let i = own.length - 2; i >= 0; i--) {
    const earlier = own[i];
    if (!earlier || earlier.decision.state !== state) break;
    first = earlier;
  }
  const lines = latest.decision.reasons;
  // An escalated entry the pull request waits on decides its escalation (the gate's title names
  // it first); a protected path alone makes it an override pending.
  const entry = lines.find((line) => line.startsWith(ENTRIES_WAITING));
  const override = lines.find((line) => line.startsWith(PROTECTED_WAITING));
  if (found === "escalated" && entry) {
    return {
      ...pull,
      category: "escalated",
      why: entry.slice(ENTRIES_WAITING.length),
      since: first.decided_at,
    };
  }
  const category = found === "escalated" && override ? "override" : found;
  return { ...pull, category, why: whyOf(lines, category, override), since: first.decided_at };
}

/**
 * The decisive requirement's own line (`name: status: reason`, never cut), else the decision's
 * title without its "Stalled on abc1234: " start (cut at GitHub's title limit).
 */
function whyOf(lines: readonly string[], category: PullCategory, override?: string): string {
  if (category === "override" && override) return override.slice(PROTECTED_WAITING.length);
  if (category === "stalled" || category === "capped") {
    const status = `: ${category}: `;
    const line = lines.slice(1).find((l) => /^[a-z][a-z ]*: /.test(l) && l.includes(status));
    if (line) return line.slice(line.indexOf(status) + status.length);
  }
  return (lines[0] ?? category).replace(/^[A-Z][a-z]+(?: [a-z]+)* on [0-9a-f]{7,}: /, "");
}
