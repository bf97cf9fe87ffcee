// In-memory metadata of the simulated GitHub (everything that is not git data). Plain records;
// the handlers and seeding helpers are the only writers.
import type { GitRepository } from "./git.js";

export type AccountType = "User" | "Bot" | "Organization";
export type PermissionLevel = "admin" | "maintain" | "write" | "triage" | "read" | "none";
export type TokenPermission = "read" | "write" | "admin";

export interface Account {
  id: number;
  login: string;
  type: AccountType;
  name: string;
  email: string;
}

export interface AppIdentity {
  id: number;
  slug: string;
  name: string;
  owner: Account;
  /** The `<slug>[bot]` account that acts when the app writes. */
  bot: Account;
  permissions: Record<string, TokenPermission>;
  events: string[];
}

export interface Installation {
  id: number;
  appId: number;
  account: Account;
  permissions: Record<string, TokenPermission>;
  events: string[];
  createdAt: string;
}

export interface Token {
  token: string;
  /** The installation it was minted for, or undefined for a token made by `createToken`. */
  installationId: number | undefined;
  /** The app whose identity writes with this token (check runs carry it as `app`). */
  app: AppIdentity;
  /** The account that acts, as `sender` in webhooks and `user` on comments. */
  actor: Account;
  permissions: Record<string, TokenPermission>;
  expiresAt: Date;
}

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

export interface Comment {
  id: number;
  body: string;
  user: Account;
  createdAt: string;
  updatedAt: string;
  /** Set when an app wrote it with an installation token. */
  app: AppIdentity | undefined;
}

export interface Review {
  id: number;
  user: Account;
  body: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
  commitId: string;
  submittedAt: string;
}

export interface PullInfo {
  headRef: string;
  /** The repository the head branch lives in: this one, or a fork of it. */
  headRepo: Repository;
  baseRef: string;
  draft: boolean;
  merged: boolean;
  mergedAt: string | null;
  maintainerCanModify: boolean;
  reviews: Review[];
  merge: MergeState;
}

/**
 * GitHub's test merge commit of the base branch's tip and the head (`refs/pull/N/merge`, the
 * pull request's `merge_commit_sha`, what a `pull_request` workflow checks out).
 */
export interface MergeState {
  /** The merge commit, or null before the first computation and while the pair conflicts. */
  sha: string | null;
  /** false when base and head conflict; null until computed. */
  mergeable: boolean | null;
  /** The base and head SHAs `sha` was computed for. */
  base: string | null;
  head: string | null;
  /** A push or retarget made it stale: payloads show `mergeable: null` until recomputed. */
  pending: boolean;
  /** Every merge commit computed so far, oldest first (a late CI run tests an older one). */
  history: { base: string; head: string; sha: string }[];
}

export interface Issue {
  id: number;
  /** The pull request's id, distinct from the issue id as on GitHub. */
  pullId: number | undefined;
  number: number;
  title: string;
  body: string | null;
  user: Account;
  state: "open" | "closed";
  stateReason: "completed" | "reopened" | "not_planned" | null;
  labels: string[];
  comments: Comment[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  pull: PullInfo | undefined;
}

export interface CheckOutput {
  title: string | null;
  summary: string | null;
  text: string | null;
  annotationsCount: number;
}

export type CheckStatus =
  | "queued"
  | "in_progress"
  | "completed"
  | "waiting"
  | "requested"
  | "pending";
export type CheckConclusion =
  | "success"
  | "failure"
  | "neutral"
  | "cancelled"
  | "skipped"
  | "timed_out"
  | "action_required"
  | "stale";

export interface CheckSuite {
  id: number;
  headSha: string;
  headBranch: string | null;
  app: AppIdentity;
  createdAt: string;
  updatedAt: string;
}

export interface CheckRun {
  id: number;
  suiteId: number;
  headSha: string;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  startedAt: string;
  completedAt: string | null;
  externalId: string | null;
  detailsUrl: string | null;
  output: CheckOutput;
  app: AppIdentity;
}

export interface WorkflowStep {
  name: string;
  number: number;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  startedAt: string | null;
  completedAt: string | null;
}

/** No `waiting`: nothing here has environments that hold a job for approval. */
export type JobStatus = "queued" | "in_progress" | "completed";

/** One execution of a job: a re-run makes a new one (new id) in the new attempt. */
export interface WorkflowJob {
  id: number;
  runId: number;
  /** The attempt this execution belongs to. */
  runAttempt: number;
  name: string;
  status: JobStatus;
  conclusion: string | null;
  createdAt: string;
  startedAt: string;
  completedAt: string | null;
  steps: WorkflowStep[];
  log: string;
  /** `workflow_job_run_backend_id`: the job's half of the runtime token's `Actions.Results` scope. */
  backendId: string;
  /** Set when a runner picked the job up. */
  runner: { id: number; name: string } | null;
  labels: string[];
}

/** One attempt of a run; a re-run adds one. */
export interface RunAttempt {
  number: number;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  createdAt: string;
  updatedAt: string;
  runStartedAt: string;
  triggeringActor: Account;
  /** `workflow_run_backend_id`: the run's half of the runtime token's `Actions.Results` scope. */
  backendId: string;
}

export interface WorkflowRun {
  id: number;
  workflowId: number;
  name: string;
  path: string;
  /** What GitHub shows as head: the pull request's head commit, not the test merge commit. */
  headSha: string;
  headBranch: string | null;
  /** The repository the head commit came from (a fork for a fork's pull request). */
  headRepo: Repository;
  /** GITHUB_SHA and GITHUB_REF: on `pull_request`, the test merge commit and refs/pull/N/merge. */
  sha: string;
  ref: string;
  event: string;
  displayTitle: string;
  checkSuiteId: number;
  runNumber: number;
  actor: Account;
  createdAt: string;
  /**
   * Oldest first, never empty. The run's own status, conclusion, `updated_at` and `run_attempt`
   * are the newest attempt's (`newestAttempt`), not copies of them.
   */
  attempts: RunAttempt[];
  /** Every execution of every job, all attempts, in creation order. */
  jobs: WorkflowJob[];
  /** The triggering event's payload (GITHUB_EVENT_PATH), reused by re-runs as on GitHub. */
  eventPayload: unknown;
  /**
   * The pull requests GitHub associated with the run when it was made, each with its base then
   * (pull-request-minimal): a later retarget does not change what the run lists for it.
   */
  pullRequests: { number: number; json: Record<string, unknown> }[];
}

/** A workflow artifact (upload-artifact v4 / @actions/artifact 2+), stored per run attempt. */
export interface Artifact {
  id: number;
  name: string;
  runId: number;
  attempt: number;
  jobId: number;
  runBackendId: string;
  jobBackendId: string;
  /** Created (name reserved, blob being written), finalized (listed), or deleted. */
  state: "pending" | "finalized" | "deleted";
  /** Staged blocks of the blob (Azure Put Block) until Put Block List commits them. */
  blocks: Map<string, Buffer>;
  /** The committed blob: the zip the REST download serves. */
  content: Buffer | undefined;
  contentType: string;
  /** As FinalizeArtifact reported them (the client's count and sha256). */
  size: number;
  digest: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  expired: boolean;
}

export interface Repository {
  id: number;
  owner: Account;
  name: string;
  defaultBranch: string;
  private: boolean;
  git: GitRepository;
  createdAt: string;
  /** Explicit collaborator permissions by login; the owner is always admin. */
  collaborators: Map<string, PermissionLevel>;
  labels: Map<string, Label>;
  /** Issues and pull requests share one number sequence, as on GitHub. */
  issues: Map<number, Issue>;
  nextNumber: number;
  checkSuites: Map<number, CheckSuite>;
  checkRuns: Map<number, CheckRun>;
  workflowRuns: Map<number, WorkflowRun>;
  nextRunNumber: number;
  artifacts: Map<number, Artifact>;
  /** The repository this one is a fork of. */
  parent: Repository | undefined;
  forkCount: number;
  /** Active rulesets and their rules (only the kinds agate reads). */
  rulesets: Ruleset[];
  /** Classic branch protection's required status checks, by branch. */
  protections: Map<string, RequiredStatusCheck[]>;
}

/** A required status check as rules and branch protection state it. */
export interface RequiredStatusCheck {
  context: string;
  /** The App it must come from; absent: any source. */
  integration_id?: number;
}

/** An active branch ruleset: the branches it targets, and its rules that agate reads. */
export interface Ruleset {
  id: number;
  /** Branch names, or "~DEFAULT_BRANCH", as a ruleset's conditions name them. */
  branches: string[];
  requiredChecks?: RequiredStatusCheck[];
  mergeQueue?: boolean;
}

export interface Team {
  id: number;
  org: string;
  slug: string;
  name: string;
  members: Map<string, "member" | "maintainer">;
}

/** Monotonic ids shared by every kind of object, so an id never names two things. */
export class IdSource {
  private next = 1000;
  take(): number {
    return this.next++;
  }
}

/** A run's newest attempt: its status, conclusion and number are the run's. */
export function newestAttempt(run: WorkflowRun): RunAttempt {
  const attempt = run.attempts.at(-1);
  if (!attempt) throw new Error(`workflow run ${run.id} has no attempt`);
  return attempt;
}

export function fullName(repo: Repository): string {
  return `${repo.owner.login}/${repo.name}`;
}

export function repoKey(owner: string, name: string): string {
  // GitHub owner and repository names are case-insensitive.
  return `${owner.toLowerCase()}/${name.toLowerCase()}`;
}

/**
 * Where the simulator's timestamps come from. Tests of timers (handoff entries) give it the same
 * frozen clock as the App, so GitHub's created_at and the App's "now" agree; `sim.setClock()`
 * sets it and `reset()` puts the real one back. One per process: every simulator shares it.
 */
let clock: () => number = () => Date.now();

export function setSimulatorClock(now?: () => Date): void {
  clock = now ? () => now().getTime() : () => Date.now();
}

export function nowIso(): string {
  return new Date(Math.floor(clock() / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
