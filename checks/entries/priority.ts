/**
 * Whether an agent waits on a handoff entry, which makes it `agate:blocking` (docs/entries.md,
 * "Priority"): the entry is not resolved, and its author declared a wait that has not run out
 * (`declaredWaitUntil`, below), or a pull request linked to it (named by its form's
 * "Blocking pull request", or mentioning it in its own description) is open and held by the gate.
 *
 * "Held by the gate" is read from agate's stored decisions, never from the pull request's labels
 * (which its author can edit): the pull request was gated, and its current head is not accepted.
 * Every other state holds it: pending, rejected, blocked, escalated, and also stalled and capped
 * (parked on the dashboard, so nobody is notified, but the agent behind it is still stuck, and an
 * answer is what can move it: a push with a new tree is graded again). Accepted, not gated, closed
 * or never decided: no agent waits on it through agate.
 */
import type { DecisionState } from "../../schemas/acceptance-record.js";

/** A stored decision as far as priority reads it: its state and whether a later push superseded it. */
export interface DecisionView {
  state: DecisionState;
  /** Non-null once a push past its head marked it stale. */
  stale: unknown;
}

/**
 * Whether the gate holds the pull request, from its stored decisions, oldest first. The newest
 * decision not marked stale is its current head's; when every one is stale (a push the gate has
 * not decided yet), the new head is not accepted, so the gate holds it if it ever gated it.
 */
export function gateHolds(decisions: readonly DecisionView[]): boolean {
  const newest = decisions.at(-1);
  if (!newest) return false;
  const current = decisions.findLast((d) => d.stale === null || d.stale === undefined);
  if (!current) return newest.state !== "not_gated";
  return current.state !== "accepted" && current.state !== "not_gated";
}

/**
 * The pull request's stored decisions as they stand after a pass: every record of another head
 * marked stale (a new head supersedes them), and this pass's decision when it stores one.
 */
export function decisionsAfterPass<T extends DecisionView & { head_sha: string }>(
  prior: readonly T[],
  head: string,
  stored: DecisionState | null,
): DecisionView[] {
  const after: DecisionView[] = prior.map((r) =>
    r.head_sha !== head && (r.stale === null || r.stale === undefined)
      ? { state: r.state, stale: { superseded_by: head } }
      : r,
  );
  return stored === null ? after : [...after, { state: stored, stale: null }];
}

/** A stored entry as a gate pass's priority rule reads it. */
export interface EntryView {
  issue_number: number;
  state: string;
  fields: { blocking_pull: number | null };
}

/** The same issues, whatever the order and repeats. */
export const sameMentions = (a: readonly number[], b: readonly number[]): boolean =>
  new Set(a).size === new Set(b).size && a.every((n) => b.includes(n));

/**
 * The entries whose pass a gate pass's change calls for (docs/entries.md, "Priority"). The gate's
 * hold on the pull request began or ended, or the pass is retried (its first run may have stored
 * the change and stopped before queueing): every unresolved entry linked to it now or before
 * (named by its form, mentioned before or now). Its description's mentions changed while the gate
 * holds it: the entries mentioned only before or only now (one its form names is linked either
 * way). Otherwise none.
 */
export function entryPassesDue(input: {
  pullNumber: number;
  entries: readonly EntryView[];
  mentionedBefore: readonly number[];
  mentionedNow: readonly number[];
  holdsBefore: boolean;
  holdsAfter: boolean;
  retried: boolean;
}): number[] {
  const { mentionedBefore, mentionedNow, holdsAfter } = input;
  const holdChanged = input.holdsBefore !== holdsAfter || input.retried;
  if (!holdChanged && sameMentions(mentionedBefore, mentionedNow)) return [];
  const due = input.entries.filter((e) => {
    if (e.state === "resolved") return false;
    const named = e.fields.blocking_pull === input.pullNumber;
    const now = mentionedNow.includes(e.issue_number);
    const before = mentionedBefore.includes(e.issue_number);
    if (holdChanged) return named || now || before;
    return holdsAfter && !named && now !== before;
  });
  return due.map((e) => e.issue_number);
}

/** One pull request linked to an entry, as the entry's pass sees it. */
export interface LinkedPullView {
  number: number;
  /** What the gate decided about it, oldest first (agate's store). */
  decisions: readonly DecisionView[];
}

/**
 * The linked pull requests whose open state decides the entry's priority: those the gate holds.
 * Only these need a look at GitHub (is it still open?), so an entry linked to accepted pull
 * requests costs no call.
 */
export function holdingPulls(pulls: readonly LinkedPullView[]): number[] {
  return [...new Set(pulls.filter((p) => gateHolds(p.decisions)).map((p) => p.number))];
}

/**
 * An agent declares that it waits on its entry with a comment `/wait DURATION` (`agate-gate entry
 * status N --wait` posts one and renews it by editing it). A declaration counts for its duration,
 * at most WAIT_LEASE_MAX_MS, from the time GitHub gives the comment (its last edit: a renewal),
 * never a time the agent wrote; so an agent that died stops counting when its lease runs out.
 */
export const WAIT_LEASE_MAX_MS = 60 * 60_000;

const WAIT = /^\/wait\s+([1-9][0-9]*)(s|m|h)(?=\s|$)/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** The lease a comment declares (`/wait 10m`, capped), or null when it declares none. */
export function parseWait(body: string | null): number | null {
  const match = WAIT.exec((body ?? "").trimStart());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return Math.min(ms, WAIT_LEASE_MAX_MS);
}

/** A comment as a wait declaration is read: who, what, and GitHub's times. */
export interface WaitComment {
  login: string;
  body: string;
  created_at: string;
  /** GitHub's time of the last edit (a renewal); absent or equal to created_at when none. */
  updated_at?: string | undefined;
}

/**
 * Until when the entry's author declared it waits, when that is later than `now`; null otherwise.
 * Only the author's declarations count: the agent that asked is the one that waits, and anyone
 * else could make every entry urgent.
 */
export function declaredWaitUntil(
  comments: readonly WaitComment[],
  author: string,
  now: Date,
): Date | null {
  let until = 0;
  for (const c of comments) {
    if (c.login.toLowerCase() !== author.toLowerCase()) continue;
    const lease = parseWait(c.body);
    if (lease === null) continue;
    const at = Math.max(Date.parse(c.created_at), Date.parse(c.updated_at ?? c.created_at));
    until = Math.max(until, at + lease);
  }
  return until > now.getTime() ? new Date(until) : null;
}
