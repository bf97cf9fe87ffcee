import { decideGate } from "../../checks/gate/decide.js";
import { planGatePass } from "../../checks/gate/plan.js";
import {
  type Effect,
  type PassSeen,
  type PhasedEffects,
  passSeenSchema,
} from "../../schemas/effects.js";
import type { GateDecision, GateFacts } from "../../schemas/gate.js";

/** What agate's first pass on these facts writes: no check run yet, no evaluator call due. */
export function firstPassPlan(facts: GateFacts, decision: GateDecision = decideGate(facts)) {
  return planGatePass({
    facts,
    decision,
    existing: null,
    evaluatorDue: false,
    rerunEvaluator: false,
    task: { title: "", body: "" },
  });
}

/** What a first pass of job 41 saw besides the facts: no check, no mentions, nothing stored. */
export function passSeen(facts: GateFacts, overrides: Partial<PassSeen> = {}): PassSeen {
  const pr = facts.pull_request;
  // Parsed: what a test hands decidePass has the shape gather's is typed by.
  return passSeenSchema.parse({
    existing: null,
    merge_commit: null,
    head: { head_sha: pr.head_sha, base_ref: pr.base_ref, base_sha: pr.base_sha },
    view: {
      snapshot: pr,
      detail: {
        title: "A change",
        body: "",
        created_at: "2026-12-02T09:00:00Z",
        updated_at: "2026-12-02T10:00:00Z",
        commits: 1,
        additions: 1,
        deletions: 0,
        changed_files: 1,
        merge_commit_sha: null,
      },
    },
    entry_mentions: [],
    mentioned_before: [],
    repository_entries: [],
    evaluator_due: false,
    rerun_evaluator: false,
    installation: 1,
    at: "2026-12-02T10:05:00.000Z",
    job_id: 41,
    retried: false,
    ...overrides,
  });
}

/** A pass's effects in the order apply makes them, phase after phase. */
export function inOrder(effects: PhasedEffects): Effect[] {
  return [...effects.first, ...effects.github, ...effects.after];
}

/** The kinds of each phase's effects. */
export function phaseKinds(effects: PhasedEffects) {
  const kinds = (list: readonly Effect[]) => list.map((e) => e.kind);
  return {
    first: kinds(effects.first),
    github: kinds(effects.github),
    after: kinds(effects.after),
  };
}
