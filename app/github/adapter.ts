/**
 * The App's one door to GitHub: every call the App makes for one repository goes through a
 * GitHubAdapter (the architecture test holds app/ to it), counted per operation so a job can say
 * what it cost. The calls themselves live by GitHub area in github/, shared with the CLI; this
 * facade keeps the names the gate, entries and dashboard call, over Probot's client.
 */
import type { ProbotOctokit } from "probot";
import type { PinnedCommitComparison } from "../../checks/config/extends.js";
import type { CheckRunWrite } from "../../checks/gate/plan.js";
import type { BranchProtectionView, BranchRule } from "../../checks/setup/required-check.js";
import * as actions from "../../github/actions.js";
import * as apps from "../../github/apps.js";
import { GitHubCalls, type Repo, repoOf } from "../../github/call.js";
import * as checks from "../../github/checks.js";
import * as contents from "../../github/contents.js";
import * as issues from "../../github/issues.js";
import * as labels from "../../github/labels.js";
import * as pulls from "../../github/pulls.js";
import * as repos from "../../github/repos.js";
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
import type { AgateCheckRun } from "../../schemas/store.js";
import { TRACE_REPORT_ARTIFACT_PREFIX } from "../../schemas/trace.js";

export { RERUN_EVALUATOR, RERUN_GATE } from "../../github/checks.js";
export type {
  EntryIssueFact,
  IssueByApp,
  IssueCommentFact,
} from "../../github/issues.js";
export type { LabelFact } from "../../github/labels.js";
export type { OpenPull, ReviewFact } from "../../github/pulls.js";
export type { CommitFiles, Comparison } from "../../github/repos.js";
export type { PullRequestDetail } from "../../schemas/gate.js";
export type { AgateCheckRun } from "../../schemas/store.js";

export type GitHubClient = InstanceType<typeof ProbotOctokit>;

type FileText = contents.FileText;

/**
 * Every GitHub call the App makes for one repository, in one place: the rules read facts through
 * it, nothing else talks to GitHub, and `calls` counts what one event cost.
 */
export class GitHubAdapter {
  readonly owner: string;
  readonly repo: string;
  readonly #counted = new GitHubCalls();
  /** Calls per operation ("pulls/get"), for the job's log line and the benchmark. */
  readonly calls = this.#counted.byOperation;
  readonly #r: Repo;

  constructor(
    octokit: GitHubClient,
    fullName: string,
    /** The App's own slug: only its check runs named `agate` are the gate. */
    private readonly appSlug: string,
  ) {
    const [owner, repo] = fullName.split("/");
    if (!owner || !repo) throw new Error(`not a repository full name: ${fullName}`);
    this.owner = owner;
    this.repo = repo;
    this.#r = repoOf(octokit, owner, repo, this.#counted);
  }

  /** The App's bot account, the author of what it writes. */
  get appLogin(): string {
    return `${this.appSlug}[bot]`;
  }

  get totalCalls(): number {
    return this.#counted.total;
  }

  // ---- pull requests ----------------------------------------------------------------------------

  /** Kept from the last `pullRequest` read, so the detail costs no second call. */
  private readonly details = new Map<number, PullRequestDetail>();

  async pullRequest(number: number): Promise<PullRequestSnapshot> {
    return (await this.pullRequestView(number)).snapshot;
  }

  /** The pull request as GitHub shows it now: one read. */
  async pullRequestView(number: number): Promise<PullRequestView> {
    const view = await pulls.pullRequestView(this.#r, number);
    this.details.set(view.snapshot.number, view.detail);
    return view;
  }

  async pullRequestDetail(number: number): Promise<PullRequestDetail> {
    const known = this.details.get(number);
    if (known) return known;
    await this.pullRequest(number);
    const detail = this.details.get(number);
    if (!detail) throw new Error(`pull request #${number} was read but has no detail`);
    return detail;
  }

  /** Whether a pull request is open; false when it is closed or does not exist. */
  isPullRequestOpen(number: number): Promise<boolean> {
    return pulls.isPullRequestOpen(this.#r, number);
  }

  changedFiles(number: number): Promise<ChangedFile[]> {
    return pulls.changedFiles(this.#r, number);
  }

  reviews(number: number): Promise<pulls.ReviewFact[]> {
    return pulls.reviews(this.#r, number);
  }

  /** Every open pull request with its head, author and title (the dashboard lists them). */
  openPullRequests(): Promise<pulls.OpenPull[]> {
    return pulls.openPullRequests(this.#r);
  }

  // ---- commits, branches, people ----------------------------------------------------------------

  /** The files one commit touched against its first parent. */
  commitFiles(sha: string): Promise<repos.CommitFiles> {
    return repos.commitFiles(this.#r, sha);
  }

  /** base...head at exact SHAs, in one call (github/repos.ts); nothing in it can change. */
  compare(base: string, head: string): Promise<repos.Comparison> {
    return repos.compare(this.#r, base, head);
  }

  treeOf(commitSha: string): Promise<string> {
    return repos.treeOf(this.#r, commitSha);
  }

  /** A commit as GitHub has it; null when GitHub has no such commit. */
  commit(sha: string): Promise<TestedCommitFact | null> {
    return repos.commit(this.#r, sha);
  }

  permission(login: string): Promise<string> {
    return repos.permission(this.#r, login);
  }

  isTeamMember(org: string, team: string, login: string): Promise<boolean> {
    return repos.isTeamMember(this.#r, org, team, login);
  }

  /** The active rules on a branch (rulesets, the repository's and its organisation's). */
  branchRules(branch: string): Promise<BranchRule[]> {
    return repos.branchRules(this.#r, branch);
  }

  /** A branch with its classic protection's required status checks, as the token may see it. */
  branchProtection(branch: string): Promise<BranchProtectionView> {
    return repos.branchProtection(this.#r, branch);
  }

  /** The repository's default branch, by name. */
  async defaultBranchName(): Promise<string> {
    return (await repos.repository(this.#r)).default_branch;
  }

  // ---- files ------------------------------------------------------------------------------------

  /** A file at an exact commit; null when it does not exist there. */
  fileAt(path: string, ref: string): Promise<FileText | null> {
    return contents.file(this.#r, path, ref);
  }

  /** A file on the default branch (no SHA: an issue has no base); null when there is none. */
  defaultBranchFile(path: string): Promise<FileText | null> {
    return contents.file(this.#r, path);
  }

  /**
   * A file of another repository of the installation's account at an exact commit (the
   * organisation defaults a config extends): 403 and 404 are answers for the caller to explain,
   * and so is a path that is no file (404) or a file too large for the contents API (413); a rate
   * limit, or anything else, throws, so the job is retried.
   */
  async fileOfRepository(
    owner: string,
    repo: string,
    path: string,
    sha: string,
  ): Promise<{ ok: true; text: string } | Refusal> {
    const read = await contents.fileOfRepository(this.#r, { owner, repo }, path, sha);
    return read.ok ? read : refusalOrThrow(read, path);
  }

  /**
   * Where a commit of another repository stands against its default branch (github/contents.ts):
   * 403 and 404 on the repository are answers, as in fileOfRepository; anything else throws.
   */
  async defaultBranchComparison(
    owner: string,
    repo: string,
    sha: string,
  ): Promise<{ ok: true; compared: PinnedCommitComparison } | Refusal> {
    const compared = await contents.defaultBranchComparison(this.#r, { owner, repo }, sha);
    if (compared.ok) return compared;
    // Past the repository's reads, no answer is one about access.
    if (compared.inCompare) throw compared.error;
    return refusalOrThrow(compared, "");
  }

  // ---- the agate check run ----------------------------------------------------------------------

  writeAgateCheckRun(
    sha: string,
    existing: AgateCheckRun | null,
    write: CheckRunWrite,
  ): Promise<AgateCheckRun> {
    return checks.writeAgateCheckRun(this.#r, sha, existing, write);
  }

  /** The App's own newest `agate` check run on a commit; same-named runs of others are ignored. */
  agateCheckRun(sha: string): Promise<AgateCheckRun | null> {
    return checks.agateCheckRun(this.#r, this.appSlug, sha);
  }

  // ---- workflow runs and their artifacts --------------------------------------------------------

  /** Runs for a head on one event, newest first (GitHub's own data on where evidence came from). */
  workflowRunsFor(headSha: string, event: string): Promise<EvidenceRun[]> {
    return actions.workflowRunsFor(this.#r, headSha, event);
  }

  /** The jobs of a run's newest attempt (a job not re-run keeps its earlier attempt). */
  latestJobs(runId: number): Promise<EvidenceJob[]> {
    return actions.latestJobs(this.#r, runId);
  }

  /** A run's artifacts, listed once per adapter (one pass): records and trace reports share it. */
  private readonly runArtifactLists = new Map<number, Promise<RecordArtifact[]>>();

  private runArtifacts(runId: number): Promise<RecordArtifact[]> {
    const known = this.runArtifactLists.get(runId);
    if (known) return known;
    const listed = actions.runArtifacts(this.#r, runId);
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

  /** An artifact's zip, at most `maxBytes`; the storage host never sees the installation token. */
  artifactZip(artifactId: number, maxBytes: number): Promise<Uint8Array> {
    return actions.artifactZip(this.#r, artifactId, maxBytes);
  }

  // ---- labels -----------------------------------------------------------------------------------

  /** Adds labels; the labels as GitHub now has them (a created one with its default look). */
  addLabels(number: number, names: string[]): Promise<labels.LabelFact[]> {
    return labels.addLabels(this.#r, number, names);
  }

  removeLabel(number: number, name: string): Promise<void> {
    return labels.removeLabel(this.#r, number, name);
  }

  /** Every label of the repository, with its look. */
  repositoryLabels(): Promise<labels.LabelFact[]> {
    return labels.repositoryLabels(this.#r);
  }

  /** Creates a label; false when one of that name exists already (someone was first). */
  createLabel(name: string, color: string, description: string): Promise<boolean> {
    return labels.createLabel(this.#r, name, color, description);
  }

  styleLabel(name: string, color: string, description: string, newName?: string): Promise<void> {
    return labels.styleLabel(this.#r, name, color, description, newName);
  }

  // ---- issues and comments (handoff entries, the dashboard) -------------------------------------

  /** An issue's text; null when it does not exist or is a pull request. */
  issue(number: number): Promise<{ number: number; title: string; body: string } | null> {
    return issues.issue(this.#r, number);
  }

  /** An issue as a handoff entry reads it; null when it does not exist or is a pull request. */
  entryIssue(number: number): Promise<issues.EntryIssueFact | null> {
    return issues.entryIssue(this.#r, number);
  }

  /** Every comment on an issue, oldest first. */
  issueComments(number: number): Promise<issues.IssueCommentFact[]> {
    return issues.issueComments(this.#r, number);
  }

  /** Issues opened by `creator` (the caller still checks the author); "disabled": issues are off. */
  issuesBy(creator: string): Promise<issues.IssueByApp[] | "disabled"> {
    return issues.issuesBy(this.#r, creator);
  }

  /** Posts a comment; GitHub's id for it. Never sent twice by the client (NOT_RESENT). */
  comment(number: number, body: string): Promise<number> {
    return issues.comment(this.#r, number, body);
  }

  /** Opens an issue; its number. Never sent twice by the client (NOT_RESENT). */
  createIssue(title: string, body: string): Promise<number> {
    return issues.createIssue(this.#r, title, body);
  }

  setIssueBody(number: number, body: string): Promise<void> {
    return issues.updateIssue(this.#r, number, { body });
  }

  /** Opens or closes an issue (closed as completed or not planned). */
  setIssueState(
    number: number,
    state: "open" | "closed",
    reason?: "completed" | "not_planned",
  ): Promise<void> {
    return issues.updateIssue(this.#r, number, {
      state,
      ...(state === "closed" && reason ? { state_reason: reason } : {}),
    });
  }
}

/** GitHub's answer about access, for the caller to explain. */
export interface Refusal {
  ok: false;
  status: number;
  message: string;
}

/**
 * The App's side of a failed read of another repository: 403 and 404 are answers about access,
 * returned; a rate limit, no answer or anything else is thrown as it came, so the job is retried.
 */
function refusalOrThrow(failure: contents.Failure, path: string): Refusal {
  switch (failure.status) {
    case 403:
    case 404:
      return { ok: false, status: failure.status, message: failure.message };
    case "not-a-file":
      return { ok: false, status: 404, message: `${path} is not a file` };
    case "too-large":
      return { ok: false, status: 413, message: failure.message };
    default:
      throw failure.error;
  }
}

/** The App-level calls (authenticated as the App, not an installation). */
export class AppAdapter {
  constructor(private readonly octokit: GitHubClient) {}

  slug(): Promise<string> {
    return apps.appSlug(this.octokit);
  }

  /** The installation on a repository; null when the App is no longer installed there. */
  installationOf(fullName: string): Promise<number | null> {
    return apps.installationOf(this.octokit, fullName);
  }
}
