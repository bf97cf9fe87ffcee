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
  baseRef: string;
  draft: boolean;
  merged: boolean;
  mergedAt: string | null;
  reviews: Review[];
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

export interface WorkflowJob {
  id: number;
  runId: number;
  name: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  startedAt: string;
  completedAt: string | null;
  steps: WorkflowStep[];
  log: string;
}

export interface WorkflowRun {
  id: number;
  workflowId: number;
  name: string;
  path: string;
  headSha: string;
  headBranch: string | null;
  event: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  checkSuiteId: number;
  runNumber: number;
  runAttempt: number;
  actor: Account;
  createdAt: string;
  updatedAt: string;
  jobs: WorkflowJob[];
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

export function fullName(repo: Repository): string {
  return `${repo.owner.login}/${repo.name}`;
}

export function repoKey(owner: string, name: string): string {
  // GitHub owner and repository names are case-insensitive.
  return `${owner.toLowerCase()}/${name.toLowerCase()}`;
}

export function nowIso(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
