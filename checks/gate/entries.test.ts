import { describe, expect, it } from "vitest";
import type { GateFacts, LinkedEntryFact } from "../../schemas/gate.js";
import {
  commandEvidence,
  evidenceRun,
  gateFacts,
  HEAD,
  judgedEvaluation,
} from "../../test/support/gate-facts.js";
import { decideGate } from "./decide.js";
import { renderGateSummary } from "./render.js";

function entry(overrides: Partial<LinkedEntryFact> = {}): LinkedEntryFact {
  return {
    issue_number: 12,
    state: "open",
    author: "agent-a[bot]",
    owner: null,
    escalation_reason: null,
    why: null,
    question: "Which port does the staging database listen on?",
    state_changed_at: "2026-12-02T10:00:00.000Z",
    ...overrides,
  };
}

/** A pull request every requirement accepts: commands passed, the evaluator signed off. */
function accepted(entries: LinkedEntryFact[]): GateFacts {
  return gateFacts({
    evidence_run: evidenceRun(commandEvidence([0, 0]).record),
    evidence: [commandEvidence([0, 0])],
    evaluation: judgedEvaluation({ complete: true, score: 0.9, missing: [] }),
    entries,
  });
}

describe("linked handoff entries in the gate", () => {
  it("the facts without entries accept (the baseline these tests hold back)", () => {
    expect(decideGate(accepted([])).state).toBe("accepted");
  });

  it("an open or claimed entry holds an otherwise accepted pull request in progress, naming it", () => {
    for (const e of [entry(), entry({ state: "claimed", owner: "agent-b[bot]" })]) {
      const facts = accepted([e]);
      const d = decideGate(facts);
      expect([d.state, d.conclusion]).toEqual(["pending", null]);
      expect(d.requirements.find((r) => r.id === "entries")?.status).toBe("waiting");
      const summary = renderGateSummary(d, facts);
      expect(summary).toContain("### Handoff entries");
      expect(summary).toContain(
        e.state === "claimed"
          ? "| handoff entry #12 | claimed by `agent-b[bot]` |"
          : "| handoff entry #12 | open |",
      );
    }
  });

  it("an escalated entry makes the pull request escalated, with what the maintainer must decide in the title", () => {
    const facts = accepted([
      entry({ state: "escalated", escalation_reason: "money", why: "buy the 50 € plan?" }),
    ]);
    const d = decideGate(facts);
    expect([d.state, d.conclusion]).toEqual(["escalated", "action_required"]);
    expect(d.title).toBe(
      "Escalated on 1111111: handoff entry #12 needs a maintainer's decision on money",
    );
    // The why, in the words of whoever escalated it, once: in the summary's table of entries.
    const summary = renderGateSummary(d, facts);
    expect(summary.split("buy the 50 € plan?").length).toBe(2);
    expect(d.missing[0]).toContain("A maintainer decides what handoff entry #12 asks (money)");
    expect(renderGateSummary(d, facts).split("\n")[0]).toContain("**Escalated:**");
  });

  it("an escalated entry wins over a failing command: the agent cannot go on without the decision", () => {
    const facts = gateFacts({
      evidence: [commandEvidence([1, 0])],
      entries: [entry({ state: "escalated", escalation_reason: "scope", why: "drop IE?" })],
    });
    const d = decideGate(facts);
    expect(d.state).toBe("escalated");
    // The failing command is still a work item, after the decision.
    expect(d.missing.some((m) => m.includes("Make `unit` pass"))).toBe(true);
  });

  it("a blocked entry parks the pull request as blocked; a resolved one passes", () => {
    const blocked = decideGate(accepted([entry({ state: "blocked", why: "nobody knows" })]));
    expect([blocked.state, blocked.conclusion]).toEqual(["blocked", "failure"]);
    const resolved = decideGate(accepted([entry({ state: "resolved" })]));
    expect(resolved.state).toBe("accepted");
    expect(resolved.requirements.find((r) => r.id === "entries")).toMatchObject({
      status: "pass",
      reason: "handoff entry #12 is resolved",
    });
  });

  it("attack: an entry that names the pull request never makes it pass (no evidence stays pending, a failure stays rejected)", () => {
    const resolved = entry({ state: "resolved" });
    expect(decideGate(gateFacts({ entries: [resolved] })).state).toBe("pending");
    expect(
      decideGate(gateFacts({ evidence: [commandEvidence([1, 0])], entries: [resolved] })).state,
    ).toBe("rejected");
  });

  it("a maintainer's override of the exact head stands over an escalated entry", () => {
    const facts = accepted([entry({ state: "escalated", escalation_reason: "money" })]);
    facts.override = {
      by: "octocat",
      reason: "approved the spend",
      at: "2026-12-02T11:00:00Z",
      comment_url: null,
    };
    expect(decideGate(facts).state).toBe("accepted");
  });

  it("attack: what the entry's people wrote is shown as code, never as Markdown or a mention", () => {
    const facts = accepted([
      entry({
        state: "escalated",
        escalation_reason: "external",
        why: "@maintainers <img src=x> | ping",
        question: "**urgent** @octocat\n### Accepted",
      }),
    ]);
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary).toContain("`**urgent** @octocat ### Accepted`");
    expect(summary).not.toMatch(/^### Accepted/m);
    expect(summary).toContain("`@maintainers <img src=x> \\| ping`");
  });

  it("the head is named in the override command the escalation offers", () => {
    const d = decideGate(accepted([entry({ state: "escalated", escalation_reason: "money" })]));
    expect(d.missing[0]).toContain(`/agate accept ${HEAD}`);
  });
});
