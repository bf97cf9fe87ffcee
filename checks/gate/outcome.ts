/**
 * The precedence of outcomes, written once: a gated pull request's state, conclusion and title
 * come from the first row of OUTCOMES that holds, and so does the requirement whose work comes
 * first in the next work items (the summary's next action). The requirements themselves are
 * built one file each in checks/gate/requirements/; this file only ranks them.
 */
import type { GateDecision, LinkedEntryFact, Requirement } from "../../schemas/gate.js";
import { codeSpan, cutTitle } from "../markdown.js";
import { escalationTitle } from "./entries.js";
import type { Part } from "./requirements/part.js";

/** What the outcome is chosen from: the requirements, and what only the facts can say. */
export interface OutcomeInput {
  /** The head's short SHA, as every title names it. */
  head: string;
  requirements: readonly Requirement[];
  /** A maintainer's override of this exact head. */
  override: { by: string; reason: string } | null;
  /** The linked entries escalated to a maintainer (checks/gate/entries.ts). */
  escalated: readonly LinkedEntryFact[];
  /** The commands' pass is carried over from an identical tree's acceptance. */
  carriedOver: boolean;
}

/** A row that holds: its title, and the requirement that decides, when one does. */
interface Held {
  title: string;
  decisive?: Requirement;
}

interface Row {
  state: GateDecision["state"];
  conclusion: GateDecision["conclusion"];
  /** Nothing is left to do once this row holds: no next work items at all. */
  settled?: true;
  /** null: the row does not hold. */
  holds(input: OutcomeInput): Held | null;
}

/** The first requirement that matches decides, and its reason is the title's. */
const first =
  (word: string, match: (r: Requirement) => boolean) =>
  ({ head, requirements }: OutcomeInput): Held | null => {
    const decisive = requirements.find(match);
    return decisive ? { decisive, title: `${word} on ${head}: ${decisive.reason}` } : null;
  };

/** Every requirement with the status is in the title; the first decides. */
const every =
  (word: string, status: Requirement["status"]) =>
  ({ head, requirements }: OutcomeInput): Held | null => {
    const held = requirements.filter((r) => r.status === status);
    const [decisive] = held;
    if (!decisive) return null;
    return { decisive, title: `${word} on ${head}: ${held.map((r) => r.reason).join("; ")}` };
  };

/**
 * Highest first. Each row holds over every row below it, whatever those say (outcome.test.ts
 * plays each row with the next one holding too).
 */
export const OUTCOMES: readonly Row[] = [
  {
    // A maintainer accepted this exact head: their decision stands over every other
    // requirement, which the summary still shows as it is.
    state: "accepted",
    conclusion: "success",
    settled: true,
    holds: ({ head, override }) =>
      override && {
        title: `Accepted on ${head} by ${override.by}'s override: ${codeSpan(override.reason)}`,
      },
  },
  {
    // An escalated entry waits on a human decision the agent cannot make, whatever else holds;
    // the title says what the maintainer must decide.
    state: "escalated",
    conclusion: "action_required",
    holds: ({ head, requirements, escalated }) => {
      const decisive = requirements.find((r) => r.id === "entries");
      const [entry] = escalated;
      if (!decisive || !entry) return null;
      const more = escalated.length > 1 ? ` (and ${escalated.length - 1} more)` : "";
      return { decisive, title: `Escalated on ${head}: ${escalationTitle(entry)}${more}` };
    },
  },
  {
    // Past the attempts budget this head is not graded at all: what it would have been is moot.
    state: "capped",
    conclusion: "failure",
    holds: first("Capped", (r) => r.id === "progress" && r.status === "capped"),
  },
  {
    state: "stalled",
    conclusion: "failure",
    holds: first("Stalled", (r) => r.status === "stalled"),
  },
  { state: "rejected", conclusion: "failure", holds: every("Rejected", "fail") },
  { state: "capped", conclusion: "failure", holds: every("Capped", "capped") },
  { state: "blocked", conclusion: "failure", holds: every("Blocked", "blocked") },
  {
    // A protected path changed: a maintainer's approval of this commit is a person's decision.
    state: "escalated",
    conclusion: "action_required",
    holds: first("Escalated", (r) => r.id === "protected_paths" && r.status === "waiting"),
  },
  {
    // Waiting decides nothing: everyone's work is listed in order. The evaluator's own wait is
    // only worth the title when nothing else is waited for.
    state: "pending",
    conclusion: null,
    holds: ({ head, requirements }) => {
      const all = requirements.filter((r) => r.status === "waiting");
      const others = all.filter((r) => r.id !== "evaluator");
      const waiting = others.length > 0 ? others : all;
      if (waiting.length === 0) return null;
      return { title: `Waiting on ${head}: ${waiting.map((r) => r.reason).join("; ")}` };
    },
  },
  {
    state: "accepted",
    conclusion: "success",
    holds: ({ head, carriedOver }) => ({
      title: carriedOver
        ? `Accepted on ${head}: carried over from an identical tree`
        : `Accepted on ${head}: every requirement passed`,
    }),
  },
];

export interface Outcome {
  state: GateDecision["state"];
  conclusion: GateDecision["conclusion"];
  title: string;
  /** The next work items, the deciding requirement's first; none once the decision is settled. */
  missing: string[];
}

/** The first row of OUTCOMES that holds, with the next work items in its order. */
export function outcomeOf(input: OutcomeInput, parts: readonly Part[]): Outcome {
  for (const row of OUTCOMES) {
    const held = row.holds(input);
    if (!held) continue;
    // The next work items: what someone can do, each requirement's own. A requirement that only
    // waits (a run in progress, the evaluator not asked yet) has none: nobody can act on it.
    const open = parts.filter((p) => p.requirement.status !== "pass");
    const missing = row.settled
      ? []
      : [
          ...open.filter((p) => p.requirement === held.decisive),
          ...open.filter((p) => p.requirement !== held.decisive),
        ].flatMap((p) => p.items);
    return { state: row.state, conclusion: row.conclusion, title: cutTitle(held.title), missing };
  }
  // The last row always holds.
  throw new Error("no outcome holds: OUTCOMES must end with a row that always holds");
}
