/** Pull requests: the pull request itself, its files, its reviews, the open ones. */
import type { ChangedFile, PullRequestDetail, PullRequestView } from "../schemas/gate.js";
import { at, list, type Repo, unless } from "./call.js";

export interface ReviewFact {
  login: string;
  /** GitHub's account type of the reviewer (User, Bot or Organization); null when GitHub did not say. */
  user_type: string | null;
  state: string;
  commit_id: string | null;
  submitted_at: string | null;
  body: string;
}

export interface OpenPull {
  number: number;
  head_sha: string;
  author: string;
  title: string;
}

/** The pull request as GitHub answers it: one read (`pulls/get`). */
export async function getPull(r: Repo, number: number) {
  r.count("pulls/get");
  return (await r.client.rest.pulls.get({ ...at(r), pull_number: number })).data;
}

/** The pull request as GitHub shows it now: one read. */
export async function pullRequestView(r: Repo, number: number): Promise<PullRequestView> {
  const data = await getPull(r, number);
  const detail: PullRequestDetail = {
    title: data.title,
    body: data.body ?? "",
    created_at: data.created_at,
    updated_at: data.updated_at,
    commits: data.commits,
    additions: data.additions,
    deletions: data.deletions,
    changed_files: data.changed_files,
    merge_commit_sha: data.merge_commit_sha ?? null,
  };
  return {
    snapshot: {
      repository: `${r.owner}/${r.repo}`,
      number: data.number,
      state: data.state === "open" ? "open" : "closed",
      draft: data.draft ?? false,
      head_sha: data.head.sha,
      head_ref: data.head.ref,
      base_sha: data.base.sha,
      base_ref: data.base.ref,
      author: { login: data.user.login, type: data.user.type },
      labels: data.labels.map((label) => label.name),
    },
    detail,
  };
}

/** Whether a pull request is open; false when it is closed or does not exist. */
export async function isPullRequestOpen(r: Repo, number: number): Promise<boolean> {
  return unless([404], false, async () => (await getPull(r, number)).state === "open");
}

export async function changedFiles(r: Repo, number: number): Promise<ChangedFile[]> {
  const files = await list(r, "pulls/list-files", r.client.rest.pulls.listFiles, {
    pull_number: number,
  });
  return files.map((f) => ({
    filename: f.filename,
    previous_filename: f.previous_filename ?? null,
    status: f.status,
  }));
}

/**
 * Every open pull request with its head (a workflow event names only the commit), author and
 * title (the dashboard lists them).
 */
export async function openPullRequests(r: Repo): Promise<OpenPull[]> {
  const pulls = await list(r, "pulls/list", r.client.rest.pulls.list, { state: "open" });
  return pulls.map((p) => ({
    number: p.number,
    head_sha: p.head.sha,
    author: p.user?.login ?? "ghost",
    title: p.title,
  }));
}

export async function reviews(r: Repo, number: number): Promise<ReviewFact[]> {
  const listed = await list(r, "pulls/list-reviews", r.client.rest.pulls.listReviews, {
    pull_number: number,
  });
  return listed.map((review) => ({
    login: review.user?.login ?? "",
    user_type: review.user?.type ?? null,
    state: review.state,
    commit_id: review.commit_id ?? null,
    submitted_at: review.submitted_at ?? null,
    body: review.body ?? "",
  }));
}

/** The open pull requests whose head is `owner:branch` of this repository, newest first: one page of `per_page`. */
export async function openPullsForBranch(r: Repo, branch: string, perPage: number) {
  r.count("pulls/list");
  const { data } = await r.client.rest.pulls.list({
    ...at(r),
    head: `${r.owner}:${branch}`,
    state: "open",
    per_page: perPage,
  });
  return data;
}
