import { describe, expect, it } from "vitest";
import { phasedEffectsSchema } from "../../schemas/effects.js";
import type { GateFacts, PriorRecord } from "../../schemas/gate.js";
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { storedEntry } from "../../test/support/entry-fixture.js";
import {
  commandEvidence,
  commandRecord,
  configFact,
  evidenceRun,
  gateFacts,
  HEAD,
  handoffFacts,
  TREE,
} from "../../test/support/gate-facts.js";
import { firstPassPlan, inOrder, passSeen, phaseKinds } from "../../test/support/gate-pass.js";
import { decideGate } from "./decide.js";
import {
  decidePass as decidePassUnparsed,
  type ExistingCheck,
  planGatePass,
  STATE_LABELS,
} from "./plan.js";

/**
 * decidePass with its effects parsed by their schema (schemas/effects.ts): the types apply is
 * written against are inferred from it, so every scenario below also shows an output that
 * satisfies what TypeScript cannot check (a SHA's form, a positive number, a key never empty).
 */
function decidePass(...args: Parameters<typeof decidePassUnparsed>) {
  const decided = decidePassUnparsed(...args);
  phasedEffectsSchema.parse(decided.effects);
  return decided;
}

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
/**
 * Passing commands on a head agate accepted before, its label on: the run as gather reads it
 * (what decidePass judges) and the evidence believed (what decideGate and planGatePass take).
 */
const acceptedBefore = () =>
  gateFacts({
    evidence_run: evidenceRun(commandRecord([0, 0])),
    evidence: [commandEvidence([0, 0])],
    prior_records: [prior("accepted")],
    pull_request: { ...gateFacts().pull_request, labels: ["agent", "agate:accepted"] },
  });

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
    const facts = acceptedBefore();
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
        handoff_sha: null,
        changed_files: [{ filename: "src/a.ts", status: "modified" }],
      },
    });
    // The handoff file where the pass read it (gather's handoff facts), for the job to read there.
    const read = gateFacts({
      config: LLM,
      evidence: [commandEvidence([0])],
      handoff: handoffFacts({ read_at_sha: HEAD }),
    });
    expect(plan(read, null, true).plan.askEvaluator?.inputs?.handoff_sha).toBe(HEAD);
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

describe("decidePass: the decision and its effects, in the order apply makes them", () => {
  it("a first decision: observations, the check, then the audit entry and record under the job's key", () => {
    const facts = gateFacts();
    const { decision, effects } = decidePass(facts, passSeen(facts));
    expect(phaseKinds(effects)).toEqual({
      first: ["observe"],
      github: ["check"],
      after: ["audit", "record"],
    });
    const [observe, , audit, record] = inOrder(effects);
    expect(observe).toMatchObject({
      stale: { repository: "octo/widgets", pullNumber: 7, supersededBy: HEAD },
      head: { head_sha: HEAD, base_ref: "main", pull_number: 7 },
      sighting: { pull_number: 7, updated_at: "2026-12-02T10:00:00Z" },
    });
    const key = `job:41:gate@${HEAD}:${decision.state}`;
    expect(audit).toMatchObject({ dedupe_key: key, entry: { kind: "gate.decision" } });
    expect(record).toMatchObject({ dedupe_key: key, record: { head_sha: HEAD } });
  });

  it("the record says which run attempt it read and whether its job was complete", () => {
    const facts = gateFacts({ evidence_run: evidenceRun(commandRecord([0, 0])) });
    const record = inOrder(decidePass(facts, passSeen(facts)).effects).find(
      (e) => e.kind === "record",
    );
    expect(record?.kind === "record" && record.record.provenance?.run).toEqual({
      id: 99,
      attempt: 1,
      job_complete: true,
    });
  });

  it("asks the evaluator under a key of the tree and config, and a person's re-run under none", () => {
    const digest = LLM.status === "ok" ? LLM.digest : "";
    // decidePass judges the run gather read: a record made under the LLM config, believed.
    const record = commandRecord([0]);
    const made = commandRecord([0], { grader: { ...record.grader, config_digest: digest } });
    const facts = gateFacts({ config: LLM, evidence_run: evidenceRun(made) });
    const ask = (rerun: boolean) =>
      decidePass(facts, passSeen(facts, { evaluator_due: true, rerun_evaluator: rerun }))
        .effects.after.filter((e) => e.kind === "enqueue")
        .at(-1);
    expect(ask(false)).toMatchObject({
      job: { kind: GATE_JOBS.evaluator.kind, payload: { tree_sha: TREE, config_digest: digest } },
      dedupe: {
        dedupeKey: `gate.evaluator:octo/widgets#7@tree:${TREE}:${digest}`,
        until: "started",
      },
    });
    expect(ask(true)).toMatchObject({ job: { payload: { rerun: true } }, dedupe: null });
  });

  it("changed mentions are stored with the entry passes they call for and this pass once more", () => {
    const facts = gateFacts();
    const entry = storedEntry({ repository: "octo/widgets", issue_number: 12 });
    const seen = passSeen(facts, { entry_mentions: [12], repository_entries: [entry] });
    const mentions = decidePass(facts, seen).effects.after.at(-1);
    expect(mentions).toMatchObject({ kind: "mentions", pull_number: 7, issues: [12] });
    const jobs = mentions?.kind === "mentions" ? mentions.jobs : [];
    expect(jobs.map((j) => [j.kind, j.payload])).toEqual([
      [ENTRY_JOBS.entry.kind, expect.objectContaining({ issue_number: 12 })],
      [GATE_JOBS.pullRequest.kind, expect.objectContaining({ number: 7 })],
    ]);
    // The next pass finds them stored: nothing more, the pass not again.
    const again = inOrder(decidePass(facts, { ...seen, mentioned_before: [12] }).effects);
    expect(again.some((e) => e.kind === "mentions")).toBe(false);
    expect(again.filter((e) => e.kind === "enqueue")).toEqual([
      expect.objectContaining({ job: expect.objectContaining({ kind: ENTRY_JOBS.entry.kind }) }),
    ]);
  });

  it("a retried pass with nothing to store queues the dashboard's refresh and restyles the state label it leaves on (its first run may have stopped before styling it)", () => {
    const facts = acceptedBefore();
    const decision = decideGate(facts);
    const shown = firstPassPlan(facts, decision).check;
    const existing = {
      id: 5,
      status: "completed",
      conclusion: decision.conclusion,
      title: shown?.title ?? null,
      summary: shown?.summary ?? null,
      startedAt: null,
      externalId: null,
    };
    const retried = passSeen(facts, { existing, retried: true });
    const { effects } = decidePass(facts, retried);
    expect(phaseKinds(effects)).toEqual({
      first: ["observe"],
      github: ["labels"],
      after: ["enqueue"],
    });
    expect(effects.github[0]).toMatchObject({
      remove: [],
      add: [],
      restyle: ["agate:accepted"],
      styles: { "agate:accepted": STATE_LABELS["agate:accepted"] },
    });
    // A pass that is not a retry styles only what it adds (from the add's own answer).
    expect(phaseKinds(decidePass(facts, passSeen(facts, { existing })).effects)).toEqual({
      first: ["observe"],
      github: [],
      after: [],
    });
  });
});
