/**
 * Labels and the issue's open/closed state are a projection of the stored entry: computed here
 * from it, compared with what the issue shows, and only the difference is written.
 */
import {
  type EntryPriority,
  entryPrioritySchema,
  type HandoffEntryState,
  handoffEntryStateSchema,
} from "../../schemas/handoff-entry.js";
import { AGATE_LABELS, type LabelStyle } from "../labels.js";
import { entryPriority } from "./machine.js";

const entryStateLabel = (state: HandoffEntryState) => `agate:${state}` as const;
const entryPriorityLabel = (priority: EntryPriority) => `agate:${priority}` as const;

/** Every label agate owns on an entry, with its colour and description (checks/labels.ts). */
export const ENTRY_LABELS: ReadonlyMap<string, LabelStyle> = new Map<string, LabelStyle>(
  [
    ...handoffEntryStateSchema.options.map(entryStateLabel),
    ...entryPrioritySchema.options.map(entryPriorityLabel),
  ].map((name) => [name, AGATE_LABELS[name]]),
);

export const isEntryLabel = (name: string) => ENTRY_LABELS.has(name.toLowerCase());

const PRIORITY_LABELS = new Set<string>(entryPrioritySchema.options.map(entryPriorityLabel));

/** Whether a label is an entry's priority (blocking, background): what the dashboard lists by. */
export const isEntryPriorityLabel = (name: string) => PRIORITY_LABELS.has(name.toLowerCase());

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
      return "Priority is derived, never set: an entry is `agate:blocking` while a pull request linked to it (the one its form names as Blocking pull request, or one whose description mentions it) is open and held by agate's gate (gated, its head not accepted), or while its author declares it waits on it with `/wait <duration>`.";
  }
}
