/** Repositories: commits and their comparison, trees, branches and their rules, who may do what. */
import type { DiffFileInput } from "../checks/evaluator/bundle.js";
import type { BranchProtectionView, BranchRule } from "../checks/setup/required-check.js";
import type { TestedCommitFact } from "../schemas/gate.js";
import { at, list, type Repo, unless } from "./call.js";

/** base...head as GitHub's compare reports it, read once per SHA pair. */
export interface Comparison {
  base_sha: string;
  head_sha: string;
  merge_base_sha: string;
  merge_base_tree_sha: string;
  total_commits: number;
  files: DiffFileInput[];
  commits: {
    sha: string;
    message: string;
    committed_at: string | null;
    tree_sha: string;
    parents: string[];
  }[];
}

/**
 * The files one commit touched against its first parent, as GitHub lists them: 3,000 at most.
 * `cut`: GitHub listed that many, so the commit may have touched files not in `files`.
 */
export interface CommitFiles {
  files: string[];
  cut: boolean;
}

/** The files one commit touched against its first parent. */
export async function commitFiles(r: Repo, sha: string): Promise<CommitFiles> {
  // GitHub pages a commit's files 100 at a time (3,000 at most). The handoff rule reads this list
  // for the handoff file's own path: one page of a larger commit would call a fresh file stale.
  const files: string[] = [];
  for (let page = 1; page <= COMMIT_FILE_PAGES; page++) {
    r.count("repos/get-commit");
    const { data } = await r.client.rest.repos.getCommit({
      ...at(r),
      ref: sha,
      per_page: 100,
      page,
    });
    const listed = data.files ?? [];
    for (const f of listed) {
      files.push(f.filename);
      if (f.previous_filename) files.push(f.previous_filename);
    }
    if (listed.length < 100) return { files, cut: false };
  }
  // Every page full: GitHub lists no more, whether or not the commit touched more.
  return { files, cut: true };
}

/** GitHub lists at most 3,000 files of one commit. */
const COMMIT_FILE_PAGES = 30;

/**
 * base...head at exact SHAs, in one call: the changed files with their patches (GitHub lists at
 * most 300), the commits from the merge base to the head (at most 250, oldest first, each with
 * its tree and parents) and the merge base. Nothing in it can change, so callers cache it.
 */
export async function compare(r: Repo, base: string, head: string): Promise<Comparison> {
  r.count("repos/compare-commits");
  const { data } = await r.client.rest.repos.compareCommitsWithBasehead({
    ...at(r),
    basehead: `${base}...${head}`,
  });
  return {
    base_sha: base,
    head_sha: head,
    merge_base_sha: data.merge_base_commit.sha,
    merge_base_tree_sha: data.merge_base_commit.commit.tree.sha,
    total_commits: data.total_commits,
    files: (data.files ?? []).map((f) => ({
      filename: f.filename,
      previous_filename: f.previous_filename ?? null,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      patch: f.patch ?? null,
    })),
    commits: data.commits.map((c) => ({
      sha: c.sha,
      message: c.commit.message,
      committed_at: c.commit.committer?.date ?? null,
      tree_sha: c.commit.tree.sha,
      parents: c.parents.map((p) => p.sha),
    })),
  };
}

/** A commit as GitHub's git database has it (`git/get-commit`). */
async function gitCommit(r: Repo, sha: string) {
  r.count("git/get-commit");
  return (await r.client.rest.git.getCommit({ ...at(r), commit_sha: sha })).data;
}

export async function treeOf(r: Repo, commitSha: string): Promise<string> {
  return (await gitCommit(r, commitSha)).tree.sha;
}

/** A commit as GitHub has it; null when GitHub has no such commit. */
export async function commit(r: Repo, sha: string): Promise<TestedCommitFact | null> {
  return unless([404, 422], null, async () => {
    const data = await gitCommit(r, sha);
    return { sha: data.sha, tree_sha: data.tree.sha, parents: data.parents.map((p) => p.sha) };
  });
}

/** A person's permission on the repository; "none" when GitHub knows no such collaborator. */
export async function permission(r: Repo, login: string): Promise<string> {
  r.count("repos/get-collaborator-permission-level");
  return unless([404], "none", async () => {
    const { data } = await r.client.rest.repos.getCollaboratorPermissionLevel({
      ...at(r),
      username: login,
    });
    return data.permission;
  });
}

export async function isTeamMember(
  r: Repo,
  org: string,
  team: string,
  login: string,
): Promise<boolean> {
  r.count("teams/get-membership-for-user-in-org");
  return unless([404], false, async () => {
    const { data } = await r.client.rest.teams.getMembershipForUserInOrg({
      org,
      team_slug: team,
      username: login,
    });
    return data.state === "active";
  });
}

/** The active rules on a branch (rulesets, the repository's and its organisation's). */
export async function branchRules(r: Repo, branch: string): Promise<BranchRule[]> {
  return list(r, "repos/get-branch-rules", r.client.rest.repos.getBranchRules, { branch });
}

/** A branch with its classic protection's required status checks, as the token may see it. */
export async function branchProtection(r: Repo, branch: string): Promise<BranchProtectionView> {
  r.count("repos/get-branch");
  const { data } = await r.client.rest.repos.getBranch({ ...at(r), branch });
  return data;
}

/** The repository as GitHub answers it (`repos/get`): its default branch, its owner's type. */
export async function repository(r: Repo) {
  r.count("repos/get");
  return (await r.client.rest.repos.get(at(r))).data;
}
