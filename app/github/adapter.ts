import type { ProbotOctokit } from "probot";
import type { PinnedCommitComparison } from "../../checks/config/extends.js";
import type { DiffFileInput } from "../../checks/evaluator/bundle.js";
import type { CheckRunWrite } from "../../checks/gate/plan.js";
import { isRateLimited, tooLargeForContents } from "../../checks/github-answers.js";
import type { BranchProtectionView, BranchRule } from "../../checks/setup/required-check.js";
import { RECORD_ARTIFACT_PREFIX } from "../../schemas/command-record.js";
import type {
  ChangedFile,
  EvidenceJob,
  EvidenceRun,
  PullRequestDetail,
  PullRequestSnapshot,
  PullRequestView,
  RecordArtifact,
  TestedCommitFact,
} from "../../schemas/gate.js";
import { GATE_CHECK_NAME } from "../../schemas/gate.js";
import type { AgateCheckRun } from "../../schemas/store.js";
import { TRACE_REPORT_ARTIFACT_PREFIX } from "../../schemas/trace.js";

export type { PullRequestDetail } from "../../schemas/gate.js";
export type { AgateCheckRun } from "../../schemas/store.js";

export type GitHubClient = InstanceType<typeof ProbotOctokit>;

export interface ReviewFact {
  login: string;
  /** GitHub's account type: User, Bot or Organization. */
  /** GitHub's account type of the reviewer; null when GitHub did not say. */
  user_type: string | null;
  state: string;
  commit_id: string | null;
  submitted_at: string | null;
  body: string;
}

export interface LabelFact {
  name: string;
  color: string;
  description: string | null;
}

const labelFact = (l: { name: string; color: string; description?: string | null }): LabelFact => ({
  name: l.name,
  color: l.color,
  description: l.description ?? null,
});

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

/** The check-run buttons, by the identifier GitHub sends back in `requested_action`. */
export const RERUN_GATE = "rerun-gate";
export const RERUN_EVALUATOR = "rerun-evaluator";

const statusOf = (error: unknown) => (error as { status?: number }).status;

/**
 * Request options for a write that makes something new (a comment, an issue, a check run): the
 * client never sends it again by itself. When its answer is lost (a reset connection, a 502 after
 * GitHub made it), a second send would make a second one; the job fails instead, and its retry
 * reads what exists before it writes (app/github/write-once.ts, app/gate/check-runs.ts).
 */
const NOT_RESENT = { retries: 0 };

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

/**
 * Every GitHub call the App makes for one repository, in one place: the rules read facts through
 * it, nothing else talks to GitHub, and `calls` counts what one event cost.
 */
export class GitHubAdapter {
  readonly calls = new Map<string, number>();
  readonly owner: string;
  readonly repo: string;

  constructor(
    private readonly octokit: GitHubClient,
    fullName: string,
    /** The App's own slug: only its check runs named `agate` are the gate. */
    private readonly appSlug: string,
  ) {
    const [owner, repo] = fullName.split("/");
    if (!owner || !repo) throw new Error(`not a repository full name: ${fullName}`);
    this.owner = owner;
    this.repo = repo;
  }

  /** The App's bot account, the author of what it writes. */
  get appLogin(): string {
    return `${this.appSlug}[bot]`;
  }

  private count(operation: string): void {
    this.calls.set(operation, (this.calls.get(operation) ?? 0) + 1);
  }

  get totalCalls(): number {
    return [...this.calls.values()].reduce((a, b) => a + b, 0);
  }

  /** Kept from the last `pullRequest` read, so the detail costs no second call. */
  private readonly details = new Map<number, PullRequestDetail>();

  async pullRequest(number: number): Promise<PullRequestSnapshot> {
    return (await this.pullRequestView(number)).snapshot;
  }

  /** The pull request as GitHub shows it now: one read. */
  async pullRequestView(number: number): Promise<PullRequestView> {
    this.count("pulls/get");
    const { data } = await this.octokit.rest.pulls.get({
      owner: this.owner,
      repo: this.repo,
      pull_number: number,
    });
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
    this.details.set(data.number, detail);
    return {
      snapshot: {
        repository: `${this.owner}/${this.repo}`,
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

  async pullRequestDetail(number: number): Promise<PullRequestDetail> {
    const known = this.details.get(number);
    if (known) return known;
    await this.pullRequest(number);
    const detail = this.details.get(number);
    if (!detail) throw new Error(`pull request #${number} was read but has no detail`);
    return detail;
  }

  /** The files one commit touched against its first parent. */
  async commitFiles(sha: string): Promise<string[]> {
    this.count("repos/get-commit");
    const { data } = await this.octokit.rest.repos.getCommit({
      owner: this.owner,
      repo: this.repo,
      ref: sha,
      per_page: 100,
    });
    return (data.files ?? []).flatMap((f) =>
      f.previous_filename ? [f.filename, f.previous_filename] : [f.filename],
    );
  }

  /**
   * base...head at exact SHAs, in one call: the changed files with their patches (GitHub lists at
   * most 300), the commits from the merge base to the head (at most 250, oldest first, each with
   * its tree and parents) and the merge base. Nothing in it can change, so callers cache it.
   */
  async compare(base: string, head: string): Promise<Comparison> {
    this.count("repos/compare-commits");
    const { data } = await this.octokit.rest.repos.compareCommitsWithBasehead({
      owner: this.owner,
      repo: this.repo,
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

  /** An issue's text; null when it does not exist or is a pull request. */
  async issue(number: number): Promise<{ number: number; title: string; body: string } | null> {
    this.count("issues/get");
    try {
      const { data } = await this.octokit.rest.issues.get({
        owner: this.owner,
        repo: this.repo,
        issue_number: number,
      });
      if (data.pull_request) return null;
      return { number: data.number, title: data.title, body: data.body ?? "" };
    } catch (error) {
      if (statusOf(error) === 404 || statusOf(error) === 410) return null;
      throw error;
    }
  }

  async changedFiles(number: number): Promise<ChangedFile[]> {
    this.count("pulls/list-files");
    const files = await this.octokit.paginate(this.octokit.rest.pulls.listFiles, {
      owner: this.owner,
      repo: this.repo,
      pull_number: number,
      per_page: 100,
    });
    return files.map((f) => ({
      filename: f.filename,
      previous_filename: f.previous_filename ?? null,
      status: f.status,
    }));
  }

  async treeOf(commitSha: string): Promise<string> {
    this.count("git/get-commit");
    const { data } = await this.octokit.rest.git.getCommit({
      owner: this.owner,
      repo: this.repo,
      commit_sha: commitSha,
    });
    return data.tree.sha;
  }

  /** A file at an exact commit; null when it does not exist there. */
  async fileAt(path: string, ref: string): Promise<{ text: string; blobSha: string } | null> {
    return this.#file(path, ref);
  }

  /**
   * A file of this repository at `ref` (the default branch when absent); null when it is not
   * there. Over 1 MB the contents API sends no content ("encoding": "none"): the text is then
   * read again as raw, one call more, so a large file never reads as empty.
   */
  async #file(path: string, ref?: string): Promise<{ text: string; blobSha: string } | null> {
    const where = { owner: this.owner, repo: this.repo, path, ...(ref ? { ref } : {}) };
    this.count("repos/get-content");
    try {
      const { data } = await this.octokit.rest.repos.getContent(where);
      if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return null;
      if (!tooLargeForContents(data)) {
        return { text: Buffer.from(data.content, "base64").toString("utf8"), blobSha: data.sha };
      }
      this.count("repos/get-content");
      const raw = await this.octokit.rest.repos.getContent({
        ...where,
        mediaType: { format: "raw" },
      });
      // Octokit hands a body that is not JSON or text/* over as bytes.
      const body = raw.data as unknown;
      const text =
        typeof body === "string" ? body : Buffer.from(body as ArrayBuffer).toString("utf8");
      return { text, blobSha: data.sha };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async writeAgateCheckRun(
    sha: string,
    existing: AgateCheckRun | null,
    write: CheckRunWrite,
  ): Promise<AgateCheckRun> {
    const output = { title: write.title.slice(0, 255), summary: write.summary };
    const fields = {
      owner: this.owner,
      repo: this.repo,
      status: write.conclusion === null ? ("in_progress" as const) : ("completed" as const),
      external_id: write.externalId,
      output,
      actions: [
        { label: "Re-run gate", description: "Recompute agate's decision", identifier: RERUN_GATE },
        ...(write.rerunEvaluator
          ? [
              {
                label: "Re-run evaluator",
                description: "Ask the evaluator again",
                identifier: RERUN_EVALUATOR,
              },
            ]
          : []),
      ],
      ...(write.conclusion !== null
        ? { conclusion: write.conclusion, completed_at: new Date().toISOString() }
        : {}),
    };
    if (existing) {
      this.count("checks/update");
      const updated = await this.octokit.rest.checks.update({
        ...fields,
        check_run_id: existing.id,
      });
      return agateCheckRunOf(updated.data);
    }
    this.count("checks/create");
    const created = await this.octokit.rest.checks.create({
      ...fields,
      name: GATE_CHECK_NAME,
      head_sha: sha,
      request: NOT_RESENT,
    });
    return agateCheckRunOf(created.data);
  }

  /**
   * The App's own newest `agate` check run on a commit, with when it started and its external id
   * (a merge group's check keeps the group's base there). Same-named runs of others are ignored.
   */
  async agateCheckRun(sha: string): Promise<AgateCheckRun | null> {
    this.count("checks/list-for-ref");
    const runs = await this.octokit.paginate(this.octokit.rest.checks.listForRef, {
      owner: this.owner,
      repo: this.repo,
      ref: sha,
      check_name: GATE_CHECK_NAME,
      filter: "all",
      per_page: 100,
    });
    const run = runs
      .filter((r) => r.app?.slug === this.appSlug && r.head_sha === sha)
      .sort((a, b) => b.id - a.id)[0];
    return run ? agateCheckRunOf(run) : null;
  }

  /** Runs for a head on one event, newest first (GitHub's own data on where evidence came from). */
  async workflowRunsFor(headSha: string, event: string): Promise<EvidenceRun[]> {
    this.count("actions/list-workflow-runs-for-repo");
    const runs = await this.octokit.paginate(
      this.octokit.rest.actions.listWorkflowRunsForRepo,
      { owner: this.owner, repo: this.repo, head_sha: headSha, event, per_page: 100 },
      (response) => response.data as unknown as WorkflowRunRow[],
    );
    return runs
      .map((run) => ({
        id: run.id,
        run_attempt: run.run_attempt ?? 1,
        head_sha: run.head_sha,
        path: run.path,
        event: run.event,
        status: run.status ?? null,
        conclusion: run.conclusion ?? null,
        html_url: run.html_url ?? null,
        head_repository: run.head_repository?.full_name ?? null,
        pull_requests: (run.pull_requests ?? [])
          .filter((p) => this.isThisRepository(p.base.repo.url))
          .map((p) => ({ number: p.number, base_ref: p.base.ref, base_sha: p.base.sha })),
      }))
      .sort((a, b) => b.id - a.id);
  }

  /**
   * Whether an API URL of a repository (`…/repos/{owner}/{repo}`) is this one's: a run lists pull
   * requests of other repositories too (numbers of theirs, not this one's).
   */
  private isThisRepository(url: string): boolean {
    return url.toLowerCase().endsWith(`/repos/${this.owner}/${this.repo}`.toLowerCase());
  }

  /** The jobs of a run's newest attempt (a job not re-run keeps its earlier attempt). */
  async latestJobs(runId: number): Promise<EvidenceJob[]> {
    this.count("actions/list-jobs-for-workflow-run");
    const jobs = await this.octokit.paginate(this.octokit.rest.actions.listJobsForWorkflowRun, {
      owner: this.owner,
      repo: this.repo,
      run_id: runId,
      filter: "latest",
      per_page: 100,
    });
    return jobs.map((job) => ({
      id: job.id,
      name: job.name,
      run_attempt: job.run_attempt ?? 1,
      status: job.status,
      conclusion: job.conclusion ?? null,
      html_url: job.html_url ?? null,
      steps: (job.steps ?? []).map((step) => ({
        name: step.name,
        number: step.number,
        status: step.status,
        conclusion: step.conclusion ?? null,
      })),
    }));
  }

  /** A run's artifacts, listed once per adapter (one pass): records and trace reports share it. */
  private readonly runArtifactLists = new Map<number, Promise<RecordArtifact[]>>();

  private runArtifacts(runId: number): Promise<RecordArtifact[]> {
    const known = this.runArtifactLists.get(runId);
    if (known) return known;
    this.count("actions/list-workflow-run-artifacts");
    const listed = this.octokit
      .paginate(
        this.octokit.rest.actions.listWorkflowRunArtifacts,
        { owner: this.owner, repo: this.repo, run_id: runId, per_page: 100 },
        (response) => response.data as unknown as ArtifactRow[],
      )
      .then((artifacts) =>
        artifacts.map((a) => ({
          id: a.id,
          name: a.name,
          size_in_bytes: a.size_in_bytes,
          expired: a.expired,
        })),
      );
    // A failed listing is not kept: the retry lists again.
    listed.catch(() => this.runArtifactLists.delete(runId));
    this.runArtifactLists.set(runId, listed);
    return listed;
  }

  /** Every artifact of a run named like an agate command record, of any attempt. */
  async recordArtifacts(runId: number): Promise<RecordArtifact[]> {
    return (await this.runArtifacts(runId)).filter((a) =>
      a.name.startsWith(RECORD_ARTIFACT_PREFIX),
    );
  }

  /** Every artifact of a run named like an agate trace report, of any attempt (app/gate/trace-report.ts). */
  async traceReportArtifacts(runId: number): Promise<RecordArtifact[]> {
    return (await this.runArtifacts(runId)).filter((a) =>
      a.name.startsWith(TRACE_REPORT_ARTIFACT_PREFIX),
    );
  }

  /**
   * An artifact's zip, at most `maxBytes`. GitHub answers with a redirect to short-lived storage;
   * that URL is fetched without the installation token (it must never leave for another host).
   */
  async artifactZip(artifactId: number, maxBytes: number): Promise<Uint8Array> {
    this.count("actions/download-artifact");
    const response = await this.octokit.rest.actions.downloadArtifact({
      owner: this.owner,
      repo: this.repo,
      artifact_id: artifactId,
      archive_format: "zip",
      request: { redirect: "manual" },
    });
    const location = (response.headers as Record<string, string | undefined>).location;
    if (response.status !== 302 || !location) {
      throw new Error(
        `GitHub answered the download of artifact ${artifactId} with ${response.status} and no redirect`,
      );
    }
    const blob = await fetch(location, { redirect: "error" });
    if (!blob.ok || !blob.body) {
      throw new Error(`the artifact storage answered ${blob.status} for artifact ${artifactId}`);
    }
    const declared = Number(blob.headers.get("content-length") ?? "0");
    if (declared > maxBytes) {
      await blob.body.cancel();
      throw new Error(
        `artifact ${artifactId} is ${declared} bytes, over the ${maxBytes} agate reads`,
      );
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of blob.body) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        throw new Error(`artifact ${artifactId} is over the ${maxBytes} bytes agate reads`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  /** A commit as GitHub has it; null when GitHub has no such commit. */
  async commit(sha: string): Promise<TestedCommitFact | null> {
    this.count("git/get-commit");
    try {
      const { data } = await this.octokit.rest.git.getCommit({
        owner: this.owner,
        repo: this.repo,
        commit_sha: sha,
      });
      return { sha: data.sha, tree_sha: data.tree.sha, parents: data.parents.map((p) => p.sha) };
    } catch (error) {
      if (statusOf(error) === 404 || statusOf(error) === 422) return null;
      throw error;
    }
  }

  /**
   * Every open pull request with its head (a workflow event names only the commit), author and
   * title (the dashboard lists them).
   */
  async openPullRequests(): Promise<OpenPull[]> {
    this.count("pulls/list");
    const pulls = await this.octokit.paginate(this.octokit.rest.pulls.list, {
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

  async reviews(number: number): Promise<ReviewFact[]> {
    this.count("pulls/list-reviews");
    const reviews = await this.octokit.paginate(this.octokit.rest.pulls.listReviews, {
      owner: this.owner,
      repo: this.repo,
      pull_number: number,
      per_page: 100,
    });
    return reviews.map((r) => ({
      login: r.user?.login ?? "",
      user_type: r.user?.type ?? null,
      state: r.state,
      commit_id: r.commit_id ?? null,
      submitted_at: r.submitted_at ?? null,
      body: r.body ?? "",
    }));
  }

  async permission(login: string): Promise<string> {
    this.count("repos/get-collaborator-permission-level");
    try {
      const { data } = await this.octokit.rest.repos.getCollaboratorPermissionLevel({
        owner: this.owner,
        repo: this.repo,
        username: login,
      });
      return data.permission;
    } catch (error) {
      if (statusOf(error) === 404) return "none";
      throw error;
    }
  }

  async isTeamMember(org: string, team: string, login: string): Promise<boolean> {
    this.count("teams/get-membership-for-user-in-org");
    try {
      const { data } = await this.octokit.rest.teams.getMembershipForUserInOrg({
        org,
        team_slug: team,
        username: login,
      });
      return data.state === "active";
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /**
   * Adds labels; GitHub creates a missing one with its default colour. Returns the labels as
   * GitHub now has them, so a caller can style one that had to be created, with no read first.
   */
  async addLabels(number: number, labels: string[]): Promise<LabelFact[]> {
    this.count("issues/add-labels");
    const { data } = await this.octokit.rest.issues.addLabels({
      owner: this.owner,
      repo: this.repo,
      issue_number: number,
      labels,
    });
    return data.map(labelFact);
  }

  /** Every label of the repository, with its look. */
  async repositoryLabels(): Promise<LabelFact[]> {
    this.count("issues/list-labels-for-repo");
    const labels = await this.octokit.paginate(this.octokit.rest.issues.listLabelsForRepo, {
      owner: this.owner,
      repo: this.repo,
      per_page: 100,
    });
    return labels.map(labelFact);
  }

  /** One label of the repository with its look; null when there is none of that name. */
  async repositoryLabel(name: string): Promise<LabelFact | null> {
    this.count("issues/get-label");
    try {
      const { data } = await this.octokit.rest.issues.getLabel({
        owner: this.owner,
        repo: this.repo,
        name,
      });
      return labelFact(data);
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /** Creates a label; false when one of that name exists already (someone was first). */
  async createLabel(name: string, color: string, description: string): Promise<boolean> {
    this.count("issues/create-label");
    try {
      await this.octokit.rest.issues.createLabel({
        owner: this.owner,
        repo: this.repo,
        name,
        color,
        description,
      });
      return true;
    } catch (error) {
      if (statusOf(error) === 422) return false;
      throw error;
    }
  }

  async styleLabel(
    name: string,
    color: string,
    description: string,
    newName?: string,
  ): Promise<void> {
    this.count("issues/update-label");
    await this.octokit.rest.issues.updateLabel({
      owner: this.owner,
      repo: this.repo,
      name,
      color,
      description,
      ...(newName !== undefined && newName !== name ? { new_name: newName } : {}),
    });
  }

  /** Posts a comment; GitHub's id for it. Never sent twice by the client (NOT_RESENT). */
  async comment(number: number, body: string): Promise<number> {
    this.count("issues/create-comment");
    const { data } = await this.octokit.rest.issues.createComment({
      owner: this.owner,
      repo: this.repo,
      issue_number: number,
      body,
      request: NOT_RESENT,
    });
    return data.id;
  }

  async removeLabel(number: number, name: string): Promise<void> {
    this.count("issues/remove-label");
    try {
      await this.octokit.rest.issues.removeLabel({
        owner: this.owner,
        repo: this.repo,
        issue_number: number,
        name,
      });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  // ---- handoff entries (issues) -----------------------------------------------------------------

  /** An issue as a handoff entry reads it; null when it does not exist or is a pull request. */
  async entryIssue(number: number): Promise<EntryIssueFact | null> {
    this.count("issues/get");
    try {
      const { data } = await this.octokit.rest.issues.get({
        owner: this.owner,
        repo: this.repo,
        issue_number: number,
      });
      if (data.pull_request) return null;
      return {
        number: data.number,
        body: data.body ?? "",
        state: data.state === "closed" ? "closed" : "open",
        author: data.user?.login ?? "ghost",
        labels: data.labels.map((label) =>
          typeof label === "string" ? label : (label.name ?? ""),
        ),
        looks: data.labels.flatMap((label) =>
          typeof label === "string" || !label.name || !label.color
            ? []
            : [labelFact({ ...label, name: label.name, color: label.color })],
        ),
        created_at: data.created_at,
      };
    } catch (error) {
      if (statusOf(error) === 404 || statusOf(error) === 410) return null;
      throw error;
    }
  }

  /** Every comment on an issue, oldest first. */
  async issueComments(number: number): Promise<IssueCommentFact[]> {
    this.count("issues/list-comments");
    const comments = await this.octokit.paginate(this.octokit.rest.issues.listComments, {
      owner: this.owner,
      repo: this.repo,
      issue_number: number,
      per_page: 100,
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

  /**
   * Issues (open or closed) opened by `creator`, with their authors: GitHub's filter spares the
   * listing, the caller still checks the author (a filter is no proof). "disabled": the
   * repository has issues turned off (410).
   */
  async issuesBy(creator: string): Promise<IssueByApp[] | "disabled"> {
    this.count("issues/list-for-repo");
    let issues: Awaited<ReturnType<typeof this.octokit.rest.issues.listForRepo>>["data"];
    try {
      issues = await this.octokit.paginate(this.octokit.rest.issues.listForRepo, {
        owner: this.owner,
        repo: this.repo,
        creator,
        state: "all",
        per_page: 100,
      });
    } catch (error) {
      if (statusOf(error) === 410) return "disabled";
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

  /** Opens an issue; its number. Never sent twice by the client (NOT_RESENT). */
  async createIssue(title: string, body: string): Promise<number> {
    this.count("issues/create");
    const { data } = await this.octokit.rest.issues.create({
      owner: this.owner,
      repo: this.repo,
      title,
      body,
      request: NOT_RESENT,
    });
    return data.number;
  }

  async setIssueBody(number: number, body: string): Promise<void> {
    this.count("issues/update");
    await this.octokit.rest.issues.update({
      owner: this.owner,
      repo: this.repo,
      issue_number: number,
      body,
    });
  }

  /** The active rules on a branch (rulesets, the repository's and its organisation's). */
  async branchRules(branch: string): Promise<BranchRule[]> {
    this.count("repos/get-branch-rules");
    return this.octokit.paginate(this.octokit.rest.repos.getBranchRules, {
      owner: this.owner,
      repo: this.repo,
      branch,
      per_page: 100,
    });
  }

  /** A branch with its classic protection's required status checks, as the token may see it. */
  async branchProtection(branch: string): Promise<BranchProtectionView> {
    this.count("repos/get-branch");
    const { data } = await this.octokit.rest.repos.getBranch({
      owner: this.owner,
      repo: this.repo,
      branch,
    });
    return data;
  }

  /** Opens or closes an issue (closed as completed or not planned). */
  async setIssueState(
    number: number,
    state: "open" | "closed",
    reason?: "completed" | "not_planned",
  ): Promise<void> {
    this.count("issues/update");
    await this.octokit.rest.issues.update({
      owner: this.owner,
      repo: this.repo,
      issue_number: number,
      state,
      ...(state === "closed" && reason ? { state_reason: reason } : {}),
    });
  }

  /** The repository's default branch, by name. */
  async defaultBranchName(): Promise<string> {
    this.count("repos/get");
    const { data } = await this.octokit.rest.repos.get({ owner: this.owner, repo: this.repo });
    return data.default_branch;
  }

  /** A file on the default branch (no SHA: an issue has no base); null when there is none. */
  async defaultBranchFile(path: string): Promise<{ text: string; blobSha: string } | null> {
    return this.#file(path);
  }

  /** Whether a pull request is open; false when it is closed or does not exist. */
  async isPullRequestOpen(number: number): Promise<boolean> {
    this.count("pulls/get");
    try {
      const { data } = await this.octokit.rest.pulls.get({
        owner: this.owner,
        repo: this.repo,
        pull_number: number,
      });
      return data.state === "open";
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /**
   * A file of another repository of the installation's account at an exact commit: the
   * organisation defaults a config extends, in the owner's `.github` repository. 404 and 403 are
   * answers (the file is not there, or the installation cannot see that repository), returned
   * for the caller to explain, and so is a file too large for the contents API (413); a rate
   * limit, or anything else, throws, so the job is retried.
   */
  async fileOfRepository(
    owner: string,
    repo: string,
    path: string,
    sha: string,
  ): Promise<{ ok: true; text: string } | { ok: false; status: number; message: string }> {
    this.count("repos/get-content");
    try {
      const { data } = await this.octokit.rest.repos.getContent({ owner, repo, path, ref: sha });
      if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
        return { ok: false, status: 404, message: `${path} is not a file` };
      }
      // Over 1 MB the contents API sends no content: never an empty file.
      if (tooLargeForContents(data)) {
        return {
          ok: false,
          status: 413,
          message: `${data.size} bytes, over the 1 MB GitHub's contents API serves`,
        };
      }
      return { ok: true, text: Buffer.from(data.content, "base64").toString("utf8") };
    } catch (error) {
      const answer = refusalOf(error);
      if (answer) return answer;
      throw error;
    }
  }

  /**
   * Where a commit of another repository of the installation's account stands against that
   * repository's default branch: GitHub's compare of `<the branch's commit>...<sha>`, its status null
   * when GitHub finds no shared history (404 on the compare). 403 and 404 on the repository are
   * answers, as in fileOfRepository; a rate limit, or anything else, throws.
   */
  async defaultBranchComparison(
    owner: string,
    repo: string,
    sha: string,
  ): Promise<
    { ok: true; compared: PinnedCommitComparison } | { ok: false; status: number; message: string }
  > {
    let defaultBranch: string;
    this.count("repos/get");
    try {
      ({
        data: { default_branch: defaultBranch },
      } = await this.octokit.rest.repos.get({ owner, repo }));
    } catch (error) {
      const answer = refusalOf(error);
      if (answer) return answer;
      throw error;
    }
    // The branch's commit, not its name: a tag of the same name (anyone who can push to the
    // repository can make one) could stand in for the branch in the compare.
    let branchSha: string;
    this.count("repos/get-branch");
    try {
      ({
        data: {
          commit: { sha: branchSha },
        },
      } = await this.octokit.rest.repos.getBranch({ owner, repo, branch: defaultBranch }));
    } catch (error) {
      const answer = refusalOf(error);
      if (answer) return answer;
      throw error;
    }
    this.count("repos/compare-commits");
    try {
      // One commit per page: only the status is read, and a fork's commit may be far ahead.
      const { data } = await this.octokit.rest.repos.compareCommitsWithBasehead({
        owner,
        repo,
        basehead: `${branchSha}...${sha}`,
        per_page: 1,
      });
      return { ok: true, compared: { defaultBranch, status: data.status } };
    } catch (error) {
      if (statusOf(error) === 404 && !isRateLimited(error)) {
        return { ok: true, compared: { defaultBranch, status: null } };
      }
      throw error;
    }
  }
}

/**
 * A 403 or 404 that is GitHub's answer about access, for the caller to explain; null for a rate
 * limit (403 with retry-after or no requests left, or 429) and anything else, which is thrown.
 */
function refusalOf(error: unknown): { ok: false; status: number; message: string } | null {
  const status = statusOf(error);
  if ((status !== 404 && status !== 403) || isRateLimited(error)) return null;
  return { ok: false, status, message: (error as Error).message };
}

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

/** The fields of a listed workflow run agate reads (the list's item type is not exported). */
interface WorkflowRunRow {
  id: number;
  run_attempt?: number;
  head_sha: string;
  path: string;
  event: string;
  status: string | null;
  conclusion: string | null;
  html_url?: string;
  head_repository?: { full_name: string } | null;
  pull_requests?:
    | { number: number; base: { ref: string; sha: string; repo: { url: string } } }[]
    | null;
}

interface ArtifactRow {
  id: number;
  name: string;
  size_in_bytes: number;
  expired: boolean;
}

/** The App-level calls (authenticated as the App, not an installation). */
export class AppAdapter {
  constructor(private readonly octokit: GitHubClient) {}

  async slug(): Promise<string> {
    const { data } = await this.octokit.rest.apps.getAuthenticated();
    if (!data?.slug) throw new Error("GitHub did not say this App's slug; is APP_ID right?");
    return data.slug;
  }

  /** The installation on a repository; null when the App is no longer installed there. */
  async installationOf(fullName: string): Promise<number | null> {
    const [owner, repo] = fullName.split("/");
    if (!owner || !repo) return null;
    try {
      const { data } = await this.octokit.rest.apps.getRepoInstallation({ owner, repo });
      return data.id;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }
}

/** A check run as GitHub returns it from a listing, a create or an update. */
function agateCheckRunOf(run: {
  id: number;
  status: string;
  conclusion: string | null;
  started_at: string | null;
  external_id: string | null;
  output: { title: string | null; summary: string | null };
}): AgateCheckRun {
  return {
    id: run.id,
    status: run.status,
    conclusion: run.conclusion ?? null,
    title: run.output.title ?? null,
    summary: run.output.summary ?? null,
    startedAt: run.started_at ?? null,
    externalId: run.external_id ?? null,
  };
}
