import { Octokit } from "@octokit/rest";
import { AGATE_VERSION } from "../schemas/version.js";

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
    this.octokit = new Octokit({
      auth: token,
      baseUrl,
      userAgent: `agate-action/${AGATE_VERSION}`,
    });
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
  | { ok: false; status: number | "not-a-file" | null; message: string };

/**
 * A file of any repository at an exact commit: the organisation defaults a config extends, in
 * the owner's `.github` repository. Without a token the request is anonymous (enough for a
 * public repository). Every failure is returned with GitHub's status, for a message to explain.
 */
export async function readRepositoryFile(options: {
  token: string | undefined;
  baseUrl: string | undefined;
  owner: string;
  repo: string;
  path: string;
  sha: string;
}): Promise<RepositoryFileRead> {
  const octokit = new Octokit({
    ...(options.token ? { auth: options.token } : {}),
    baseUrl: options.baseUrl || "https://api.github.com",
    userAgent: `agate-action/${AGATE_VERSION}`,
  });
  try {
    const { data } = await octokit.rest.repos.getContent({
      owner: options.owner,
      repo: options.repo,
      path: options.path,
      ref: options.sha,
    });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return { ok: false, status: "not-a-file", message: "not a file" };
    }
    return { ok: true, text: Buffer.from(data.content, "base64").toString("utf8") };
  } catch (error) {
    const { status, message } = error as { status?: number; message?: string };
    return { ok: false, status: status ?? null, message: message ?? String(error) };
  }
}
