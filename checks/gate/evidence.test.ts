import { describe, expect, it } from "vitest";
import type { CommandRecord } from "../../schemas/command-record.js";
import { gateFactsSchema } from "../../schemas/gate.js";
import {
  BASE,
  commandEvidence,
  commandRecord,
  configFact,
  EVIDENCE_WORKFLOW,
  evidenceRun,
  evidenceSource,
  gateFacts,
  HEAD,
  TREE,
} from "../../test/support/gate-facts.js";
import { passSeen } from "../../test/support/gate-pass.js";
import { GROUP_REF, mergeGroupFacts } from "../../test/support/merge-group-facts.js";
import { decideGate } from "./decide.js";
import { believedEvidence, believesRun, judgedFacts, judgedMergeGroupFacts } from "./evidence.js";
import { decideMergeGroupPass } from "./merge-group.js";
import { decidePass } from "./plan.js";

/**
 * The decision judges the run gather read (checks/gate/evidence.ts): each fact provenance needs
 * is taken from the gathered facts, and a verdict handed in beside them is never believed. Each
 * attack below changes one gathered fact an honest run is believed on and must be refused.
 */
describe("judgedFacts: the evidence judged from what gather read", () => {
  const honest = () => gateFacts({ evidence_run: evidenceRun(commandRecord()) });
  const refusal = (facts: ReturnType<typeof gateFacts>) => judgedFacts(facts).evidence[0]?.refused;

  it("believes an honest run, and has no evidence without a run", () => {
    expect(judgedFacts(honest()).evidence).toEqual([commandEvidence()]);
    expect(judgedFacts(gateFacts()).evidence).toEqual([]);
  });

  it("attack: a verdict handed in with the facts is never taken, in either direction", () => {
    const forged = evidenceRun(commandRecord(), "success", {
      run: { ...evidenceRun(null).run, path: ".github/workflows/mine.yml" },
    });
    const facts = gateFacts({ evidence_run: forged, evidence: [commandEvidence()] });
    expect(refusal(facts)).toMatch(/is of `\.github\/workflows\/mine\.yml`, not of the evidence/);
    const { decision } = decidePass(facts, passSeen(facts));
    expect(decision.state).not.toBe("accepted");
    const believed = { ...honest(), evidence: [commandEvidence([0, 0], { refused: "no" })] };
    expect(judgedFacts(believed).evidence[0]?.refused).toBeNull();
  });

  it("attack: each fact provenance needs is the gathered one (base, merge commits, change, config, repository)", () => {
    const pr = honest().pull_request;
    expect(refusal({ ...honest(), pull_request: { ...pr, base_ref: "agent-branch" } })).toMatch(
      /a run counts only for the base it ran for/,
    );
    expect(refusal({ ...honest(), merge_commits: [] })).toMatch(/it tested 3333333/);
    const touched = { filename: EVIDENCE_WORKFLOW, previous_filename: null, status: "modified" };
    expect(refusal({ ...honest(), changed_files: [touched] })).toMatch(/the change modifies/);
    const cut = { complete: false, reason: "cut at 3,000" };
    expect(refusal({ ...honest(), changed_files_listing: cut })).toMatch(/cut at 3,000/);
    const other = configFact(
      "version: 1\ncommands:\n  - { name: unit, run: npm test }\n  - { name: lint, run: npm run lint -- --fix }\n",
    );
    expect(refusal({ ...honest(), config: other })).toMatch(/config digest/);
    expect(refusal({ ...honest(), pull_request: { ...pr, repository: "octo/other" } })).toMatch(
      /names repository/,
    );
  });

  it("the facts stored beside a decision replay it: judged again, they judge to themselves", () => {
    for (const gathered of [
      honest(),
      gateFacts({ evidence_run: evidenceRun(commandRecord([0])) }),
    ]) {
      const { facts, decision } = decidePass(gathered, passSeen(gathered));
      const stored = gateFactsSchema.parse(JSON.parse(JSON.stringify(facts)));
      expect(judgedFacts(stored)).toEqual(stored);
      expect(decideGate(stored)).toEqual(decision);
    }
  });

  it("keeps the trace reports only beside a believed record", () => {
    const trace = { run_id: 99, run_attempt: 1, artifact: "t", traces: [], error: null };
    expect(judgedFacts({ ...honest(), trace }).trace).toEqual(trace);
    const refused = gateFacts({ evidence_run: evidenceRun(commandRecord([0])), trace });
    expect(judgedFacts(refused).trace).toBeNull();
  });
});

describe("judgedMergeGroupFacts: a merge group's evidence judged the same way", () => {
  const groupRun = (record: CommandRecord) => {
    const fact = evidenceRun(record, "success", {
      tested_commit: { sha: HEAD, tree_sha: TREE, parents: [BASE] },
    });
    fact.run.event = "merge_group";
    fact.run.pull_requests = [];
    return fact;
  };
  const groupRecord = (overrides: Partial<CommandRecord> = {}) =>
    commandRecord([0, 0], {
      pull_request: null,
      merge_group: { head_ref: GROUP_REF, head_sha: HEAD, base_sha: BASE },
      tested: { ...commandRecord().tested, sha: HEAD, tree_sha: TREE },
      workflow: { ...(commandRecord().workflow ?? ({} as never)), event_name: "merge_group" },
      ...overrides,
    });
  const seen = {
    existing: null,
    at: "2026-12-02T10:05:00.000Z",
    deadline_reached: false,
    job_id: 1,
  };

  it("believes the group's own record and accepts; a pull request's record on the group head is refused", () => {
    const honest = mergeGroupFacts({
      evidence_source: evidenceSource(),
      evidence_run: groupRun(groupRecord()),
    });
    expect(judgedMergeGroupFacts(honest).evidence[0]).toMatchObject({
      refused: null,
      waiting: null,
    });
    expect(decideMergeGroupPass(honest, seen).decision.state).toBe("accepted");
    const pulls = groupRecord({ pull_request: { number: 7, head_sha: HEAD, base_sha: BASE } });
    const forged = mergeGroupFacts({
      evidence_source: evidenceSource(),
      evidence_run: groupRun(pulls),
      evidence: [commandEvidence([0, 0], { record: pulls })],
    });
    expect(judgedMergeGroupFacts(forged).evidence[0]?.refused).toBe(
      "it was made for a pull request, not for the merge group 1111111",
    );
    expect(decideMergeGroupPass(forged, seen).decision.state).not.toBe("accepted");
  });
});

/**
 * The one "is this record believed" rule (believedEvidence): the requirements, the summary, the
 * acceptance record, the merge group and the read plan all ask it, so each way a verdict can be
 * not believed is played here once.
 */
describe("believedEvidence: the one rule for a believed record", () => {
  const believed = commandEvidence([0, 0], { run_id: 1 });
  const refused = commandEvidence([0, 0], { run_id: 2, refused: "the step did not succeed" });
  const waiting = commandEvidence([0, 0], { run_id: 3, waiting: "the job is still running" });
  const empty = commandEvidence([0, 0], { run_id: 4, record: null });

  it("never believes a refused, waited-on or record-less verdict, even when it is newer", () => {
    expect(believedEvidence([believed, refused, waiting, empty])?.run_id).toBe(1);
    expect(believedEvidence([refused, waiting, empty])).toBeNull();
    expect(believedEvidence([])).toBeNull();
  });

  it("takes the newest believed verdict", () => {
    const newer = commandEvidence([1, 0], { run_id: 5 });
    expect(believedEvidence([believed, newer, refused])?.run_id).toBe(5);
  });

  it("believesRun: only the believed verdict's own run, and nothing where nothing is believed", () => {
    expect(believesRun([believed], 1)).toBe(true);
    expect(believesRun([believed], 2)).toBe(false);
    expect(believesRun([refused], 2)).toBe(false);
    expect(believesRun([], undefined)).toBe(false);
  });
});
