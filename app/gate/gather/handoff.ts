/**
 * The handoff file and what its rules and verification need; the commits are the compare's.
 * Where the file is read, if at all, and which commits tell its freshness, are the read plan's
 * (checks/gate/reads.ts).
 */
import {
  handoffCommits,
  handoffReadAt,
  newestChangeCandidates,
} from "../../../checks/gate/reads.js";
import type { Config } from "../../../schemas/config.js";
import type {
  HandoffFacts,
  PullRequestDetail,
  PullRequestSnapshot,
} from "../../../schemas/gate.js";
import type { Comparison, GitHubAdapter } from "../../github/adapter.js";
import type { ImmutableReads } from "../../github/reads.js";
import type { ChangedFiles } from "./changed-files.js";

export async function handoffFactsFor(
  deps: { github: GitHubAdapter; reads: ImmutableReads; now: () => Date },
  pr: PullRequestSnapshot,
  config: Config,
  detail: PullRequestDetail,
  comparison: Comparison,
  changed: ChangedFiles,
): Promise<HandoffFacts> {
  const { github, reads } = deps;
  const path = config.handoff.path;
  const commits = handoffCommits(config, comparison.commits);
  const facts: HandoffFacts = {
    file: null,
    observed_at: deps.now().toISOString(),
    opened_at: detail.created_at,
    commit_count: detail.commits,
    changed_lines: detail.additions + detail.deletions,
    commits,
    newest_change: null,
  };
  const at = handoffReadAt({
    config,
    labels: pr.labels,
    facts,
    changed,
    mergeBase: comparison.merge_base_sha,
    head: pr.head_sha,
  });
  const file = at ? await reads.file(github, path, at) : null;
  // Where it was read: the evaluator job reads there, or shows none (checks/evaluator/inputs.ts).
  facts.read_at_sha = at;
  if (!file) return facts;
  // Only a file that exists can be stale; its freshness needs the newest non-empty commit.
  let newest_change: HandoffFacts["newest_change"] = null;
  for (const sha of newestChangeCandidates(commits, pr.head_sha)) {
    const { files, cut } = await reads.commitFiles(github, sha);
    if (files.length > 0) {
      newest_change = { sha, files, cut };
      break;
    }
  }
  return { ...facts, file: { path, blob_sha: file.blobSha, text: file.text }, newest_change };
}
