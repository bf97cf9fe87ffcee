/**
 * What `agate-gate status` reads of GitHub, with the agent's own token: the pull request (one
 * call) and the `agate` check runs on its head (one call). It writes nothing. A token that lacks
 * a permission gets an error naming it; a rate limit is returned as how long to wait, for the
 * caller's --wait to respect.
 */
import { isRateLimited, noAnswer, noAnswerText } from "../../checks/github-answers.js";
import { type Repo, repoOf } from "../../github/call.js";
import { latestAgateCheckRuns } from "../../github/checks.js";
import { tokenClient } from "../../github/client.js";
import { getPull, openPullsForBranch } from "../../github/pulls.js";

/** The token or the repository cannot be used as it is: exit 2, with what to change. */
export class StatusAccessError extends Error {
  override readonly name = "StatusAccessError";
}

/** GitHub's rate limit: ask again after `waitMs`. */
export class StatusRateLimited extends Error {
  override readonly name = "StatusRateLimited";
  constructor(
    readonly waitMs: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PullView {
  number: number;
  head_sha: string;
  head_ref: string;
  state: string;
  merged: boolean;
}

export interface CheckRunView {
  id: number;
  url: string | null;
  app: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  summary: string | null;
}

/** What each read needs of a token, in the words of GitHub's permission names. */
const NEEDS = {
  pulls: "pull requests: read",
  checks: "checks: read",
} as const;

export const TOKEN_HELP =
  "a token that can read the repository's checks and pull requests (a fine-grained token with Checks: read and Pull requests: read, a workflow's `permissions: { checks: read, pull-requests: read }`, or GH_TOKEN=$(gh auth token))";

interface HttpFailure {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

/** How long a rate limit says to wait: retry-after, else until the reset, else a minute. */
export function rateLimitWaitMs(error: unknown, now = Date.now()): number {
  const headers = (error as HttpFailure).response?.headers ?? {};
  const after = Number(headers["retry-after"]);
  if (Number.isFinite(after) && after > 0) return after * 1_000;
  const reset = Number(headers["x-ratelimit-reset"]);
  if (String(headers["x-ratelimit-remaining"]) === "0" && Number.isFinite(reset)) {
    return Math.max(1_000, reset * 1_000 - now + 1_000);
  }
  // A secondary limit without either header: GitHub's documentation says wait a minute at least.
  return 60_000;
}

export class StatusGitHub {
  private readonly r: Repo;
  readonly fullName: string;

  constructor(
    token: string,
    readonly owner: string,
    readonly repo: string,
    baseUrl: string,
  ) {
    this.fullName = `${owner}/${repo}`;
    this.r = repoOf(tokenClient(token, baseUrl), owner, repo);
  }

  /** A failure in agate's words: what the token lacks, or how long to wait. */
  private explain(error: unknown, what: string, needs: string): Error {
    if (isRateLimited(error)) {
      const ms = rateLimitWaitMs(error);
      return new StatusRateLimited(
        ms,
        `GitHub's rate limit for this token is reached (reading ${what}); it allows more in ${Math.ceil(ms / 1_000)} s`,
      );
    }
    const unreached = noAnswer(error);
    if (unreached) {
      return new StatusAccessError(
        `${noAnswerText(unreached)}; check GITHUB_API_URL (default https://api.github.com) and the network`,
      );
    }
    const { status, message } = error as HttpFailure;
    switch (status) {
      case 401:
        return new StatusAccessError(
          `GitHub refused the token (401: ${message}): set AGATE_GITHUB_TOKEN, GITHUB_TOKEN or GH_TOKEN to ${TOKEN_HELP}`,
        );
      case 403:
        return new StatusAccessError(
          `the token may not read ${what} on ${this.fullName} (403: ${message}): it needs ${needs} (status reads checks and pull requests: ${TOKEN_HELP})`,
        );
      case 404:
        return new StatusAccessError(
          `GitHub shows no ${what} on ${this.fullName} to this token (404): check --repo and the number, and that the token can see the repository with ${needs}`,
        );
      default:
        return new StatusAccessError(
          `cannot read ${what} on ${this.fullName}: GitHub answered ${status ?? "nothing"} (${message ?? String(error)})`,
        );
    }
  }

  async pullRequest(number: number): Promise<PullView> {
    try {
      const data = await getPull(this.r, number);
      return {
        number: data.number,
        head_sha: data.head.sha,
        head_ref: data.head.ref,
        state: data.state,
        merged: data.merged,
      };
    } catch (error) {
      throw this.explain(error, `pull request #${number}`, NEEDS.pulls);
    }
  }

  /** The open pull request whose head is `owner:branch`, newest first; null when none is. */
  async pullRequestForBranch(branch: string): Promise<PullView | null> {
    try {
      const [found] = await openPullsForBranch(this.r, branch, 1);
      return found
        ? {
            number: found.number,
            head_sha: found.head.sha,
            head_ref: found.head.ref,
            state: found.state,
            merged: found.merged_at !== null,
          }
        : null;
    } catch (error) {
      throw this.explain(error, `the pull requests of branch ${branch}`, NEEDS.pulls);
    }
  }

  /**
   * Every app's newest `agate` check run on the commit (GitHub's `filter=latest`: one per app).
   * Whose is whose is the caller's to judge: anyone with a workflow can make a check run of
   * that name, and only the agate App's is the gate.
   */
  async agateCheckRuns(sha: string): Promise<{ runs: CheckRunView[]; complete: boolean }> {
    try {
      const data = await latestAgateCheckRuns(this.r, sha);
      return {
        runs: data.check_runs.map((run) => ({
          id: run.id,
          url: run.html_url ?? null,
          app: run.app?.slug ?? "",
          head_sha: run.head_sha,
          status: run.status,
          conclusion: run.conclusion ?? null,
          summary: run.output.summary ?? null,
        })),
        complete: data.total_count <= data.check_runs.length,
      };
    } catch (error) {
      throw this.explain(error, `the check runs of ${sha.slice(0, 7)}`, NEEDS.checks);
    }
  }
}
