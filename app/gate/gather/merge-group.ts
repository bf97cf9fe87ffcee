/**
 * A merge group's gather: the config at its base, what it changes, and its evidence run as
 * GitHub reports it, all by SHA; no verdict (checks/gate/evidence.ts judges it in the decision).
 */
import { groupListing } from "../../../checks/gate/reads.js";
import type { GatheredMergeGroupFacts, MergeGroupRefFact } from "../../../schemas/merge-group.js";
import { AGATE_VERSION } from "../../../schemas/version.js";
import type { GitHubAdapter } from "../../github/adapter.js";
import type { ImmutableReads } from "../../github/reads.js";
import { collectEvidence, type EvidenceCache } from "../evidence.js";

/**
 * What a merge group's decision is computed from, read at its base and head by SHA; the
 * evidence run as GitHub reports it, judged by the decision (checks/gate/evidence.ts).
 */
export async function gatherMergeGroup(
  github: GitHubAdapter,
  deps: { reads: ImmutableReads; evidence: EvidenceCache },
  group: MergeGroupRefFact,
): Promise<GatheredMergeGroupFacts> {
  const config = await deps.reads.config(github, group.base_sha);
  const facts: GatheredMergeGroupFacts = {
    merge_group: group,
    config,
    changed_files: [],
    changed_files_listing: { complete: true, reason: null },
    evidence_source: null,
    evidence_run: null,
    deadline_passed: false,
    agate_version: AGATE_VERSION,
  };
  if (config.status !== "ok") return facts;
  // Read by SHA, so nothing can move under it; but compare stops at 300 files.
  const comparison = await deps.reads.compare(github, group.base_sha, group.head_sha);
  facts.changed_files = comparison.files.map(({ filename, previous_filename, status }) => ({
    filename,
    previous_filename,
    status,
  }));
  facts.changed_files_listing = groupListing(facts.changed_files.length);
  const collected = await collectEvidence(github, deps.evidence, {
    target: { kind: "merge_group", headSha: group.head_sha },
    config: config.config,
    baseSha: group.base_sha,
  });
  facts.evidence_source = collected.source;
  facts.evidence_run = collected.run;
  return facts;
}
