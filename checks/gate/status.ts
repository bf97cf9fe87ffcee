/**
 * The gate's verdict as data for the agent that opened the pull request (docs/agents.md): the
 * state, who can act on each requirement that does not pass, what the agent's loop does next,
 * and the evidence it needs to act (the failing commands with the end of their output, the
 * evaluator's missing items, the handoff file's problems). Pure: derived from the same decision
 * and facts as the summary, so the two never disagree.
 */
import type { GateDecision, GateFacts, Requirement } from "../../schemas/gate.js";
import {
  type Actor,
  type FailingCommand,
  GATE_STATUS_VERSION,
  type GateStatus,
  type StatusAction,
  type StatusRequirement,
} from "../../schemas/gate-status.js";
import { believedRecord, progressOf } from "./decide.js";
import { failingOf, statusTail as tail } from "./record-status.js";

/** A decision's state in the words agents read (the README's state table): pending is waiting. */
function statusState(state: GateDecision["state"]): GateStatus["state"] {
  return state === "pending" ? "waiting" : state;
}

/**
 * Who can move a requirement that does not pass. The agent: a failing command, an evaluator's
 * missing item, its own handoff file, a record refused for what its run did. A maintainer: a
 * protected path, a review, a spent budget, an escalated entry, the base's config. The App's
 * operator: an evaluator that cannot be reached. Nobody: a run or an answer still coming.
 */
function whoActs(requirement: Requirement, facts: GateFacts, decision: GateDecision): Actor {
  if (requirement.status === "pass") return "nobody";
  switch (requirement.id) {
    case "config":
      return "maintainer";
    case "commands":
      if (requirement.status !== "waiting") return "agent";
      // A run still going is waited for; a refused record is the agent's to fix or re-run.
      return facts.evidence.some((e) => e.refused) && !facts.evidence.some((e) => e.waiting)
        ? "agent"
        : "nobody";
    case "progress":
      return requirement.status === "stalled" ? "agent" : "maintainer";
    case "protected_paths":
      return "maintainer";
    case "handoff":
      if (requirement.status === "fail") return "agent";
      if (requirement.status === "blocked") return "maintainer";
      // The file agrees; only its status is not ready yet (decide.ts says so once a record is in).
      return believedRecord(facts) !== null && decision.handoff?.status !== "ready"
        ? "agent"
        : "nobody";
    case "evaluator":
      if (requirement.status === "fail") return "agent";
      if (requirement.status === "blocked") return "operator";
      if (requirement.status === "capped") return "maintainer";
      return facts.config.status === "ok" && facts.config.config.evaluator.kind === "review"
        ? "maintainer"
        : "nobody";
    case "entries":
      if (requirement.status === "blocked") return "agent";
      return (facts.entries ?? []).some((e) => e.state === "escalated") ? "maintainer" : "nobody";
    case "override":
      return "nobody";
  }
}

/**
 * What the agent's loop does next: stop when accepted or not gated, hand over when a budget is
 * spent or attempts stalled, work while anything is the agent's to do, hand over when only a
 * person can act, and otherwise wait.
 */
function statusAction(
  state: GateStatus["state"],
  requirements: readonly Pick<StatusRequirement, "who">[],
): StatusAction {
  if (state === "accepted") return "done";
  if (state === "not_gated") return "none";
  if (state === "capped" || state === "stalled") return "spent";
  if (requirements.some((r) => r.who === "agent")) return "work";
  if (requirements.some((r) => r.who === "maintainer" || r.who === "operator")) return "person";
  return "wait";
}

/** The commands that did not pass on the graded commit (or on the failure this head replays). */
function failingCommands(facts: GateFacts): FailingCommand[] {
  const replay = progressOf(facts).replay;
  if (replay) {
    return replay.failures.map((f) => ({
      name: f.name,
      exit_code: f.exit_code,
      signal: null,
      timed_out: f.timed_out,
      duration_ms: null,
      output_tail: tail(f.tail),
    }));
  }
  const record = believedRecord(facts);
  return record ? failingOf(record) : [];
}

function evaluatorMissing(facts: GateFacts, decision: GateDecision): string[] {
  const failed = decision.requirements.some((r) => r.id === "evaluator" && r.status === "fail");
  if (!failed || facts.evaluation.status !== "judged") return [];
  const outcome = facts.evaluation.evaluation.outcome;
  return outcome.status === "verdict" ? outcome.verdict.missing : [];
}

function handoffProblems(decision: GateDecision): string[] {
  const check = decision.handoff;
  const failed = decision.requirements.some((r) => r.id === "handoff" && r.status === "fail");
  if (!failed || !check) return [];
  return check.blob_sha ? check.findings : [`${check.path} is not at the head commit`];
}

/** The App's verdict on the pull request's head, as the `agate` check run carries it. */
export function gateStatus(decision: GateDecision, facts: GateFacts): GateStatus {
  const pr = facts.pull_request;
  const state = statusState(decision.state);
  const requirements = decision.requirements.map((r) => ({
    ...r,
    who: whoActs(r, facts, decision),
  }));
  const config = facts.config.status === "ok" ? facts.config.config : null;
  return {
    version: GATE_STATUS_VERSION,
    source: "app",
    repository: pr.repository,
    pull_request: pr.number,
    head_sha: pr.head_sha,
    state,
    // A pass held on a base that does not require agate (base-requirement.ts) is no pass: the
    // agent is done, and only a person (a ruleset, or a retarget) can make it count.
    action: decision.held ? "person" : statusAction(state, requirements),
    report_only: decision.report_only ?? false,
    conclusion: decision.conclusion,
    title: decision.title,
    next: decision.held
      ? [
          ...decision.missing,
          `Not marked passing: ${decision.held}. A maintainer can require agate on this branch, or retarget the pull request to a branch that does`,
        ]
      : decision.missing,
    requirements,
    failing_commands: failingCommands(facts),
    evaluator_missing: evaluatorMissing(facts, decision),
    handoff_problems: handoffProblems(decision),
    budgets: config
      ? {
          graded_attempts: progressOf(facts).graded,
          graded_attempts_limit: config.budgets.graded_attempts_per_pr,
          unchanged_failures_before_stalled: config.budgets.unchanged_failures_before_stalled,
        }
      : null,
  };
}

/**
 * While the evaluator judges the head's tree, the check says so (plan.ts): waiting, nothing to
 * do; the requirements are the decision's, the evaluator's own waiting.
 */
export function evaluatingStatus(
  decision: GateDecision,
  facts: GateFacts,
  title: string,
): GateStatus {
  const status = gateStatus(decision, facts);
  const requirements = status.requirements.map((r) =>
    r.id === "evaluator"
      ? { ...r, status: "waiting" as const, reason: "judging this tree", who: "nobody" as const }
      : r,
  );
  return {
    ...status,
    state: "waiting",
    action: statusAction("waiting", requirements),
    conclusion: decision.report_only ? "neutral" : null,
    title,
    next: [],
    requirements,
    evaluator_missing: [],
  };
}
