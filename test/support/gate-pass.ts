import { decideGate } from "../../checks/gate/decide.js";
import { planGatePass } from "../../checks/gate/plan.js";
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
