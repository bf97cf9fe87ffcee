import { describe, expect, it } from "vitest";
import type { GateFacts, PriorRecord } from "../../schemas/gate.js";
import {
  commandEvidence,
  commandRecord,
  configFact,
  gateFacts,
  HEAD,
  TREE,
} from "../../test/support/gate-facts.js";
import { decideGate } from "./decide.js";
import { type ExistingCheck, planGatePass } from "./plan.js";

const LLM = configFact(
  "version: 1\ncommands:\n  - { name: unit, run: npm test }\nevaluator: { kind: llm, model: judge-1 }\n",
);

const prior = (state: PriorRecord["state"]): PriorRecord => ({
  id: 1,
  head_sha: HEAD,
  base_sha: null,
  tree_sha: TREE,
  state,
  config_digest: "d",
  agate_version: "0.1.0",
  decided_at: "2026-12-03T10:00:00Z",
  stale: null,
});

const TASK = { title: "Add a", body: "Fixes #3" };

function plan(facts: GateFacts, existing: ExistingCheck | null = null, evaluatorDue = false) {
  const decision = decideGate(facts);
  return {
    decision,
    plan: planGatePass({
      facts,
      decision,
      existing,
      evaluatorDue,
      rerunEvaluator: false,
      task: TASK,
    }),
  };
}

describe("planGatePass: what one gate pass writes", () => {
  it("a first decision writes the check and is stored; waiting for evidence adds no label", () => {
    const { decision, plan: p } = plan(gateFacts());
    expect(decision.state).toBe("pending");
    expect(p.check).toMatchObject({
      conclusion: null,
      title: decision.title,
      externalId: `agate:octo/widgets#7@${HEAD}`,
      rerunEvaluator: false,
    });
    expect(p.labels).toEqual({ remove: [], add: [] });
    expect([p.comments, p.storeDecision, p.askEvaluator]).toEqual([[], true, null]);
  });

  it("a check that already shows the decision is not written again, and the same state is not stored twice", () => {
    const facts = gateFacts({
      evidence: [commandEvidence([0, 0])],
      prior_records: [prior("accepted")],
      pull_request: { ...gateFacts().pull_request, labels: ["agent", "agate:accepted"] },
    });
    const decision = decideGate(facts);
    const shown: ExistingCheck = {
      status: "completed",
      conclusion: "success",
      title: decision.title,
      // What a first pass wrote: the summary with the status block at its end.
      summary: plan(facts).plan.check?.summary ?? null,
    };
    const { plan: p } = plan(facts, shown);
    expect(p).toMatchObject({ check: null, storeDecision: false, comments: [] });
    expect(p.labels).toEqual({ remove: [], add: [] });
    // Any difference (here the summary) is a write, and a write is a stored decision.
    const { plan: changed } = plan(facts, { ...shown, summary: "older words" });
    expect(changed.check).not.toBeNull();
    expect(changed.storeDecision).toBe(true);
  });

  it("a state label a person removed is put back with a comment; other agate: labels go", () => {
    const facts = gateFacts({
      evidence: [commandEvidence([0, 1])],
      prior_records: [prior("rejected")],
      pull_request: { ...gateFacts().pull_request, labels: ["agent", "agate:accepted"] },
    });
    const { decision, plan: p } = plan(facts);
    expect(decision.state).toBe("rejected");
    expect(p.labels).toEqual({ remove: ["agate:accepted"], add: ["agate:rejected"] });
    expect(p.comments).toHaveLength(1);
    expect(p.comments[0]).toContain("`agate:rejected` is back");
  });

  it("a state label a person put on a pull request waiting for evidence goes, with a comment", () => {
    const facts = gateFacts({
      prior_records: [prior("pending")],
      pull_request: { ...gateFacts().pull_request, labels: ["agent", "agate:accepted"] },
    });
    const { decision, plan: p } = plan(facts);
    expect(decision.state).toBe("pending");
    expect(p.labels).toEqual({ remove: ["agate:accepted"], add: [] });
    expect(p.comments).toHaveLength(1);
    expect(p.comments[0]).toContain("`agate:accepted` is gone");
  });

  it("a state label in another spelling is agate's: kept when it is the state, removed when not", () => {
    const same = gateFacts({
      evidence: [commandEvidence([0, 1])],
      prior_records: [prior("rejected")],
      pull_request: { ...gateFacts().pull_request, labels: ["Agate:Rejected"] },
    });
    expect(plan(same).plan).toMatchObject({ labels: { remove: [], add: [] }, comments: [] });
    const other = gateFacts({
      prior_records: [prior("pending")],
      pull_request: { ...gateFacts().pull_request, labels: ["Agate:Accepted"] },
    });
    expect(plan(other).plan.labels).toEqual({ remove: ["Agate:Accepted"], add: [] });
  });

  it("the agate:pending label of earlier versions goes without a comment", () => {
    const facts = gateFacts({
      prior_records: [prior("pending")],
      pull_request: { ...gateFacts().pull_request, labels: ["agent", "agate:pending"] },
    });
    const { plan: p } = plan(facts);
    expect(p.labels).toEqual({ remove: ["agate:pending"], add: [] });
    expect(p.comments).toEqual([]);
  });

  it("a pull request agate does not gate loses every agate: label, with a comment saying why", () => {
    const facts = gateFacts({
      config: { status: "missing", path: ".github/agate.yml" },
      pull_request: { ...gateFacts().pull_request, labels: ["agate:accepted", "agate:stalled"] },
    });
    const { decision, plan: p } = plan(facts);
    expect(decision.state).toBe("not_gated");
    expect(p.labels).toEqual({ remove: ["agate:accepted", "agate:stalled"], add: [] });
    expect(p.comments[0]).toContain("agate removed `agate:accepted`, `agate:stalled`");
  });

  it("the evaluator is asked only when the commands pass and it is due; the check says it is judging", () => {
    const passing = gateFacts({ config: LLM, evidence: [commandEvidence([0])] });
    const { plan: asked } = plan(passing, null, true);
    // The job is handed what this pass read and believed: it reads the pull request no more.
    expect(asked.askEvaluator).toEqual({
      tree_sha: TREE,
      config_digest: LLM.status === "ok" ? LLM.digest : "",
      rerun: false,
      inputs: {
        base_sha: passing.pull_request.base_sha,
        base_ref: passing.pull_request.base_ref,
        title: "Add a",
        body: "Fixes #3",
        commands: [{ name: "unit", run: "npm test", exit_code: 0, tail: "ok\n" }],
        trace: null,
        handoff_at: "merge_base",
        changed_files: [{ filename: "src/a.ts", status: "modified" }],
        read_at: passing.handoff?.observed_at,
      },
    });
    // Touched by the pull request (or a listing that may be cut): the handoff file at the head.
    const touched = gateFacts({
      config: LLM,
      evidence: [commandEvidence([0])],
      changed_files: [
        { filename: "new.md", previous_filename: ".agate/handoff.md", status: "renamed" },
      ],
    });
    expect(plan(touched, null, true).plan.askEvaluator?.inputs?.handoff_at).toBe("head");
    // A refused record is not believed: its commands are not the evaluator's.
    const refused = gateFacts({
      config: LLM,
      evidence: [commandEvidence([0]), { ...commandEvidence([0, 0]), refused: "forged" }],
    });
    expect(plan(refused, null, true).plan.askEvaluator?.inputs?.commands).toHaveLength(1);
    expect(asked.check).toMatchObject({
      conclusion: null,
      title: `Commands passed on ${HEAD.slice(0, 7)}; the evaluator is judging tree ${TREE.slice(0, 7)}`,
      rerunEvaluator: true,
    });
    // The first line says the state and the next action, as every summary's does.
    expect(asked.check?.summary.split("\n")[0]).toBe(
      "**Waiting:** the evaluator is judging this commit. **Next:** Nothing to do yet: this check updates itself when its verdict is in.",
    );
    expect(plan(passing, null, false).plan.askEvaluator).toBeNull();
    const failing = gateFacts({
      config: LLM,
      evidence: [{ ...commandEvidence([1]), record: commandRecord([1]) }],
    });
    expect(plan(failing, null, true).plan.askEvaluator).toBeNull();
    // No evaluator configured: never asked, whatever "due" says.
    expect(
      plan(gateFacts({ evidence: [commandEvidence([0, 0])] }), null, true).plan.askEvaluator,
    ).toBeNull();
  });
});
