/**
 * The `agate` check run's external id, one function per format: the check is GitHub data only
 * this App can write, so what the id names can be read back from it.
 */
import type { MergeGroupRefFact } from "../../schemas/merge-group.js";

/** A pull request's check: the head it judges. */
export function pullRequestExternalId(pr: {
  repository: string;
  number: number;
  head_sha: string;
}): string {
  return `agate:${pr.repository}#${pr.number}@${pr.head_sha}`;
}

/**
 * A merge group's check names the group's base: a later check_run / workflow_run event on the
 * group head carries no base.
 */
export function mergeGroupExternalId(group: MergeGroupRefFact): string {
  return `agate:merge_group:${group.repository}@${group.head_sha}:base=${group.base_sha}`;
}

const MERGE_GROUP_EXTERNAL_ID = /^agate:merge_group:[^@]+@([0-9a-f]{40}):base=([0-9a-f]{40})$/;

/** The base a merge group's external id names for `head`; null for any other id or head. */
export function mergeGroupBaseIn(externalId: string | null, head: string): string | null {
  const match = MERGE_GROUP_EXTERNAL_ID.exec(externalId ?? "");
  return match?.[2] && match[1] === head ? match[2] : null;
}
