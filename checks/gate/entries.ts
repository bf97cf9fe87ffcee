/**
 * The handoff entries a gated pull request is linked to (their form names it as the blocking pull
 * request, or its description mentions them), as one requirement. Anyone who can open an issue
 * can name any pull request, and the author writes the description, so an entry only ever holds
 * a pull request back: open or claimed waits for the answer, blocked parks it, escalated needs a
 * maintainer; only a resolved entry passes, and passing is what the pull request would have been
 * without it. What the entry's people wrote (question, why) is shown as
 * code, never as Markdown.
 */
import {
  type GateFacts,
  LINKED_ENTRY_QUESTION_CHARS,
  type LinkedEntryFact,
  type Requirement,
} from "../../schemas/gate.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import { codeSpan, counted } from "../markdown.js";
import { overrideCommand } from "./listing.js";
import { requirementOf } from "./requirements/part.js";

export interface EntriesPart {
  requirement: Requirement;
  /** What someone can do about it, for the next work items. */
  items: string[];
  /** Escalated entries: each makes the pull request escalated. */
  escalated: LinkedEntryFact[];
}

/** `handoff entry #7` as every line names it. */
export const entryName = (entry: Pick<LinkedEntryFact, "issue_number">) =>
  `handoff entry #${entry.issue_number}`;

/**
 * The one line a maintainer reads to know what they must decide. What an escalated entry needs, for the title and the requirement's row: without the why, which
 * the summary's table of entries gives (in the words of whoever escalated it).
 */
export function escalationTitle(entry: LinkedEntryFact): string {
  return `${entryName(entry)} needs a maintainer's decision on ${entry.escalation_reason ?? "a human decision"}`;
}

/**
 * The entries linked to this pull request (docs/entries.md, "The gate reads entries"): those whose
 * form names it as the one waiting on them, and those its description mentions (`mentions`), as
 * agate's store has them: what agate decided, not what the issue's labels or comments say now.
 */
export function linkedEntries(
  entries: readonly HandoffEntry[],
  number: number,
  mentions: readonly number[] = [],
): LinkedEntryFact[] {
  return entries
    .filter((e) => e.fields.blocking_pull === number || mentions.includes(e.issue_number))
    .map((e) => ({
      issue_number: e.issue_number,
      state: e.state,
      author: e.author,
      owner: e.owner,
      escalation_reason: e.escalation_reason,
      why: e.why,
      question: e.fields.question.slice(0, LINKED_ENTRY_QUESTION_CHARS),
      state_changed_at: e.state_changed_at,
    }));
}

const where = (entries: LinkedEntryFact[]) => entries.map((e) => `#${e.issue_number}`).join(", ");

/** The entries requirement; null when no entry is linked to the pull request. */
export function entriesRequirement(facts: GateFacts): EntriesPart | null {
  const entries = facts.entries ?? [];
  if (entries.length === 0) return null;
  const head = facts.pull_request.head_sha;
  const req = requirementOf("entries", "handoff entries");
  const escalated = entries.filter((e) => e.state === "escalated");
  if (escalated.length > 0) {
    return {
      requirement: req("waiting", escalated.map(escalationTitle).join("; ")),
      items: escalated.map(
        (e) =>
          `A maintainer decides what ${entryName(e)} asks (${e.escalation_reason ?? "escalated"}) and answers it there with \`/answer <the decision>\`, or accepts this exact commit with \`${overrideCommand(head)}\``,
      ),
      escalated,
    };
  }
  const blocked = entries.filter((e) => e.state === "blocked");
  if (blocked.length > 0) {
    return {
      requirement: req(
        "blocked",
        `${blocked.length === 1 ? entryName(blocked[0] as LinkedEntryFact) : `handoff entries ${where(blocked)}`} ended blocked: nobody could answer what this pull request waits on`,
      ),
      items: blocked.map(
        (e) =>
          `Find another way past what ${entryName(e)} asked (it is parked: ${codeSpan(e.why ?? "blocked", 120)}), or ask a maintainer to accept this exact commit with \`${overrideCommand(head)}\``,
      ),
      escalated: [],
    };
  }
  const waiting = entries.filter((e) => e.state === "open" || e.state === "claimed");
  if (waiting.length > 0) {
    const state = (e: LinkedEntryFact) =>
      e.state === "claimed" && e.owner ? `claimed by ${codeSpan(e.owner, 60)}` : "open";
    return {
      // Nobody on this pull request can act: the answer comes on the entry, and a pass follows it.
      requirement: req(
        "waiting",
        `waiting for the answer to ${waiting.map((e) => `${entryName(e)} (${state(e)})`).join(", ")}`,
      ),
      items: [],
      escalated: [],
    };
  }
  return {
    requirement: req(
      "pass",
      `${entries.length === 1 ? `${entryName(entries[0] as LinkedEntryFact)} is` : `${counted(entries.length, "handoff entry", "handoff entries")} are`} resolved`,
    ),
    items: [],
    escalated: [],
  };
}
