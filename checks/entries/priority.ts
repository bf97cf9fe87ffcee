/**
 * Whether an agent waits on a handoff entry, which makes it `agate:blocking` (docs/entries.md,
 * "Priority"): the entry is not resolved, and a pull request linked to it (named by its form's
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
