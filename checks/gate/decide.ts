/**
 * A pull request's decision: the cases decided before any requirement (a head shared with
 * another pull request, the base config missing or invalid, not gated), then a gated pull
 * request's requirements, one file each in checks/gate/requirements/, ranked by outcome.ts.
 */
import type { Config } from "../../schemas/config.js";
import type { BaseConfigFact, GateDecision, GateFacts, Requirement } from "../../schemas/gate.js";
import { codeSpan, cutTitle, shortSha as short } from "../markdown.js";
import { holdPass } from "./base-requirement.js";
import { entriesRequirement } from "./entries.js";
import { outcomeOf } from "./outcome.js";
import { reportOnly } from "./report-only.js";
import { believedRecord, commandsRequirement } from "./requirements/commands.js";
import { evaluatorReady, evaluatorRequirement } from "./requirements/evaluator.js";
import { handoffRequirement } from "./requirements/handoff.js";
import { overrideRequirement } from "./requirements/override.js";
import type { Part } from "./requirements/part.js";
import { progressOf, progressPart } from "./requirements/progress.js";
import { protectedRequirement } from "./requirements/protected.js";
import { selectGate } from "./select.js";

// The summary (render.ts) reads these beside the decision: the believed record, the attempts.
export { believedRecord } from "./requirements/commands.js";
export { type ProgressView, progressOf } from "./requirements/progress.js";

/**
 * The gate decision: a pure function of the facts the App collected (and stored beside the
 * decision, so it can be replayed). Nothing skipped, unevaluated or unsupported ever yields
 * success; only a pull request the base config does not gate concludes neutral.
 */
export function decideGate(facts: GateFacts): GateDecision {
  const decision = decideEnforced(facts);
  const reported = reportOnly(facts.config, decision);
  // A pass is written only on a base where it counts (checks/gate/base-requirement.ts).
  return holdPass(facts, reported === decision ? decision : { ...reported, report_only: true });
}

/** The cases decided before any requirement, then a gated pull request's requirements. */
function decideEnforced(facts: GateFacts): GateDecision {
  // Before anything else, whatever this pull request's config says: the check run is per
  // commit, so a decision here is also the check of every other pull request with this head.
  if (facts.head_shared_with.length > 0) return sharedHead(facts);
  if (facts.config.status === "missing") {
    // Once gated, stays gated: retargeting to a base without the config must not free it.
    if (facts.previously_gated) return ungatedBase(facts, facts.config.path);
    return notGated(
      `the base commit has no ${facts.config.path}, so this repository has not adopted agate`,
    );
  }
  if (facts.config.status === "invalid") return invalidConfig(facts, facts.config);
  const config = facts.config.config;
  const gated = selectGate(config.gate, facts.pull_request, facts.previously_gated);
  if (!gated.gated) return notGated(gated.reason);
  return decideGated(facts, config, gated);
}

/**
 * A gated pull request: each requirement (checks/gate/requirements/), then the first outcome
 * that holds (checks/gate/outcome.ts) gives the state, the title and the next work's order.
 */
function decideGated(facts: GateFacts, config: Config, gated: GateDecision["gated"]): GateDecision {
  const progress = progressOf(facts);
  const commands = commandsRequirement(facts, progress.replay);
  const handoff = handoffRequirement(facts, config, believedRecord(facts));
  const ready = evaluatorReady([commands.requirement, handoff.requirement]);
  // Entries linked to this pull request only ever hold it back (checks/gate/entries.ts).
  const entries = entriesRequirement(facts);
  const override = overrideRequirement(facts);
  const parts: Part[] = [
    commands,
    ...optional(progressPart(facts, progress)),
    protectedRequirement(facts, config),
    handoff,
    evaluatorRequirement(facts, config, ready),
    ...optional(entries),
    ...optional(override && { requirement: override, items: [] }),
  ];
  const requirements = parts.map((p) => p.requirement);
  const outcome = outcomeOf(
    {
      head: short(facts.pull_request.head_sha),
      requirements,
      override: facts.override,
      escalated: entries?.escalated ?? [],
      carriedOver: commands.carriedOverFrom !== null,
    },
    parts,
  );
  return {
    requirements,
    missing: outcome.missing,
    reasons: facts.evidence
      .filter((e) => e.refused)
      .map((e) => `command record refused: ${e.refused}`),
    gated,
    carried_over_from: commands.carriedOverFrom,
    replayed_from: progress.replay?.head_sha ?? null,
    handoff: handoff.check,
    state: outcome.state,
    conclusion: outcome.conclusion,
    title: outcome.title,
  };
}

const optional = <T>(part: T | null): T[] => (part ? [part] : []);

/**
 * Blocked, not rejected: the config is read from the base, so nothing this pull request does
 * can fix it. The parser's message is shown once, under the table (render.ts).
 */
function invalidConfig(
  facts: GateFacts,
  config: Extract<BaseConfigFact, { status: "invalid" }>,
): GateDecision {
  const pr = facts.pull_request;
  const path = config.path;
  const requirement: Requirement = {
    id: "config",
    name: "config",
    status: "blocked",
    reason: `${path} at the base commit ${short(pr.base_sha)} is invalid (its problems are listed below)`,
  };
  return {
    state: "blocked",
    conclusion: "failure",
    title: cutTitle(
      `Blocked on ${short(pr.head_sha)}: the base branch's ${path} is invalid; a maintainer must fix it there`,
    ),
    requirements: [requirement],
    missing: [
      `Ask a maintainer to fix ${path} on ${codeSpan(pr.base_ref, 120)} (the problems are listed below); a change this pull request makes to it does not count, as the config is read from the base`,
    ],
    // Kept with the stored decision for the audit; the summary shows the facts' copy.
    reasons: [config.message],
    gated: { gated: true, reason: "the config that would decide cannot be read" },
    carried_over_from: null,
    handoff: null,
  };
}

/**
 * A head seen in another pull request, or in this one under another base. GitHub's check runs
 * and workflow runs belong to commits, not pull requests: a run made for the other one (with its
 * base's workflow, which the author may control) is indistinguishable from this one's, and a
 * decision written here is that one's too. Nothing about such a head is believed or permissive.
 */
function sharedHead(facts: GateFacts): GateDecision {
  const pr = facts.pull_request;
  const others = facts.head_shared_with.map((h) =>
    h.pull_number === pr.number
      ? `this pull request into ${codeSpan(h.base_ref, 120)}`
      : `#${h.pull_number} into ${codeSpan(h.base_ref, 120)}`,
  );
  const reason = `this commit is also the head of ${others.join(", ")}: GitHub's checks and workflow runs are per commit, so agate cannot tell whose evidence is whose`;
  return {
    state: "blocked",
    conclusion: "failure",
    title: cutTitle(
      `Blocked on ${short(pr.head_sha)}: this commit is also the head of ${others.join(", ")}`,
    ),
    requirements: [{ id: "commands", name: "required commands", status: "blocked", reason }],
    missing: [
      "Push a new commit to this pull request (a head of its own), and close any other pull request made from the same commit",
    ],
    reasons: [reason],
    gated: {
      gated: true,
      reason: "a commit shared between pull requests is never decided permissively",
    },
    carried_over_from: null,
    handoff: null,
  };
}

/** A pull request gated before whose base now has no config: never neutral, never free. */
function ungatedBase(facts: GateFacts, path: string): GateDecision {
  const pr = facts.pull_request;
  const reason = `the base ${codeSpan(pr.base_ref, 120)} (${short(pr.base_sha)}) has no ${path}, but this pull request was gated before and stays gated`;
  return {
    state: "blocked",
    conclusion: "failure",
    title: cutTitle(
      `Blocked on ${short(pr.head_sha)}: the base ${codeSpan(pr.base_ref, 60)} has no ${path}; gated before, stays gated`,
    ),
    requirements: [{ id: "config", name: "config", status: "blocked", reason }],
    missing: [
      `Retarget the pull request to a base branch that has ${path}, or add ${path} to ${codeSpan(pr.base_ref, 120)}`,
    ],
    reasons: [reason],
    gated: { gated: true, reason: "gated earlier; a pull request once gated stays gated" },
    carried_over_from: null,
    handoff: null,
  };
}

function notGated(reason: string): GateDecision {
  return {
    state: "not_gated",
    conclusion: "neutral",
    title: cutTitle(reason.startsWith("not gated") ? capitalise(reason) : `Not gated: ${reason}`),
    requirements: [],
    missing: [],
    reasons: [reason],
    gated: { gated: false, reason },
    carried_over_from: null,
    handoff: null,
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
