/**
 * The holds: the `agate` check on a head put back in progress, saying why, while no decision may
 * stand. As effects (schemas/effects.ts), run by the same executor as a pass (app/gate/apply.ts).
 */
import type { GitHubEffect, PhasedEffects } from "../../schemas/effects.js";
import type { AgateCheckRun } from "../../schemas/store.js";
import { codeSpan, fenced } from "../markdown.js";
import { pullRequestExternalId } from "./external-id.js";

/** The pull request and head a hold is about. */
export interface HeldHead {
  repository: string;
  number: number;
  head_sha: string;
  /** The App's check on the head now; null when it has none. */
  existing: AgateCheckRun | null;
}

/**
 * A retarget must not leave the old base's decision standing while the new base is read: the
 * check on the head goes back in progress first, saying why.
 */
export function retargetHold(
  held: HeldHead,
  retarget: { from: string; to: string },
): PhasedEffects {
  const check = inProgress(
    held,
    `The base changed from ${retarget.from} to ${retarget.to}: re-evaluating against the new base`,
    `**Not decided.** The pull request now targets ${codeSpan(retarget.to, 120)}, not ${codeSpan(retarget.from, 120)}; no decision made against the old base stands. agate is reading the new base's config.\n`,
  );
  return { first: [], github: [check], after: [] };
}

/**
 * A pass that failed must not leave an earlier green standing: the check on the live head goes
 * back to in progress with the reason. The head is recorded as seen first, so the pass that
 * retries lists the check this writes instead of making another.
 */
export function errorHold(
  held: HeldHead & { base_ref: string; base_sha: string },
  reason: string,
  at: string,
): PhasedEffects {
  const head = {
    repository: held.repository,
    head_sha: held.head_sha,
    pull_number: held.number,
    base_ref: held.base_ref,
    // From the live read that put the hold in place: a null here would overwrite the base commit
    // seen last, and an evaluator job queued for an older one would ask the model after all.
    base_sha: held.base_sha,
    observed_at: at,
  };
  const check = inProgress(
    held,
    "agate could not finish evaluating this commit; it will retry",
    `**Not decided.** The last evaluation failed, so no earlier decision stands until it succeeds:\n\n${fenced(reason.slice(0, 2_000))}\n`,
  );
  return {
    first: [{ kind: "observe", stale: null, merge_commit: null, head, sighting: null }],
    github: [check],
    after: [],
  };
}

/** The head's check back in progress, saying why. */
function inProgress(held: HeldHead, title: string, summary: string): GitHubEffect {
  return {
    kind: "check",
    head_sha: held.head_sha,
    existing: held.existing,
    write: {
      conclusion: null,
      rerunEvaluator: false,
      title,
      summary,
      externalId: pullRequestExternalId(held),
    },
  };
}
