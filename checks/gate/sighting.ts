/**
 * What a pass saw of the pull request, kept so that an older view delivered late (a webhook's)
 * is never believed over a newer one a pass already acted on (app/gate/gather.ts reads the last
 * sighting; app/gate/apply.ts stores this pass's).
 */
import { createHash } from "node:crypto";
import type { PullRequestView } from "../../schemas/gate.js";
import { canonicalJson } from "../config/digest.js";

/** What a view showed, apart from the test merge commit (which a webhook's view leaves out). */
export function viewDigest(view: PullRequestView): string {
  const shown = { ...view, detail: { ...view.detail, merge_commit_sha: null } };
  return createHash("sha256").update(canonicalJson(shown)).digest("hex");
}

/**
 * What a pass records of the view it acted on, with the labels as the pass leaves them. Its own
 * label writes make the pull request newer than the view it read, maybe within the same second:
 * an event showing the labels from before them (one delivered after the pass, such as the
 * opened event behind a reconcile pass) must not pass for current, or the missing label looks
 * removed by a person and is put back with a comment saying so.
 */
export function sightingOf(
  view: PullRequestView,
  labels: readonly string[],
): { updated_at: string; digest: string } {
  const left = { ...view, snapshot: { ...view.snapshot, labels: [...labels] } };
  return { updated_at: view.detail.updated_at, digest: viewDigest(left) };
}
