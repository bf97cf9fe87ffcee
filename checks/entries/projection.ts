/**
 * Labels and the issue's open/closed state are a projection of the stored entry: computed here
 * from it, compared with what the issue shows, and only the difference is written.
 */
import type { EntryPriority, HandoffEntryState } from "../../schemas/handoff-entry.js";
import { entryPriority } from "./machine.js";

interface LabelStyle {
  color: string;
  description: string;
}

const STATE_LABELS: Record<HandoffEntryState, LabelStyle> = {
  open: { color: "0e8a16", description: "Handoff entry: waiting for an agent to /claim it" },
  claimed: { color: "fbca04", description: "Handoff entry: one owner is answering it" },
  resolved: { color: "5319e7", description: "Handoff entry: answered by its owner" },
  blocked: { color: "b60205", description: "Handoff entry: parked, nobody can help; not notified" },
  escalated: { color: "d93f0b", description: "Handoff entry: needs a maintainer's decision" },
};

const PRIORITY_LABELS: Record<EntryPriority, LabelStyle> = {
  blocking: { color: "e99695", description: "An agent is waiting on this entry (derived)" },
  background: { color: "c5def5", description: "Nobody is waiting on this entry (derived)" },
};

export const entryStateLabel = (state: HandoffEntryState) => `agate:${state}`;
export const entryPriorityLabel = (priority: EntryPriority) => `agate:${priority}`;

/** Every label agate owns on an entry, with its colour and description. */
export const ENTRY_LABELS: ReadonlyMap<string, LabelStyle> = new Map<string, LabelStyle>([
  ...Object.entries(STATE_LABELS).map(
    ([state, style]) => [entryStateLabel(state as HandoffEntryState), style] as const,
  ),
  ...Object.entries(PRIORITY_LABELS).map(
    ([priority, style]) => [entryPriorityLabel(priority as EntryPriority), style] as const,
  ),
]);

export const isEntryLabel = (name: string) => ENTRY_LABELS.has(name.toLowerCase());

/** The labels the entry should carry. */
export function desiredEntryLabels(state: HandoffEntryState, agentWaiting: boolean): string[] {
  return [entryStateLabel(state), entryPriorityLabel(entryPriority(state, agentWaiting))];
}

/** What to add and remove so the issue shows `desired`; labels agate does not own are left. */
export function planEntryLabels(
  current: readonly string[],
  desired: readonly string[],
): { add: string[]; remove: string[] } {
  const have = new Set(current.map((name) => name.toLowerCase()));
  const want = new Set(desired.map((name) => name.toLowerCase()));
  return {
    add: desired.filter((name) => !have.has(name.toLowerCase())),
    remove: current.filter((name) => isEntryLabel(name) && !want.has(name.toLowerCase())),
  };
}

/**
 * Whether the issue must be open or closed in this state: resolved and blocked are closed
 * (blocked as not planned); open, claimed and escalated are open. An escalated entry closed by
 * hand is reopened: closing never decides it (a merged pull request's closing keyword closes
 * issues too, in the merger's name), only a maintainer's `/answer` does.
 */
export function issueStateFor(
  state: HandoffEntryState,
): { state: "open" } | { state: "closed"; reason: "completed" | "not_planned" } | null {
  switch (state) {
    case "open":
    case "claimed":
    case "escalated":
      return { state: "open" };
    case "resolved":
      return { state: "closed", reason: "completed" };
    case "blocked":
      return { state: "closed", reason: "not_planned" };
  }
}

/** The command that changes what a label shows, for the comment when one is changed by hand. */
export function commandForLabel(label: string): string {
  switch (label.toLowerCase()) {
    case "agate:open":
      return "An owner gives an entry back with `/release`.";
    case "agate:claimed":
      return "An agent takes an entry with `/claim`.";
    case "agate:resolved":
      return "The owner resolves an entry with `/answer <the answer>`.";
    case "agate:blocked":
      return "An entry is parked with `/block <why>`.";
    case "agate:escalated":
      return "An entry reaches a maintainer with `/escalate <money|external|irreversible|credentials|scope> <why>`.";
    default:
      return "Priority is derived, never set: an entry is `agate:blocking` while a pull request linked to it (the one its form names as Blocking pull request, or one whose description mentions it) is open and held by agate's gate (gated, its head not accepted).";
  }
}
