/**
 * Issues and their comments: a handoff entry is an issue, its commands are comments, and the
 * dashboard is an issue the App opened. The App and the CLI (`agate-gate entry`) share these.
 */
import { at, list, NOT_RESENT, type Repo, statusOf, unless } from "./call.js";
import { type LabelFact, labelFact } from "./labels.js";

/** An issue as a handoff entry reads it. */
export interface EntryIssueFact {
  number: number;
  body: string;
  state: "open" | "closed";
  author: string;
  labels: string[];
  /** The labels with their looks: one GitHub made for an add is grey until agate styles it. */
  looks: LabelFact[];
  created_at: string;
}

export interface IssueCommentFact {
  id: number;
  body: string;
  login: string;
  /** GitHub's account type of its author ("User", "Bot"); null when GitHub did not say. */
  user_type: string | null;
  created_at: string;
  /** GitHub's time of its last edit (created_at when never edited): a `/wait` renewal. */
  updated_at: string;
  /** Changed since it was posted: its words now are not the words of its event. */
  edited: boolean;
}

export interface IssueByApp {
  number: number;
  body: string;
  state: "open" | "closed";
  author: string;
}

/** An issue of a listing: never a pull request. */
export interface ListedIssue extends IssueByApp {
  created_at: string;
}

/** An issue as GitHub answers it; null when it does not exist, was deleted, or is a pull request. */
async function getIssue(r: Repo, number: number) {
  r.count("issues/get");
  const data = await unless([404, 410], null, async () => {
    return (await r.client.rest.issues.get({ ...at(r), issue_number: number })).data;
  });
  return data?.pull_request ? null : data;
}

/** An issue's text; null when it does not exist or is a pull request. */
export async function issue(
  r: Repo,
  number: number,
): Promise<{ number: number; title: string; body: string } | null> {
  const data = await getIssue(r, number);
  return data && { number: data.number, title: data.title, body: data.body ?? "" };
}

/** An issue as a handoff entry reads it; null when it does not exist or is a pull request. */
export async function entryIssue(r: Repo, number: number): Promise<EntryIssueFact | null> {
  const data = await getIssue(r, number);
  if (!data) return null;
  return {
    number: data.number,
    body: data.body ?? "",
    state: data.state === "closed" ? "closed" : "open",
    author: data.user?.login ?? "ghost",
    labels: data.labels.map((label) => (typeof label === "string" ? label : (label.name ?? ""))),
    looks: data.labels.flatMap((label) =>
      typeof label === "string" || !label.name || !label.color
        ? []
        : [labelFact({ ...label, name: label.name, color: label.color })],
    ),
    created_at: data.created_at,
  };
}

/** Every comment on an issue, oldest first. */
export async function issueComments(r: Repo, number: number): Promise<IssueCommentFact[]> {
  const comments = await list(r, "issues/list-comments", r.client.rest.issues.listComments, {
    issue_number: number,
  });
  return comments.map((c) => ({
    id: c.id,
    body: c.body ?? "",
    login: c.user?.login ?? "ghost",
    user_type: c.user?.type ?? null,
    created_at: c.created_at,
    updated_at: c.updated_at,
    edited: c.updated_at !== c.created_at,
  }));
}

/** Issues (not pull requests) as GitHub lists them for a filter, in its order. */
export async function listIssues(
  r: Repo,
  filter: { state: "open" | "all"; creator?: string; labels?: string },
): Promise<ListedIssue[]> {
  const issues = await list(r, "issues/list-for-repo", r.client.rest.issues.listForRepo, filter);
  return issues
    .filter((i) => !i.pull_request)
    .map((i) => ({
      number: i.number,
      body: i.body ?? "",
      state: i.state === "closed" ? "closed" : "open",
      author: i.user?.login ?? "ghost",
      created_at: i.created_at,
    }));
}

/**
 * Issues (open or closed) opened by `creator`, with their authors: GitHub's filter spares the
 * listing, the caller still checks the author (a filter is no proof). "disabled": the
 * repository has issues turned off (410).
 */
export async function issuesBy(r: Repo, creator: string): Promise<IssueByApp[] | "disabled"> {
  try {
    const issues = await listIssues(r, { creator, state: "all" });
    return issues.map(({ number, body, state, author }) => ({ number, body, state, author }));
  } catch (error) {
    if (statusOf(error) === 410) return "disabled";
    throw error;
  }
}

/** Opens an issue; its number. Never sent twice by the client (NOT_RESENT). */
export async function createIssue(r: Repo, title: string, body: string): Promise<number> {
  r.count("issues/create");
  const { data } = await r.client.rest.issues.create({
    ...at(r),
    title,
    body,
    request: NOT_RESENT,
  });
  return data.number;
}

/** Changes an issue's body, or opens or closes it (closed as completed or not planned). */
export async function updateIssue(
  r: Repo,
  number: number,
  change:
    | { body: string }
    | { state: "open" | "closed"; state_reason?: "completed" | "not_planned" },
): Promise<void> {
  r.count("issues/update");
  await r.client.rest.issues.update({ ...at(r), issue_number: number, ...change });
}

/** Posts a comment; GitHub's id for it. Never sent twice by the client (NOT_RESENT). */
export async function comment(r: Repo, number: number, body: string): Promise<number> {
  r.count("issues/create-comment");
  const { data } = await r.client.rest.issues.createComment({
    ...at(r),
    issue_number: number,
    body,
    request: NOT_RESENT,
  });
  return data.id;
}

/** Edits a comment's text (the CLI's `/wait`, renewed and ended). */
export async function editComment(r: Repo, id: number, body: string): Promise<void> {
  r.count("issues/update-comment");
  await r.client.rest.issues.updateComment({ ...at(r), comment_id: id, body });
}
