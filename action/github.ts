import type { Octokit } from "@octokit/rest";
import type { PinnedCommitComparison } from "../checks/config/extends.js";
import { isRateLimited, noAnswer, tooLargeForContents } from "../checks/github-answers.js";
import { tokenClient } from "../github/client.js";

/**
 * The Action's one GitHub API call: reading the base config at a commit when git cannot fetch it
 * (a shallow checkout of a private repository without persisted credentials). It needs
 * `contents: read` and nothing else; the Action writes nothing through the API (the record
 * leaves the job as a workflow artifact, see upload.ts).
 */
export class ActionGitHub {
  private readonly octokit: Octokit;

  constructor(
    token: string,
    private readonly owner: string,
    private readonly repo: string,
    baseUrl = "https://api.github.com",
  ) {
    this.octokit = tokenClient(token, baseUrl, "action");
  }

  async readFileAtCommit(sha: string, path: string): Promise<string | null> {
    try {
      const { data } = await this.octokit.rest.repos.getContent({
        owner: this.owner,
        repo: this.repo,
        path,
        ref: sha,
      });
      if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
        throw new Error(`${path} at ${sha} is not a file`);
      }
      return Buffer.from(data.content, "base64").toString("utf8");
    } catch (error) {
      if ((error as { status?: number }).status === 404) return null;
      throw error;
    }
  }
}

export type RepositoryFileRead =
  | { ok: true; text: string }
  | {
      ok: false;
      status: number | "not-a-file" | "too-large" | "rate-limited" | null;
      message: string;
    };

export interface RepositoryReadOptions {
  token: string | undefined;
  baseUrl: string | undefined;
  owner: string;
  repo: string;
}

function clientFor(options: RepositoryReadOptions): Octokit {
  return tokenClient(options.token, options.baseUrl || "https://api.github.com", "action");
}

/** GitHub's status for the caller to explain; null for no answer, "rate-limited" for a limit. */
function failureOf(error: unknown): {
  ok: false;
  status: number | "rate-limited" | null;
  message: string;
} {
  const { status, message } = error as { status?: number; message?: string };
  return {
    ok: false,
    // Octokit gives a request that got no answer status 500: it is no status of GitHub's.
    status: isRateLimited(error) ? "rate-limited" : noAnswer(error) ? null : (status ?? null),
    message: message ?? String(error),
  };
}

/**
 * A file of any repository at an exact commit: the organisation defaults a config extends, in
 * the owner's `.github` repository. Without a token the request is anonymous (enough for a
 * public repository). Every failure is returned with GitHub's status, for a message to explain.
 */
export async function readRepositoryFile(
  options: RepositoryReadOptions & { path: string; sha: string },
): Promise<RepositoryFileRead> {
  try {
    const { data } = await clientFor(options).rest.repos.getContent({
      owner: options.owner,
      repo: options.repo,
      path: options.path,
      ref: options.sha,
    });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return { ok: false, status: "not-a-file", message: "not a file" };
    }
    // Over 1 MB the contents API sends no content: never an empty file.
    if (tooLargeForContents(data)) {
      return {
        ok: false,
        status: "too-large",
        message: `${data.size} bytes, over the 1 MB GitHub's contents API serves`,
      };
    }
    return { ok: true, text: Buffer.from(data.content, "base64").toString("utf8") };
  } catch (error) {
    return failureOf(error);
  }
}

/**
 * Where a commit stands against its repository's default branch: GitHub's compare of
 * `<the branch's commit>...<sha>`, its status null when GitHub finds no shared history (404 on the
 * compare). A failure to read the repository is returned with GitHub's status.
 */
export async function compareWithDefaultBranch(
  options: RepositoryReadOptions & { sha: string },
): Promise<
  | { ok: true; compared: PinnedCommitComparison }
  | { ok: false; status: number | "rate-limited" | null; message: string }
> {
  const octokit = clientFor(options);
  let defaultBranch: string;
  try {
    ({
      data: { default_branch: defaultBranch },
    } = await octokit.rest.repos.get({ owner: options.owner, repo: options.repo }));
  } catch (error) {
    return failureOf(error);
  }
  // The branch's commit, not its name: a tag of the same name (anyone who can push to the
  // repository can make one) could stand in for the branch in the compare.
  let branchSha: string;
  try {
    ({
      data: {
        commit: { sha: branchSha },
      },
    } = await octokit.rest.repos.getBranch({
      owner: options.owner,
      repo: options.repo,
      branch: defaultBranch,
    }));
  } catch (error) {
    return failureOf(error);
  }
  try {
    // One commit per page: only the status is read, and a fork's commit may be far ahead.
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: options.owner,
      repo: options.repo,
      basehead: `${branchSha}...${options.sha}`,
      per_page: 1,
    });
    return { ok: true, compared: { defaultBranch, status: data.status } };
  } catch (error) {
    const failure = failureOf(error);
    if (failure.status === 404) return { ok: true, compared: { defaultBranch, status: null } };
    return failure;
  }
}
