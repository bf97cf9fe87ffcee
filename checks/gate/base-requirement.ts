/**
 * No pass outlives its base (issue 26). GitHub keeps a check run on a commit, and a ruleset
 * requires `agate` by name on a branch: a passing `agate` (success, or neutral, which GitHub
 * counts as passing) computed for one base stands for the commit wherever it is proposed next,
 * until agate has looked again. An agent can open its pull request into a branch it pushed (no
 * config there: neutral; its own config: success), then retarget it to main: a merge in the
 * moment before agate reads the `edited` event (an API call, auto-merge) would go through on a
 * commit that was never gated. So a pass is written only on a base where it counts: one that
 * requires `agate` (from this App, or from any source). Elsewhere the check is held in progress,
 * saying why, as long as the repository requires agate where we can see it (its default branch);
 * a repository that requires it nowhere is only advised by agate, and its passes are written.
 *
 * What is left: a pass computed for one branch that requires agate stands for the commit on
 * another that requires it too, until agate looks (a retarget between two protected branches, a
 * second pull request). Only a merge queue closes that: agate grades the merge group itself
 * (mergeQueueAdvice).
 */
import type { GateDecision, GateFacts } from "../../schemas/gate.js";
import { codeSpan, cutTitle } from "../markdown.js";

const COUNTS = new Set(["this_app", "any_source"]);

/**
 * Why a passing conclusion computed for this pull request's base must not be written; null when
 * it may (or when the set-up was not read: facts without a reader, as in unit tests).
 */
export function passHeldBecause(
  facts: Pick<GateFacts, "pull_request" | "setup" | "default_setup">,
): string | null {
  const base = facts.setup;
  if (!base) return null;
  if (COUNTS.has(base.requires)) return null;
  const branch = codeSpan(facts.pull_request.base_ref, 120);
  if (base.requires === "unknown") {
    return `whether ${branch} requires agate could not be read (${base.summary}), so a pass here could stand for this commit on a branch that does`;
  }
  // The base is the default branch (nothing else was read): the repository requires agate
  // nowhere we can see, and agate only advises.
  const other = facts.default_setup;
  if (!other || other.branch === facts.pull_request.base_ref) return null;
  if (other.requires === "none" || other.requires === "other_app") return null;
  const where = codeSpan(other.branch, 120);
  return `${branch} requires agate from nobody, and ${where} ${other.requires === "unknown" ? "may (its rules could not be read)" : "does"}: a pass computed for ${branch} would stand for this commit if it were proposed to ${where}`;
}

/** The decision with a passing conclusion held in progress where it would not count. */
export function holdPass(facts: GateFacts, decision: GateDecision): GateDecision {
  if (decision.conclusion !== "success" && decision.conclusion !== "neutral") return decision;
  const held = passHeldBecause(facts);
  if (!held) return decision;
  const lead = decision.title.split(":")[0] ?? decision.title;
  // The title says where; the summary's section says why in full (a title stays under 120).
  const branch = codeSpan(facts.pull_request.base_ref, 60);
  return {
    ...decision,
    conclusion: null,
    title: cutTitle(`${lead}; not marked passing on ${branch}, see why below`),
    held,
  };
}

/**
 * The summary's word on the window a merge queue closes, for a pass on a base that requires
 * agate but no merge queue; null when there is nothing to say.
 */
export function mergeQueueAdvice(
  facts: Pick<GateFacts, "pull_request" | "setup">,
  decision: Pick<GateDecision, "conclusion">,
): string | null {
  const base = facts.setup;
  if (decision.conclusion !== "success" || !base || base.merge_queue !== false) return null;
  if (!COUNTS.has(base.requires)) return null;
  const branch = codeSpan(facts.pull_request.base_ref, 120);
  return `GitHub keeps this check on the commit, not on this pull request: if the same commit is proposed to another branch that requires agate (a retarget, a second pull request), this pass stands there too until agate has looked again. A merge queue on ${branch} closes that: agate grades every merge group itself. Require one in the ruleset on ${branch}.`;
}
