import { Octokit } from "@octokit/rest";
import { GITHUB_TEXT_LIMIT } from "../checks/markdown.js";
import { COMMANDS_CHECK_NAME } from "../schemas/command-record.js";
import { AGATE_VERSION } from "../schemas/version.js";

export interface CommandsCheckRun {
  headSha: string;
  passed: boolean;
  title: string;
  summary: string;
  recordJson: string;
  externalId: string;
}

/**
 * Every GitHub call the Action makes, in one place: reading a file at a commit (when git cannot)
 * and creating the `agate/commands` check run.
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

  async createCommandsCheckRun(run: CommandsCheckRun): Promise<{ id: number; url: string }> {
    const { data } = await this.octokit.rest.checks.create({
      owner: this.owner,
      repo: this.repo,
      name: COMMANDS_CHECK_NAME,
      head_sha: run.headSha,
      status: "completed",
      conclusion: run.passed ? "success" : "failure",
      external_id: run.externalId,
      output: {
        title: run.title,
        summary: run.summary.slice(0, GITHUB_TEXT_LIMIT),
        text: run.recordJson,
      },
    });
    return { id: data.id, url: data.html_url ?? "" };
  }
}
