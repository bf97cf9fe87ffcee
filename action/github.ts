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
