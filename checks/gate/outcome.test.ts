import { describe, expect, it } from "vitest";
import type { LinkedEntryFact, Requirement } from "../../schemas/gate.js";
import { OUTCOMES, type OutcomeInput, outcomeOf } from "./outcome.js";
import type { Part } from "./requirements/part.js";

const HEAD = "1111111";

const part = (
  id: Requirement["id"],
  status: Requirement["status"],
  reason: string,
  items: string[] = [],
): Part => ({ requirement: { id, name: id, status, reason }, items });

const entry: LinkedEntryFact = {
  issue_number: 7,
  state: "escalated",
  author: "agent-a[bot]",
  owner: null,
  escalation_reason: "money",
  why: "a paid plan",
  question: "Which plan?",
  state_changed_at: "2026-12-02T10:00:00.000Z",
};

/**
 * What makes each row of OUTCOMES hold, in the table's order: the parts it adds (each with its
 * own work item) and what else of the input it sets. Some pairs cannot meet in a real decision
 * (a head both capped and stalled): the table is tested as a table, row by row.
 */
const TRIGGERS: { state: string; title: string; parts: Part[]; input?: Partial<OutcomeInput> }[] = [
  {
    state: "accepted",
    title: `Accepted on ${HEAD} by octocat's override: \`looked at it myself\``,
    parts: [part("override", "pass", "octocat accepted it")],
    input: { override: { by: "octocat", reason: "looked at it myself" } },
  },
  {
    state: "escalated",
    title: `Escalated on ${HEAD}: handoff entry #7 needs a maintainer's decision on money`,
    parts: [part("entries", "waiting", "handoff entry #7 escalated", ["decide #7"])],
    input: { escalated: [entry] },
  },
  {
    state: "capped",
    title: `Capped on ${HEAD}: 12 graded attempts`,
    parts: [part("progress", "capped", "12 graded attempts", ["raise the attempts budget"])],
  },
  {
    state: "stalled",
    title: `Stalled on ${HEAD}: the same failure 3 times`,
    parts: [part("progress", "stalled", "the same failure 3 times", ["change the failure"])],
  },
  {
    state: "rejected",
    title: `Rejected on ${HEAD}: 1 of 2 required commands failed`,
    parts: [part("commands", "fail", "1 of 2 required commands failed", ["make test pass"])],
  },
  {
    state: "capped",
    title: `Capped on ${HEAD}: budgets.evaluator_bundle_tokens reached`,
    parts: [part("evaluator", "capped", "budgets.evaluator_bundle_tokens reached", ["raise it"])],
  },
  {
    state: "blocked",
    title: `Blocked on ${HEAD}: the handoff file says status: blocked`,
    parts: [part("handoff", "blocked", "the handoff file says status: blocked", ["unblock"])],
  },
  {
    state: "escalated",
    title: `Escalated on ${HEAD}: changes \`.github/agate.yml\``,
    parts: [part("protected_paths", "waiting", "changes `.github/agate.yml`", ["approve it"])],
  },
  {
    state: "pending",
    title: `Waiting on ${HEAD}: no command record yet`,
    parts: [part("commands", "waiting", "no command record yet", ["wait for the run"])],
  },
  { state: "accepted", title: `Accepted on ${HEAD}: every requirement passed`, parts: [] },
];

function decide(parts: Part[], input: Partial<OutcomeInput> = {}) {
  return outcomeOf(
    {
      head: HEAD,
      requirements: parts.map((p) => p.requirement),
      override: null,
      escalated: [],
      carriedOver: false,
      ...input,
    },
    parts,
  );
}

describe("the precedence of outcomes, written once", () => {
  it("has one trigger per row, in the table's order", () => {
    expect(TRIGGERS.map((t) => t.state)).toEqual(OUTCOMES.map((row) => row.state));
  });

  for (const [i, trigger] of TRIGGERS.entries()) {
    const below = TRIGGERS.slice(i + 1);
    if (below.length === 0) continue;
    it(`${trigger.title.split(":")[0]} holds over the row below it, and over every row below`, () => {
      // The row below listed first: the order of the parts decides nothing.
      for (const others of [below.slice(0, 1), below]) {
        const parts = [...others.flatMap((t) => t.parts), ...trigger.parts];
        const input = Object.assign({}, ...others.map((t) => t.input), trigger.input);
        const outcome = decide(parts, input);
        expect([outcome.state, outcome.title]).toEqual([trigger.state, trigger.title]);
        const decisive = trigger.parts[0]?.items ?? [];
        // An override settles everything; otherwise the deciding requirement's work comes first.
        if (trigger.input?.override) expect(outcome.missing).toEqual([]);
        else expect(outcome.missing.slice(0, decisive.length)).toEqual(decisive);
      }
    });
  }

  it("every requirement with the deciding status is in the title; the first one's work leads", () => {
    const outcome = decide([
      part("handoff", "waiting", "set status: ready", ["set it"]),
      part("commands", "fail", "lint failed", ["fix lint"]),
      part("evaluator", "fail", "score 0.2 < 0.7", ["finish the task"]),
    ]);
    expect(outcome.title).toBe(`Rejected on ${HEAD}: lint failed; score 0.2 < 0.7`);
    expect(outcome.missing).toEqual(["fix lint", "set it", "finish the task"]);
  });

  it("waiting decides nothing: everyone's work in order, the evaluator's wait named only alone", () => {
    const waiting = decide([
      part("commands", "waiting", "no command record yet"),
      part("handoff", "waiting", "set status: ready", ["set it"]),
      part("evaluator", "waiting", "asking the evaluator", ["wait"]),
    ]);
    expect(waiting.title).toBe(`Waiting on ${HEAD}: no command record yet; set status: ready`);
    expect(waiting.missing).toEqual(["set it", "wait"]);
    expect(decide([part("evaluator", "waiting", "asking the evaluator")]).title).toBe(
      `Waiting on ${HEAD}: asking the evaluator`,
    );
  });

  it("names how many more entries are escalated; a carried-over acceptance says so", () => {
    const second = { ...entry, issue_number: 8 };
    expect(
      decide([part("entries", "waiting", "escalated")], { escalated: [entry, second] }).title,
    ).toBe(
      `Escalated on ${HEAD}: handoff entry #7 needs a maintainer's decision on money (and 1 more)`,
    );
    expect(decide([part("commands", "pass", "carried over")], { carriedOver: true }).title).toBe(
      `Accepted on ${HEAD}: carried over from an identical tree`,
    );
  });
});
