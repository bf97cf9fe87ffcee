import type { Config } from "../../schemas/config.js";
import type { GateDecision, GateFacts, PriorRecord, Requirement } from "../../schemas/gate.js";
import { failedCommands } from "../command-results.js";
import { shortSha as short } from "../markdown.js";
import { protectedChanges } from "./protected-paths.js";
import { selectGate } from "./select.js";

/**
 * The gate decision: a pure function of the facts the App collected (and stored beside the
 * decision, so it can be replayed). Nothing skipped, unevaluated or unsupported ever yields
 * success; only a pull request the base config does not gate concludes neutral.
 */
export function decideGate(facts: GateFacts): GateDecision {
  const pr = facts.pull_request;
  const head = short(pr.head_sha);
  if (facts.config.status === "missing") {
    return notGated(
      `the base commit has no ${facts.config.path}, so this repository has not adopted agate`,
    );
  }
  if (facts.config.status === "invalid") {
    const requirement: Requirement = {
      id: "config",
      name: "config",
      status: "fail",
      reason: facts.config.message,
    };
    return {
      state: "rejected",
      conclusion: "failure",
      title: `The base branch's ${facts.config.path} is invalid: fix it there`,
      requirements: [requirement],
      missing: [`Fix ${facts.config.path} on ${pr.base_ref}: ${facts.config.message}`],
      reasons: [facts.config.message],
      gated: { gated: true, reason: "the config that would decide cannot be read" },
      carried_over_from: null,
    };
  }

  const config = facts.config.config;
  const gated = selectGate(config.gate, pr, facts.previously_gated);
  if (!gated.gated) return notGated(gated.reason);

  const commands = commandsRequirement(facts);
  const requirements: Requirement[] = [
    commands.requirement,
    protectedRequirement(facts, config),
    evaluatorRequirement(config),
    handoffRequirement(facts, config),
  ];
  const reasons = facts.evidence
    .filter((e) => e.refused)
    .map((e) => `command record refused: ${e.refused}`);
  const missing = requirements
    .filter((r) => r.status !== "pass")
    .map((r) => `${r.name}: ${r.reason}`);

  const failed = requirements.filter((r) => r.status === "fail");
  const protectedWaiting = requirements.find(
    (r) => r.id === "protected_paths" && r.status === "waiting",
  );
  const waiting = requirements.filter((r) => r.status === "waiting");
  const base = {
    requirements,
    missing,
    reasons,
    gated,
    carried_over_from: commands.carriedOverFrom,
  };
  if (failed.length > 0) {
    return {
      ...base,
      state: "rejected",
      conclusion: "failure",
      title: `Rejected on ${head}: ${failed.map((r) => r.reason).join("; ")}`,
    };
  }
  if (protectedWaiting) {
    return {
      ...base,
      state: "escalated",
      conclusion: "action_required",
      title: `Escalated on ${head}: ${protectedWaiting.reason}`,
    };
  }
  if (waiting.length > 0) {
    return {
      ...base,
      state: "pending",
      conclusion: null,
      title: `Waiting on ${head}: ${waiting.map((r) => r.reason).join("; ")}`,
    };
  }
  return {
    ...base,
    state: "accepted",
    conclusion: "success",
    title: commands.carriedOverFrom
      ? `Accepted on ${head}: carried over from an identical tree`
      : `Accepted on ${head}: every requirement passed`,
  };
}

function notGated(reason: string): GateDecision {
  return {
    state: "not_gated",
    conclusion: "neutral",
    title: reason.startsWith("not gated") ? capitalise(reason) : `Not gated: ${reason}`,
    requirements: [],
    missing: [],
    reasons: [reason],
    gated: { gated: false, reason },
    carried_over_from: null,
  };
}

function commandsRequirement(facts: GateFacts): {
  requirement: Requirement;
  carriedOverFrom: number | null;
} {
  const req = (status: Requirement["status"], reason: string): Requirement => ({
    id: "commands",
    name: "required commands",
    status,
    reason,
  });
  // The newest believed record decides; older ones on the same head are history.
  const verified = facts.evidence
    .filter((e) => e.record && !e.refused && !e.waiting)
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
  if (verified?.record) {
    const failed = failedCommands(verified.record);
    const total = verified.record.commands.length;
    return failed.length === 0
      ? { requirement: req("pass", `${total} of ${total} passed`), carriedOverFrom: null }
      : {
          requirement: req(
            "fail",
            `${failed.length} of ${total} required commands failed (${failed.join(", ")})`,
          ),
          carriedOverFrom: null,
        };
  }
  const carried = carryOver(facts);
  if (carried) {
    return {
      requirement: req(
        "pass",
        `carried over from ${short(carried.head_sha)}, accepted on the identical tree ${short(carried.tree_sha ?? "")} under the same config and agate version`,
      ),
      carriedOverFrom: carried.id,
    };
  }
  const waiting = facts.evidence.find((e) => e.waiting);
  if (waiting?.waiting)
    return { requirement: req("waiting", waiting.waiting), carriedOverFrom: null };
  return {
    requirement: req(
      "waiting",
      "waiting for the command record (the agate Action publishes agate/commands)",
    ),
    carriedOverFrom: null,
  };
}

/**
 * An acceptance may carry over to a new head only when nothing it judged changed: another SHA
 * with the same tree, under the same config digest and agate version. The same SHA coming back
 * (a force-push back to it) is graded afresh, never resurrected.
 */
function carryOver(facts: GateFacts): PriorRecord | undefined {
  if (!facts.head_tree_sha || facts.config.status !== "ok") return undefined;
  const digest = facts.config.digest;
  return facts.prior_records.find(
    (r) =>
      r.state === "accepted" &&
      r.head_sha !== facts.pull_request.head_sha &&
      r.tree_sha === facts.head_tree_sha &&
      r.config_digest === digest &&
      r.agate_version === facts.agate_version,
  );
}

function protectedRequirement(facts: GateFacts, config: Config): Requirement {
  const changed = protectedChanges(facts.changed_files, config);
  const req = (status: Requirement["status"], reason: string): Requirement => ({
    id: "protected_paths",
    name: "protected paths",
    status,
    reason,
  });
  if (changed.length === 0) return req("pass", "no protected path changed");
  const head = facts.pull_request.head_sha;
  const approval = facts.approvals.find((a) => a.maintainer && a.commit_id === head);
  const list = changed.join(", ");
  if (approval)
    return req("pass", `${list} changed; approved by ${approval.login} on ${short(head)}`);
  const stale = facts.approvals.find((a) => a.maintainer);
  const note = stale
    ? ` (${stale.login}'s approval is for ${short(stale.commit_id)}, an older commit)`
    : "";
  return req(
    "waiting",
    `changes ${list}: needs an approving review from a maintainer on ${short(head)}${note}`,
  );
}

function evaluatorRequirement(config: Config): Requirement {
  const kind = config.evaluator.kind;
  return kind === "none"
    ? {
        id: "evaluator",
        name: "evaluator",
        status: "pass",
        reason: "none configured (evaluator.kind: none)",
      }
    : {
        id: "evaluator",
        name: "evaluator",
        status: "fail",
        reason: `evaluator.kind: ${kind} is not supported by this agate version yet; set evaluator.kind: none to gate on the commands alone`,
      };
}

function handoffRequirement(facts: GateFacts, config: Config): Requirement {
  const label = facts.pull_request.labels.find((l) =>
    config.handoff.required_when.labels.includes(l),
  );
  return label
    ? {
        id: "handoff",
        name: "handoff file",
        status: "fail",
        reason: `required by the label ${label}, but this agate version cannot verify handoff files yet`,
      }
    : {
        id: "handoff",
        name: "handoff file",
        status: "pass",
        reason:
          "not required by label; the commit, age, size and session rules are not evaluated in this version",
      };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
