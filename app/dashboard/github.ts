/**
 * The GitHub calls the dashboard makes besides the adapter's own: finding, opening and editing
 * its issue, and the open pull requests with their authors. A subclass of the one adapter, so
 * every call is counted with the rest (`calls`); these methods belong in GitHubAdapter itself
 * (app/github/adapter.ts) and move there as they are.
 */
import { GitHubAdapter, type GitHubClient } from "../github/adapter.js";

export interface IssueByApp {
  number: number;
  body: string;
  state: "open" | "closed";
  author: string;
}

export interface OpenPull {
  number: number;
  head_sha: string;
  author: string;
  title: string;
}

export class DashboardAdapter extends GitHubAdapter {
  constructor(
    private readonly client: GitHubClient,
    fullName: string,
    appSlug: string,
  ) {
    super(client, fullName, appSlug);
  }

  private tally(operation: string): void {
    this.calls.set(operation, (this.calls.get(operation) ?? 0) + 1);
  }

  /**
   * Issues (open or closed) opened by `creator`, with their authors: GitHub's filter spares the
   * listing, the caller still checks the author (a filter is no proof). "disabled": the
   * repository has issues turned off (410).
   */
  async issuesBy(creator: string): Promise<IssueByApp[] | "disabled"> {
    this.tally("issues/list-for-repo");
    let issues: Awaited<ReturnType<typeof this.client.rest.issues.listForRepo>>["data"];
    try {
      issues = await this.client.paginate(this.client.rest.issues.listForRepo, {
        owner: this.owner,
        repo: this.repo,
        creator,
        state: "all",
        per_page: 100,
      });
    } catch (error) {
      if ((error as { status?: number }).status === 410) return "disabled";
      throw error;
    }
    return issues
      .filter((i) => !i.pull_request)
      .map((i) => ({
        number: i.number,
        body: i.body ?? "",
        state: i.state === "closed" ? "closed" : "open",
        author: i.user?.login ?? "ghost",
      }));
  }

  async createIssue(title: string, body: string): Promise<number> {
    this.tally("issues/create");
    const { data } = await this.client.rest.issues.create({
      owner: this.owner,
      repo: this.repo,
      title,
      body,
    });
    return data.number;
  }

  async setIssueBody(number: number, body: string): Promise<void> {
    this.tally("issues/update");
    await this.client.rest.issues.update({
      owner: this.owner,
      repo: this.repo,
      issue_number: number,
      body,
    });
  }

  /** Every open pull request with its head, author and title. */
  async openPulls(): Promise<OpenPull[]> {
    this.tally("pulls/list");
    const pulls = await this.client.paginate(this.client.rest.pulls.list, {
      owner: this.owner,
      repo: this.repo,
      state: "open",
      per_page: 100,
    });
    return pulls.map((p) => ({
      number: p.number,
      head_sha: p.head.sha,
      author: p.user?.login ?? "ghost",
      title: p.title,
    }));
  }
}
