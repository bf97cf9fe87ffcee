/**
 * The files a pull request changes and the commits of its comparison, at the exact base and head
 * SHAs being graded (the read plan's first reads, checks/gate/reads.ts).
 */
import { compareIsWhole, pullListing } from "../../../checks/gate/reads.js";
import type {
  ChangedFile,
  ChangedFilesListing,
  PullRequestDetail,
  PullRequestSnapshot,
  TestedCommitFact,
} from "../../../schemas/gate.js";
import type { Comparison, GitHubAdapter } from "../../github/adapter.js";

/** The head or base moved while facts were read: a decision on them would mix two commits. */
export class HeadMovedError extends Error {
  constructor(number: number, what: string) {
    super(`${what} of #${number} moved while agate read it; starting over`);
    this.name = "HeadMovedError";
  }
}

export interface ChangedFiles {
  files: ChangedFile[];
  listing: ChangedFilesListing;
}

/**
 * The files the pull request changes, at the exact base and head SHAs. The compare of base...head
 * is read by SHA and so cannot mix two heads; it lists at most 300 files, so a larger change is
 * read from the pull request's own list (at most 3,000, read by number), after which the pull
 * request is read again to make sure neither end moved meanwhile. A listing that may be cut is
 * marked incomplete: the gate does not decide on it.
 */
export async function changedFilesAt(
  github: GitHubAdapter,
  pr: PullRequestSnapshot,
  detail: PullRequestDetail,
  comparison: Comparison,
): Promise<ChangedFiles> {
  const compared = comparison.files.map(({ filename, previous_filename, status }) => ({
    filename,
    previous_filename,
    status,
  }));
  if (compareIsWhole(compared.length, detail.changed_files)) {
    return { files: compared, listing: { complete: true, reason: null } };
  }
  const listed = await github.changedFiles(pr.number);
  const after = await github.pullRequest(pr.number);
  if (after.head_sha !== pr.head_sha) throw new HeadMovedError(pr.number, "the head");
  if (after.base_sha !== pr.base_sha) throw new HeadMovedError(pr.number, "the base");
  const count = (await github.pullRequestDetail(pr.number)).changed_files;
  return {
    files: listed,
    listing: pullListing(listed.length, count),
  };
}

/** A commit of the comparison as GitHub has it, without another call when the compare had it. */
export function commitOf(comparison: Comparison, sha: string): TestedCommitFact | null {
  const commit = comparison.commits.find((c) => c.sha === sha);
  return commit ? { sha: commit.sha, tree_sha: commit.tree_sha, parents: commit.parents } : null;
}

/** The head's tree: the compare's when it has it, else read by the head's SHA. */
export async function headTreeAt(
  github: GitHubAdapter,
  comparison: Comparison,
  head: string,
): Promise<string | null> {
  if (comparison.head_sha === comparison.merge_base_sha) return comparison.merge_base_tree_sha;
  return commitOf(comparison, comparison.head_sha)?.tree_sha ?? (await github.treeOf(head));
}
