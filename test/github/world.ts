// The simulated GitHub's state and the state changes that GitHub reacts to with webhooks. Both the
// REST handlers and the seeding helpers change state only through here, so a change made by the
// App through the API fires the same webhook as the same change made by a test.

import { AGATE_APP_EVENTS, AGATE_APP_PERMISSIONS } from "../../checks/setup/app-requirements.js";
import { ArtifactService } from "./artifacts.js";
import { newTokenValue } from "./auth.js";
import { NotFound, Unprocessable } from "./errors.js";
import { type FileChanges, GitRepository } from "./git.js";
import * as s from "./serialize.js";
import type {
  Account,
  AccountType,
  AppIdentity,
  CheckConclusion,
  CheckOutput,
  CheckRun,
  CheckStatus,
  CheckSuite,
  Comment,
  Installation,
  Issue,
  Label,
  PermissionLevel,
  Repository,
  Review,
  RunAttempt,
  Team,
  Token,
  TokenPermission,
  WorkflowRun,
  WorkflowStep,
} from "./state.js";
import { IdSource, nowIso, repoKey } from "./state.js";
import type { Delivery, WebhookSender } from "./webhooks.js";
import { Workflows } from "./workflows.js";

type Json = Record<string, unknown>;

/**
 * What the default installation may do: what agate asks for (the doctor's list of app.yml's
 * permissions), no more; app-manifest.test.ts holds it to app.yml itself.
 */
export const DEFAULT_INSTALLATION_PERMISSIONS: Record<string, TokenPermission> = {
  ...AGATE_APP_PERMISSIONS,
};

/** The events agate's app.yml subscribes to (app-manifest.test.ts holds the two together). */
export const APP_EVENTS = [...AGATE_APP_EVENTS];

/** GitHub Actions' own app, which owns check runs written with a workflow's GITHUB_TOKEN. */
const ACTIONS_APP_ID = 15368;

export { NotFound, Unprocessable };

export interface Author {
  name: string;
  email: string;
  /** Commit time in seconds; defaults to now. */
  time?: number;
}

/** A workflow run seeded without webhooks, in the state given (World.addWorkflowRun). */
export interface SeededRun {
  headSha: string;
  path: string;
  name?: string;
  event?: string;
  conclusion?: string | null;
  status?: RunAttempt["status"];
  checkSuiteId?: number;
  actor?: string;
  jobs?: {
    name: string;
    conclusion?: string | null;
    steps?: Partial<WorkflowStep>[];
    log?: string;
  }[];
}

export class World {
  readonly ids = new IdSource();
  readonly accounts = new Map<string, Account>();
  readonly repos = new Map<string, Repository>();
  readonly installations = new Map<number, Installation>();
  readonly tokens = new Map<string, Token>();
  readonly teams = new Map<string, Team>();
  readonly app: AppIdentity;
  readonly actionsApp: AppIdentity;
  readonly workflows: Workflows = new Workflows(this);
  readonly artifacts: ArtifactService;
  /** One-time manifest codes and the App each converts to (registerFromManifest). */
  readonly manifestConversions = new Map<string, Json>();
  private readonly pushedAt = new Map<Repository, string>();

  constructor(
    readonly urls: s.Urls,
    private readonly webhooks: WebhookSender,
    readonly appId: number,
    appSlug: string,
  ) {
    this.artifacts = new ArtifactService(this, urls.html);
    const github = this.account("github", "Organization");
    const owner = this.account("agate-dev", "Organization");
    this.app = {
      id: appId,
      slug: appSlug,
      name: appSlug,
      owner,
      bot: this.account(`${appSlug}[bot]`, "Bot"),
      permissions: { ...DEFAULT_INSTALLATION_PERMISSIONS },
      events: APP_EVENTS,
    };
    this.actionsApp = {
      id: ACTIONS_APP_ID,
      slug: "github-actions",
      name: "GitHub Actions",
      owner: github,
      bot: this.account("github-actions[bot]", "Bot"),
      permissions: { actions: "write", checks: "write", contents: "write", metadata: "read" },
      events: [],
    };
  }

  // ---- accounts, installations, tokens ------------------------------------------------------

  /**
   * The account of `login`, made on first use: of type Bot when its login is an App's
   * (`name[bot]`, as GitHub types every App's account), else a User unless `type` says otherwise
   * (a machine user of type Bot has no `[bot]` in its login).
   */
  account(login: string, type?: AccountType): Account {
    const existing = this.accounts.get(login.toLowerCase());
    if (existing) return existing;
    type ??= login.toLowerCase().endsWith("[bot]") ? "Bot" : "User";
    const id = this.ids.take();
    const created: Account = {
      id,
      login,
      type,
      name: login,
      // GitHub's bot address keeps the brackets (41898282+github-actions[bot]@...), which the
      // spec's own `format: email` rejects; the simulator drops them so commits validate.
      email:
        type === "Bot"
          ? `${id}+${login.replace(/\[bot\]$/, "-bot")}@users.noreply.github.com`
          : `${login}@example.com`,
    };
    this.accounts.set(login.toLowerCase(), created);
    return created;
  }

  accountByEmail(email: string): Account | undefined {
    for (const account of this.accounts.values()) {
      if (account.email.toLowerCase() === email.toLowerCase()) return account;
    }
    return undefined;
  }

  install(
    accountLogin: string,
    permissions = DEFAULT_INSTALLATION_PERMISSIONS,
    id?: number,
  ): Installation {
    const account = this.account(accountLogin, "Organization");
    for (const existing of this.installations.values()) {
      if (existing.account === account) return existing;
    }
    const installation: Installation = {
      id: id ?? this.ids.take(),
      appId: this.app.id,
      account,
      permissions: { ...permissions },
      events: APP_EVENTS,
      createdAt: nowIso(),
    };
    this.installations.set(installation.id, installation);
    return installation;
  }

  installationFor(repo: Repository): Installation | undefined {
    for (const installation of this.installations.values()) {
      if (installation.account === repo.owner) return installation;
    }
    return undefined;
  }

  mintInstallationToken(
    installation: Installation,
    requested?: Record<string, TokenPermission>,
  ): Token {
    const permissions = requested ?? installation.permissions;
    for (const [name, level] of Object.entries(permissions)) {
      if (!covers(installation.permissions[name], level)) {
        throw new Unprocessable(`The permissions requested are not granted to this installation.`, [
          { resource: "Installation", field: name, code: "invalid" },
        ]);
      }
    }
    const token: Token = {
      token: newTokenValue(),
      installationId: installation.id,
      app: this.app,
      actor: this.app.bot,
      permissions: { ...permissions },
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    };
    this.tokens.set(token.token, token);
    return token;
  }

  /** A token that is not the App's: by default a workflow's GITHUB_TOKEN (GitHub Actions). */
  mintPlainToken(input: {
    permissions?: Record<string, TokenPermission>;
    actor?: string;
    app?: "github-actions" | "agate";
  }): Token {
    const app = input.app === "agate" ? this.app : this.actionsApp;
    const token: Token = {
      token: newTokenValue(),
      installationId: undefined,
      app,
      actor: input.actor ? this.account(input.actor) : app.bot,
      permissions: input.permissions ?? {
        actions: "read",
        checks: "write",
        contents: "read",
        issues: "write",
        metadata: "read",
        pull_requests: "write",
        statuses: "write",
      },
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    };
    this.tokens.set(token.token, token);
    return token;
  }

  // ---- repositories and git -----------------------------------------------------------------

  repo(owner: string, name: string): Repository {
    const found = this.repos.get(repoKey(owner, name));
    if (!found) throw new NotFound(`${owner}/${name}`);
    return found;
  }

  createRepository(input: {
    owner: string;
    repo: string;
    defaultBranch?: string;
    private?: boolean;
    ownerType?: AccountType;
  }): Repository {
    if (this.repos.has(repoKey(input.owner, input.repo))) {
      throw new Unprocessable("name already exists on this account", [
        { resource: "Repository", code: "custom", field: "name" },
      ]);
    }
    const defaultBranch = input.defaultBranch ?? "main";
    return this.addRepository({
      owner: this.account(input.owner, input.ownerType ?? "Organization"),
      name: input.repo,
      defaultBranch,
      private: input.private ?? true,
      git: GitRepository.createBare(defaultBranch),
      parent: undefined,
    });
  }

  /** A new repository with nothing in it but its git data: no issues, checks, runs or labels. */
  private addRepository(
    input: Pick<Repository, "owner" | "name" | "defaultBranch" | "private" | "git" | "parent">,
  ): Repository {
    const repo: Repository = {
      ...input,
      id: this.ids.take(),
      createdAt: nowIso(),
      collaborators: new Map(),
      labels: new Map(),
      issues: new Map(),
      nextNumber: 1,
      checkSuites: new Map(),
      checkRuns: new Map(),
      workflowRuns: new Map(),
      nextRunNumber: 1,
      artifacts: new Map(),
      forkCount: 0,
      rulesets: [],
      protections: new Map(),
    };
    this.repos.set(repoKey(repo.owner.login, repo.name), repo);
    this.pushedAt.set(repo, repo.createdAt);
    return repo;
  }

  /**
   * Forks a repository to another account, as GitHub does: a new repository with the source's
   * branches and tags (not its pull request refs), `fork: true` and `parent` naming the source.
   */
  forkRepository(source: Repository, ownerLogin: string, name = source.name): Repository {
    if (this.repos.has(repoKey(ownerLogin, name))) {
      throw new Unprocessable("name already exists on this account", [
        { resource: "Repository", code: "custom", field: "name" },
      ]);
    }
    const fork = this.addRepository({
      owner: this.account(ownerLogin),
      name,
      defaultBranch: source.defaultBranch,
      private: source.private,
      git: GitRepository.forkOf(source.git),
      parent: source,
    });
    source.forkCount++;
    return fork;
  }

  /** The fork of `base` owned by `login` (or `base` itself when `login` owns it). */
  forkOf(base: Repository, login: string): Repository {
    if (base.owner.login.toLowerCase() === login.toLowerCase()) return base;
    for (const repo of this.repos.values()) {
      if (repo.parent === base && repo.owner.login.toLowerCase() === login.toLowerCase()) {
        return repo;
      }
    }
    throw new NotFound(`${login} has no fork of ${base.owner.login}/${base.name}`);
  }

  pushedAtOf(repo: Repository): string {
    return this.pushedAt.get(repo) ?? repo.createdAt;
  }

  branchSha(repo: Repository, branch: string): string | undefined {
    return repo.git.resolveCommit(`refs/heads/${branch}`);
  }

  /**
   * Commits file changes on top of a branch (creating it from `from`, default the default branch,
   * when missing) and moves the branch, as a push does. Open pull requests with that head branch
   * get `pull_request.synchronize`.
   */
  pushCommit(input: {
    repo: Repository;
    branch: string;
    files: FileChanges;
    message: string;
    author: Author;
    committer?: Author;
    /** Who pushed: the `sender` of `pull_request.synchronize`. */
    pusher: Account;
    trailers?: Record<string, string>;
    from?: string;
  }): { sha: string; deliveries: Promise<Delivery[]> } {
    const { repo } = input;
    const current = this.branchSha(repo, input.branch);
    const parent =
      current ??
      (input.from ? repo.git.resolveCommit(input.from) : this.branchSha(repo, repo.defaultBranch));
    const trailers = Object.entries(input.trailers ?? {})
      .map(([key, value]) => `${key}: ${value}`)
      .join("\n");
    const message = `${input.message.replace(/\n+$/, "")}\n${trailers ? `\n${trailers}\n` : ""}`;
    const sha = repo.git.commitFiles({
      parent,
      files: input.files,
      message,
      author: input.author,
      ...(input.committer ? { committer: input.committer } : {}),
    });
    return { sha, deliveries: this.moveBranch(repo, input.branch, sha, current, input.pusher) };
  }

  /**
   * Moves a branch like a push; `expected` guards against a concurrent move. Open pull requests
   * with that head (here, or in the repository this is a fork of) get `refs/pull/N/head` moved
   * and `pull_request.synchronize`; those whose head or base moved get a new test merge commit.
   */
  moveBranch(
    repo: Repository,
    branch: string,
    sha: string,
    expected: string | undefined,
    pusher: Account,
  ): Promise<Delivery[]> {
    repo.git.updateRef(`refs/heads/${branch}`, sha, expected ?? "");
    this.pushedAt.set(repo, nowIso());
    const sends: Promise<Delivery>[] = [];
    const stale: [Repository, Issue][] = [];
    for (const [base, item] of this.openPullsWithHead(repo, branch)) {
      if (item.pull) this.writePullHeadRef(base, item.pull, item.number);
      stale.push([base, item]);
      if (expected && item.pull) {
        item.updatedAt = nowIso();
        // GitHub recomputes the test merge in the background: the payload has the old one.
        item.pull.merge.pending = true;
        sends.push(
          this.emitAbout(base, item, pusher, {
            action: "synchronize",
            before: expected,
            after: sha,
          }),
        );
      }
    }
    for (const item of repo.issues.values()) {
      if (item.pull && item.state === "open" && item.pull.baseRef === branch) {
        stale.push([repo, item]);
      }
    }
    for (const [base, item] of stale) this.refreshMerge(base, item);
    return Promise.all(sends);
  }

  /** Open pull requests (in any repository) whose head is `branch` of `repo`. */
  private openPullsWithHead(repo: Repository, branch: string): [Repository, Issue][] {
    const found: [Repository, Issue][] = [];
    for (const base of this.repos.values()) {
      for (const item of base.issues.values()) {
        if (
          item.pull &&
          item.state === "open" &&
          item.pull.headRepo === repo &&
          item.pull.headRef === branch
        ) {
          found.push([base, item]);
        }
      }
    }
    return found;
  }

  /** The head commit of a pull request: its head branch, or `refs/pull/N/head` once that is gone. */
  pullHeadSha(repo: Repository, item: Issue): string | undefined {
    const pull = item.pull;
    if (!pull) return undefined;
    return (
      this.branchSha(pull.headRepo, pull.headRef) ??
      repo.git.readRef(`refs/pull/${item.number}/head`)
    );
  }

  /** `refs/pull/N/head` in the base repository, fetched from the fork for a fork's head. */
  private writePullHeadRef(
    repo: Repository,
    head: { headRepo: Repository; headRef: string },
    number: number,
  ): string {
    const ref = `refs/pull/${number}/head`;
    if (head.headRepo === repo) {
      const sha = this.branchSha(repo, head.headRef);
      if (!sha) throw new NotFound(`branch ${head.headRef}`);
      repo.git.updateRef(ref, sha);
      return sha;
    }
    return repo.git.fetchRef(head.headRepo.git, `refs/heads/${head.headRef}`, ref);
  }

  /**
   * Recomputes the test merge commit when the base tip or the head moved since the last time:
   * a merge of head into base (parents [base, head], "Merge <head> into <base>") written to
   * `refs/pull/N/merge`; on a conflict, no merge ref and `mergeable: false`.
   */
  refreshMerge(repo: Repository, item: Issue): void {
    const pull = item.pull;
    if (!pull) return;
    const head = this.pullHeadSha(repo, item);
    const base = this.branchSha(repo, pull.baseRef);
    const merge = pull.merge;
    if (!head || !base) {
      merge.pending = false;
      return;
    }
    if (merge.head === head && merge.base === base && merge.mergeable !== null) {
      merge.pending = false;
      return;
    }
    const ref = `refs/pull/${item.number}/merge`;
    const tree = repo.git.mergeTree(base, head);
    if (tree === undefined) {
      if (repo.git.readRef(ref)) repo.git.deleteRef(ref);
      Object.assign(merge, { sha: null, mergeable: false, base, head, pending: false });
      return;
    }
    const sha = repo.git.writeCommit({
      tree,
      parents: [base, head],
      message: `Merge ${head} into ${base}\n`,
      author: { name: item.user.login, email: item.user.email },
      committer: { name: "GitHub", email: "noreply@github.com" },
    });
    repo.git.updateRef(ref, sha);
    Object.assign(merge, { sha, mergeable: true, base, head, pending: false });
    merge.history.push({ base, head, sha });
  }

  // ---- issues, pull requests, labels, comments, reviews -------------------------------------

  issue(repo: Repository, number: number): Issue {
    const found = repo.issues.get(number);
    if (!found) throw new NotFound(`#${number}`);
    return found;
  }

  pull(repo: Repository, number: number): Issue & { pull: NonNullable<Issue["pull"]> } {
    const found = this.issue(repo, number);
    if (!found.pull) throw new NotFound(`#${number} is not a pull request`);
    return found as Issue & { pull: NonNullable<Issue["pull"]> };
  }

  private newIssue(
    repo: Repository,
    input: { title: string; body?: string | null; user: Account },
  ) {
    const now = nowIso();
    const created: Issue = {
      id: this.ids.take(),
      pullId: undefined,
      number: repo.nextNumber++,
      title: input.title,
      body: input.body ?? null,
      user: input.user,
      state: "open",
      stateReason: null,
      labels: [],
      comments: [],
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      pull: undefined,
    };
    repo.issues.set(created.number, created);
    return created;
  }

  createIssue(
    repo: Repository,
    input: { title: string; body?: string | null; user: Account; labels?: string[] },
  ): { issue: Issue; deliveries: Promise<Delivery[]> } {
    const created = this.newIssue(repo, input);
    const opened = this.emitAbout(repo, created, input.user, { action: "opened" });
    const labeled = this.addLabels(repo, created, input.labels ?? [], input.user);
    return { issue: created, deliveries: Promise.all([opened, labeled]).then((all) => all.flat()) };
  }

  openPullRequest(
    repo: Repository,
    input: {
      head: string;
      /** The repository the head branch is in (a fork); default `repo`. */
      headRepo?: Repository;
      base: string;
      title: string;
      body?: string | null;
      user: Account;
      draft?: boolean;
      labels?: string[];
      maintainerCanModify?: boolean;
    },
  ): { issue: Issue; deliveries: Promise<Delivery[]> } {
    const headRepo = input.headRepo ?? repo;
    const headSha = this.branchSha(headRepo, input.head);
    const baseSha = this.branchSha(repo, input.base);
    if (!headSha || !baseSha) {
      throw new Unprocessable("Validation Failed", [
        { resource: "PullRequest", field: headSha ? "base" : "head", code: "invalid" },
      ]);
    }
    this.refuseSecondOpenPull(repo, { headRepo, headRef: input.head }, input.base);
    // The head ref goes into the base repository first (a fork's commits are not here yet).
    const number = repo.nextNumber;
    this.writePullHeadRef(repo, { headRepo, headRef: input.head }, number);
    if (repo.git.commitsBetween(baseSha, headSha).length === 0) {
      repo.git.deleteRef(`refs/pull/${number}/head`);
      const label = headRepo === repo ? input.head : `${headRepo.owner.login}:${input.head}`;
      throw new Unprocessable("Validation Failed", [
        {
          resource: "PullRequest",
          code: "custom",
          message: `No commits between ${input.base} and ${label}`,
        },
      ]);
    }
    const created = this.newIssue(repo, input);
    created.pullId = this.ids.take();
    created.pull = {
      headRef: input.head,
      headRepo,
      baseRef: input.base,
      draft: input.draft ?? false,
      merged: false,
      mergedAt: null,
      maintainerCanModify: input.maintainerCanModify ?? false,
      reviews: [],
      merge: { sha: null, mergeable: null, base: null, head: null, pending: true, history: [] },
    };
    // GitHub applies labels given at creation before it sends `opened`, then sends `labeled`.
    const labels = input.labels ?? [];
    for (const name of labels) this.attachLabel(repo, created, name);
    const opened = this.emitAbout(repo, created, input.user, { action: "opened" });
    const labeled = labels.map((name) => this.emitLabeled(repo, created, name, input.user));
    // The test merge commit is computed after `opened` went out, as GitHub does it in the
    // background: the `opened` payload has `merge_commit_sha: null`, `mergeable: null`.
    this.refreshMerge(repo, created);
    return {
      issue: created,
      deliveries: Promise.all([opened, ...labeled]),
    };
  }

  /**
   * GitHub keeps one open pull request per head and base: opening, reopening or retargeting into
   * a second is 422 "A pull request already exists for owner:branch.".
   */
  private refuseSecondOpenPull(
    repo: Repository,
    head: { headRepo: Repository; headRef: string },
    base: string,
    except?: Issue,
  ): void {
    for (const item of repo.issues.values()) {
      const pull = item.pull;
      if (
        item !== except &&
        pull &&
        item.state === "open" &&
        pull.headRepo === head.headRepo &&
        pull.headRef === head.headRef &&
        pull.baseRef === base
      ) {
        throw new Unprocessable("Validation Failed", [
          {
            resource: "PullRequest",
            code: "custom",
            message: `A pull request already exists for ${head.headRepo.owner.login}:${head.headRef}.`,
          },
        ]);
      }
    }
  }

  ensureLabel(
    repo: Repository,
    input: { name: string; color?: string; description?: string | null },
  ): Label {
    const existing = repo.labels.get(input.name.toLowerCase());
    if (existing) return existing;
    const created: Label = {
      id: this.ids.take(),
      name: input.name,
      color: input.color ?? "ededed",
      description: input.description ?? null,
      default: false,
    };
    repo.labels.set(created.name.toLowerCase(), created);
    return created;
  }

  private attachLabel(repo: Repository, target: Issue, name: string): boolean {
    // Adding a label that does not exist creates it, as `issues/add-labels` does.
    const found = this.ensureLabel(repo, { name });
    if (target.labels.some((existing) => existing.toLowerCase() === found.name.toLowerCase())) {
      return false;
    }
    target.labels.push(found.name);
    target.updatedAt = nowIso();
    return true;
  }

  /** An issue's or pull request's own event (`issues` / `pull_request`), as it is now. */
  private emitAbout(
    repo: Repository,
    target: Issue,
    sender: Account,
    body: Json & { action: string },
  ): Promise<Delivery> {
    const { action, ...rest } = body;
    return target.pull
      ? this.emit(repo, "pull_request", sender, {
          action,
          number: target.number,
          pull_request: this.pullJson(repo, target, true),
          ...rest,
        })
      : this.emit(repo, "issues", sender, { action, issue: this.issueJson(repo, target), ...rest });
  }

  private emitLabeled(repo: Repository, target: Issue, name: string, sender: Account) {
    const found = this.ensureLabel(repo, { name });
    return this.emitAbout(repo, target, sender, {
      action: "labeled",
      label: s.label(this.urls, repo, found),
    });
  }

  /** Adds labels; only labels that were not there yet fire `labeled`, one delivery each. */
  addLabels(
    repo: Repository,
    target: Issue,
    names: string[],
    sender: Account,
  ): Promise<Delivery[]> {
    const sends: Promise<Delivery>[] = [];
    for (const name of names) {
      if (this.attachLabel(repo, target, name)) {
        sends.push(this.emitLabeled(repo, target, name, sender));
      }
    }
    return Promise.all(sends);
  }

  removeLabel(repo: Repository, target: Issue, name: string, sender: Account): Promise<Delivery> {
    const index = target.labels.findIndex(
      (existing) => existing.toLowerCase() === name.toLowerCase(),
    );
    if (index === -1) throw new NotFound("Label does not exist");
    const [removed = name] = target.labels.splice(index, 1);
    target.updatedAt = nowIso();
    const found = this.ensureLabel(repo, { name: removed });
    return this.emitAbout(repo, target, sender, {
      action: "unlabeled",
      label: s.label(this.urls, repo, found),
    });
  }

  /** Replaces the labels; each added one fires `labeled`, each removed one `unlabeled`. */
  setLabels(
    repo: Repository,
    target: Issue,
    names: string[],
    sender: Account,
  ): Promise<Delivery[]> {
    const wanted = new Set(names.map((name) => name.toLowerCase()));
    const removed = target.labels
      .filter((existing) => !wanted.has(existing.toLowerCase()))
      .map((existing) => this.removeLabel(repo, target, existing, sender));
    const added = this.addLabels(repo, target, names, sender);
    return Promise.all([Promise.all(removed), added]).then(([a, b]) => [...a, ...b]);
  }

  updateIssue(
    repo: Repository,
    target: Issue,
    sender: Account,
    input: {
      title?: string;
      body?: string | null;
      state?: "open" | "closed";
      stateReason?: "completed" | "not_planned" | "reopened";
      labels?: string[];
      /** A pull request's new base branch (`pulls/update`). */
      base?: string;
      maintainerCanModify?: boolean;
    },
  ): Promise<Delivery[]> {
    const sends: Promise<Delivery>[] = [];
    const changes: Json = {};
    const pull = target.pull;
    if (
      pull &&
      input.base !== undefined &&
      (target.state === "closed" || input.state === "closed")
    ) {
      // GitHub refuses a base with a closed pull request, also while reopening or closing it.
      throw new Unprocessable("Validation Failed", [
        {
          resource: "PullRequest",
          field: "base",
          code: "invalid",
          message: "Cannot change the base branch of a closed pull request.",
        },
      ]);
    }
    if (pull && input.state === "open" && target.state === "closed") {
      this.refuseSecondOpenPull(repo, pull, pull.baseRef, target);
    }
    if (pull && input.base !== undefined && input.base !== pull.baseRef) {
      const baseSha = this.branchSha(repo, input.base);
      if (!baseSha) {
        throw new Unprocessable("Validation Failed", [
          { resource: "PullRequest", field: "base", code: "invalid" },
        ]);
      }
      this.refuseSecondOpenPull(repo, pull, input.base, target);
      const headSha = this.pullHeadSha(repo, target);
      if (headSha && repo.git.commitsBetween(baseSha, headSha).length === 0) {
        throw new Unprocessable("Validation Failed", [
          {
            resource: "PullRequest",
            code: "custom",
            message: `There are no new commits between base branch '${input.base}' and head branch '${pull.headRef}'.`,
          },
        ]);
      }
      // GitHub's `edited` names the old base by ref and by SHA (its tip when retargeted).
      changes.base = {
        ref: { from: pull.baseRef },
        sha: { from: this.branchSha(repo, pull.baseRef) ?? pull.merge.base ?? "" },
      };
      pull.baseRef = input.base;
      pull.merge.pending = true;
    }
    if (input.title !== undefined && input.title !== target.title) {
      changes.title = { from: target.title };
      target.title = input.title;
    }
    if (input.body !== undefined && input.body !== target.body) {
      changes.body = { from: target.body };
      target.body = input.body;
    }
    if (pull && input.maintainerCanModify !== undefined) {
      pull.maintainerCanModify = input.maintainerCanModify;
    }
    const now = nowIso();
    if (Object.keys(changes).length > 0) {
      target.updatedAt = now;
      sends.push(this.emitAbout(repo, target, sender, { action: "edited", changes }));
    }
    if (input.state !== undefined && input.state !== target.state) {
      target.state = input.state;
      target.updatedAt = now;
      target.closedAt = input.state === "closed" ? now : null;
      target.stateReason =
        input.state === "closed" ? (input.stateReason ?? "completed") : "reopened";
      if (pull && input.state === "open") {
        this.writePullHeadRef(repo, pull, target.number);
        pull.merge.pending = true;
      }
      sends.push(
        this.emitAbout(repo, target, sender, {
          action: input.state === "closed" ? "closed" : "reopened",
        }),
      );
    }
    if (pull && target.state === "open") this.refreshMerge(repo, target);
    const labeled = input.labels
      ? this.setLabels(repo, target, input.labels, sender)
      : Promise.resolve([]);
    return Promise.all([Promise.all(sends), labeled]).then(([a, b]) => [...a, ...b]);
  }

  editComment(repo: Repository, target: Issue, entry: Comment, body: string, sender: Account) {
    const from = entry.body;
    entry.body = body;
    entry.updatedAt = nowIso();
    return this.emit(repo, "issue_comment", sender, {
      action: "edited",
      changes: { body: { from } },
      issue: this.issueJson(repo, target),
      comment: s.comment(this.urls, repo, target, entry),
    });
  }

  addComment(
    repo: Repository,
    target: Issue,
    input: { body: string; user: Account; app?: AppIdentity },
  ): { comment: Comment; delivery: Promise<Delivery> } {
    const now = nowIso();
    const created: Comment = {
      id: this.ids.take(),
      body: input.body,
      user: input.user,
      createdAt: now,
      updatedAt: now,
      app: input.app,
    };
    target.comments.push(created);
    target.updatedAt = now;
    const delivery = this.emit(repo, "issue_comment", input.user, {
      action: "created",
      issue: this.issueJson(repo, target),
      comment: s.comment(this.urls, repo, target, created),
    });
    return { comment: created, delivery };
  }

  submitReview(
    repo: Repository,
    target: Issue & { pull: NonNullable<Issue["pull"]> },
    input: { state: Review["state"]; body?: string; user: Account; commitId?: string },
  ): { review: Review; delivery: Promise<Delivery | undefined> } {
    const headSha = this.pullHeadSha(repo, target) ?? "";
    const commitId = input.commitId ?? headSha;
    if (!repo.git.resolveObject(commitId, "commit")) {
      throw new Unprocessable("Validation Failed", [
        { resource: "PullRequestReview", field: "commit_id", code: "invalid" },
      ]);
    }
    if (input.user.login.toLowerCase() === target.user.login.toLowerCase()) {
      if (input.state === "APPROVED" || input.state === "CHANGES_REQUESTED") {
        // GitHub forbids approving or requesting changes on your own pull request.
        throw new Unprocessable("Unprocessable Entity", [
          { message: "Can not approve your own pull request" },
        ]);
      }
    }
    const created: Review = {
      id: this.ids.take(),
      user: input.user,
      body: input.body ?? "",
      state: input.state,
      commitId,
      submittedAt: nowIso(),
    };
    target.pull.reviews.push(created);
    // A pending review is a draft only its author sees; GitHub sends nothing for it.
    if (created.state === "PENDING")
      return { review: created, delivery: Promise.resolve(undefined) };
    const delivery = this.emit(repo, "pull_request_review", input.user, {
      action: "submitted",
      review: s.review(this.urls, repo, target, created),
      pull_request: this.pullJson(repo, target, false),
    });
    return { review: created, delivery };
  }

  // ---- checks -------------------------------------------------------------------------------

  /** A new check suite (each workflow run has its own, as on GitHub). */
  newSuite(
    repo: Repository,
    app: AppIdentity,
    headSha: string,
    headBranch: string | null,
  ): CheckSuite {
    const now = nowIso();
    const suite: CheckSuite = {
      id: this.ids.take(),
      headSha,
      headBranch,
      app,
      createdAt: now,
      updatedAt: now,
    };
    repo.checkSuites.set(suite.id, suite);
    return suite;
  }

  private suiteFor(repo: Repository, app: AppIdentity, headSha: string): CheckSuite {
    for (const suite of repo.checkSuites.values()) {
      if (suite.app.id === app.id && suite.headSha === headSha) return suite;
    }
    const now = nowIso();
    const branch = repo.git
      .refs("refs/heads/")
      .find((ref) => ref.sha === headSha)
      ?.ref.replace("refs/heads/", "");
    const suite: CheckSuite = {
      id: this.ids.take(),
      headSha,
      headBranch: branch ?? null,
      app,
      createdAt: now,
      updatedAt: now,
    };
    repo.checkSuites.set(suite.id, suite);
    return suite;
  }

  createCheckRun(
    repo: Repository,
    app: AppIdentity,
    sender: Account,
    input: {
      name: string;
      headSha: string;
      status?: CheckStatus;
      conclusion?: CheckConclusion | null;
      startedAt?: string;
      completedAt?: string | null;
      externalId?: string | null;
      detailsUrl?: string | null;
      output?: Partial<CheckOutput> & { annotations?: unknown[] };
    },
  ): { run: CheckRun; deliveries: Promise<Delivery[]> } {
    const headSha = repo.git.resolveObject(input.headSha, "commit");
    if (!headSha || headSha !== input.headSha) {
      throw new Unprocessable(`No commit found for SHA: ${input.headSha}`);
    }
    const completed = input.conclusion != null || input.status === "completed";
    if (input.status === "completed" && input.conclusion == null) {
      throw new Unprocessable("Invalid request.\n\nNo conclusion given for a completed check run.");
    }
    const now = nowIso();
    const suite = this.suiteFor(repo, app, headSha);
    const run: CheckRun = {
      id: this.ids.take(),
      suiteId: suite.id,
      headSha,
      name: input.name,
      status: completed ? "completed" : (input.status ?? "queued"),
      conclusion: input.conclusion ?? null,
      startedAt: input.startedAt ?? now,
      completedAt: completed ? (input.completedAt ?? now) : null,
      externalId: input.externalId ?? "",
      detailsUrl: input.detailsUrl ?? `${this.urls.html}/${repo.owner.login}/${repo.name}/runs`,
      output: {
        title: input.output?.title ?? null,
        summary: input.output?.summary ?? null,
        text: input.output?.text ?? null,
        annotationsCount: input.output?.annotations?.length ?? 0,
      },
      app,
    };
    repo.checkRuns.set(run.id, run);
    suite.updatedAt = now;
    const sends = [this.emitCheckRun(repo, run, "created", sender)];
    if (run.status === "completed") sends.push(this.emitCheckRun(repo, run, "completed", sender));
    return { run, deliveries: Promise.all(sends) };
  }

  updateCheckRun(
    repo: Repository,
    run: CheckRun,
    sender: Account,
    input: {
      name?: string;
      status?: CheckStatus;
      conclusion?: CheckConclusion | null;
      completedAt?: string;
      externalId?: string;
      detailsUrl?: string;
      output?: Partial<CheckOutput> & { annotations?: unknown[] };
    },
  ): Promise<Delivery[]> {
    const wasCompleted = run.status === "completed";
    if (input.status === "completed" && input.conclusion == null && run.conclusion == null) {
      throw new Unprocessable("Invalid request.\n\nNo conclusion given for a completed check run.");
    }
    if (input.name !== undefined) run.name = input.name;
    if (input.externalId !== undefined) run.externalId = input.externalId;
    if (input.detailsUrl !== undefined) run.detailsUrl = input.detailsUrl;
    if (input.output) {
      run.output = {
        title: input.output.title ?? run.output.title,
        summary: input.output.summary ?? run.output.summary,
        text: input.output.text ?? run.output.text,
        annotationsCount: run.output.annotationsCount + (input.output.annotations?.length ?? 0),
      };
    }
    if (input.conclusion != null) {
      run.conclusion = input.conclusion;
      run.status = "completed";
      run.completedAt = input.completedAt ?? nowIso();
    } else if (input.status !== undefined) {
      run.status = input.status;
      if (input.status !== "completed") {
        run.conclusion = null;
        run.completedAt = null;
      }
    }
    const suite = repo.checkSuites.get(run.suiteId);
    if (suite) suite.updatedAt = nowIso();
    // GitHub sends `completed` when a run becomes completed; other updates send nothing.
    if (!wasCompleted && run.status === "completed") {
      return Promise.all([this.emitCheckRun(repo, run, "completed", sender)]);
    }
    return Promise.resolve([]);
  }

  /** A person pressed one of a check run's buttons: `check_run.requested_action`. */
  requestCheckRunAction(repo: Repository, runId: number, identifier: string, sender: Account) {
    const run = repo.checkRuns.get(runId);
    if (!run) throw new Error(`no check run ${runId} in ${repo.owner}/${repo.name}`);
    return this.emitCheckRun(repo, run, "requested_action", sender, { identifier });
  }

  emitCheckRun(
    repo: Repository,
    run: CheckRun,
    action: string,
    sender: Account,
    requestedAction?: { identifier: string },
  ) {
    const suite = repo.checkSuites.get(run.suiteId);
    const pulls = this.pullsForSha(repo, run.headSha);
    const suiteJson = suite
      ? (() => {
          const full = s.checkSuite(
            this.urls,
            repo,
            suite,
            this.runsOfSuite(repo, suite),
            repo.git.readCommit(suite.headSha),
            pulls,
            this.pushedAtOf(repo),
          );
          // The check_run webhook carries a shortened suite, as GitHub's does.
          const { repository: _r, head_commit: _h, latest_check_runs_count: _l, ...rest } = full;
          const { check_runs_url: _c, rerequestable: _a, runs_rerequestable: _b, ...short } = rest;
          return short;
        })()
      : undefined;
    return this.emit(repo, "check_run", sender, {
      action,
      check_run: s.checkRun(this.urls, repo, run, pulls, suiteJson),
      ...(requestedAction ? { requested_action: requestedAction } : {}),
    });
  }

  runsOfSuite(repo: Repository, suite: CheckSuite): CheckRun[] {
    return [...repo.checkRuns.values()].filter((run) => run.suiteId === suite.id);
  }

  /**
   * Open pull requests whose head is at `sha`, in the minimal form check runs and workflow runs
   * carry. A fork's pull request is never listed there (GitHub fills `pull_requests` only for
   * heads in the same repository).
   */
  pullsForSha(repo: Repository, sha: string): Json[] {
    const result: Json[] = [];
    for (const item of repo.issues.values()) {
      if (!item.pull || item.state !== "open" || item.pull.headRepo !== repo) continue;
      const headSha = this.pullHeadSha(repo, item);
      const baseSha = this.branchSha(repo, item.pull.baseRef);
      if (headSha === sha && baseSha) {
        result.push(s.pullRequestMinimal(this.urls, repo, item, headSha, baseSha));
      }
    }
    return result;
  }

  // ---- merge queue ----------------------------------------------------------------------------

  /**
   * GitHub's merge queue asking for checks on a merge group: `merge_group` `checks_requested`
   * for a group head commit (built by the test, such as a push to a `gh-readonly-queue/...`
   * branch) on top of the base branch's current tip.
   */
  requestMergeGroupChecks(
    repo: Repository,
    input: { baseBranch: string; headSha: string; headRef: string },
    sender: Account,
  ): { baseSha: string; delivery: Promise<Delivery> } {
    const headSha = repo.git.resolveObject(input.headSha, "commit");
    if (!headSha || headSha !== input.headSha) {
      throw new Unprocessable(`No commit found for SHA: ${input.headSha}`);
    }
    const baseSha = this.branchSha(repo, input.baseBranch);
    if (!baseSha) throw new NotFound(`branch ${input.baseBranch}`);
    const ref = (name: string) => (name.startsWith("refs/") ? name : `refs/heads/${name}`);
    const delivery = this.emit(repo, "merge_group", sender, {
      action: "checks_requested",
      merge_group: {
        head_sha: headSha,
        head_ref: ref(input.headRef),
        base_sha: baseSha,
        base_ref: ref(input.baseBranch),
        head_commit: s.simpleCommit(repo.git.readCommit(headSha)),
      },
    });
    return { baseSha, delivery };
  }

  // ---- workflow runs ------------------------------------------------------------------------

  /**
   * Seeds a run without webhooks (the older helper): jobs in the given state, their steps as
   * given. `conclusion: null` leaves it in progress.
   */
  addWorkflowRun(repo: Repository, input: SeededRun): WorkflowRun {
    const jobs = input.jobs ?? [{ name: "build" }];
    const { run } = this.workflows.createRun(repo, {
      path: input.path,
      ...(input.name ? { name: input.name } : {}),
      event: input.event ?? "pull_request",
      headSha: input.headSha,
      actor: this.account(input.actor ?? "agate-dev-bot"),
      jobs: jobs.map((job) => ({ name: job.name })),
      ...(input.checkSuiteId ? { checkSuiteId: input.checkSuiteId } : {}),
      silent: true,
    });
    const status = input.status ?? (input.conclusion === null ? "in_progress" : "completed");
    const conclusion = status === "completed" ? (input.conclusion ?? "success") : null;
    this.workflows.seedState(run, status, conclusion, jobs);
    this.workflows.seedCheckRuns(repo, run);
    return run;
  }

  /**
   * Finishes a run the way the runner does (the older helper): every job not yet completed is
   * completed with the given conclusions and steps (`workflow_job.completed` each), then the
   * run (`workflow_run.completed`) with `conclusion`.
   */
  async completeWorkflowRun(
    repo: Repository,
    runId: number,
    input: {
      conclusion: string;
      jobs?: { name: string; conclusion?: string; steps?: Partial<WorkflowStep>[] }[];
    },
  ): Promise<Delivery[]> {
    const run = this.workflows.run(repo, runId);
    const sends: Promise<Delivery[] | Delivery>[] = [];
    for (const job of this.workflows.latestJobs(run)) {
      if (job.status === "completed") continue;
      if (job.status === "queued") {
        job.status = "in_progress";
        this.workflows.assignRunner(job);
      }
      const given = input.jobs?.find((entry) => entry.name === job.name);
      const steps = given?.steps?.map((step, index) => ({
        name: step.name ?? `step ${index + 1}`,
        conclusion: step.conclusion ?? "success",
        ...(step.startedAt ? { startedAt: step.startedAt } : {}),
        ...(step.completedAt ? { completedAt: step.completedAt } : {}),
      }));
      // The run's own conclusion is given: complete the jobs without the roll-up.
      sends.push(
        this.workflows.completeJobOnly(repo, run, job.name, {
          conclusion: given?.conclusion ?? input.conclusion,
          ...(steps ? { steps, replaceSteps: true } : {}),
        }),
      );
    }
    sends.push(this.workflows.completeAttempt(repo, run, input.conclusion));
    const all = await Promise.all(sends);
    return all.flat();
  }

  // ---- teams ----------------------------------------------------------------------------------

  addTeamMember(org: string, teamSlug: string, login: string, role: "member" | "maintainer") {
    const key = `${org.toLowerCase()}/${teamSlug.toLowerCase()}`;
    let team = this.teams.get(key);
    if (!team) {
      team = { id: this.ids.take(), org, slug: teamSlug, name: teamSlug, members: new Map() };
      this.teams.set(key, team);
    }
    this.account(login);
    team.members.set(login.toLowerCase(), role);
  }

  permissionOf(repo: Repository, login: string): PermissionLevel {
    if (login.toLowerCase() === repo.owner.login.toLowerCase()) return "admin";
    return repo.collaborators.get(login.toLowerCase()) ?? "none";
  }

  // ---- JSON views shared by handlers and webhooks -------------------------------------------

  issueJson(repo: Repository, item: Issue): Json {
    return s.issue(this.urls, repo, item);
  }

  pullJson(repo: Repository, item: Issue, withStats: boolean): Json {
    const pull = item.pull;
    if (!pull) throw new NotFound(`#${item.number} is not a pull request`);
    const headSha = this.pullHeadSha(repo, item) ?? "";
    const baseSha = this.branchSha(repo, pull.baseRef) ?? "";
    let stats: s.PullFacts["stats"];
    if (withStats && headSha && baseSha) {
      const mergeBase = repo.git.mergeBase(baseSha, headSha) ?? baseSha;
      stats = {
        ...repo.git.diffStats(mergeBase, headSha),
        commits: repo.git.commitsBetween(mergeBase, headSha).length,
      };
    }
    return s.pullRequest(this.urls, repo, item, {
      headSha,
      baseSha,
      pushedAt: this.pushedAtOf(repo),
      headPushedAt: this.pushedAtOf(pull.headRepo),
      ...(stats ? { stats } : {}),
    });
  }

  // ---- webhooks -------------------------------------------------------------------------------

  /** Sends an event for a repository with the fields GitHub adds to every repository event. */
  /**
   * `installation_repositories.added`: repositories added to the App's installation (GitHub sends
   * it to every App, subscribed or not).
   */
  emitRepositoriesAdded(repos: Repository[], sender: Account): Promise<Delivery> {
    const first = repos[0];
    const installation = first ? this.installationFor(first) : undefined;
    if (!installation) throw new Error("the App is not installed on these repositories");
    return this.webhooks.send("installation_repositories", {
      action: "added",
      installation: s.installation(this.urls, installation, this.app),
      repository_selection: "selected",
      repositories_added: repos.map((repo) => {
        const {
          id,
          node_id,
          name,
          full_name,
          private: secret,
        } = s.repository(this.urls, repo, this.pushedAtOf(repo)) as {
          id: number;
          node_id: string;
          name: string;
          full_name: string;
          private: boolean;
        };
        return { id, node_id, name, full_name, private: secret };
      }),
      repositories_removed: [],
      requester: null,
      sender: s.user(this.urls, sender),
    });
  }

  emit(repo: Repository, event: string, sender: Account, body: Json): Promise<Delivery> {
    const installation = this.installationFor(repo);
    const payload: Json = {
      ...body,
      repository: s.repository(this.urls, repo, this.pushedAtOf(repo)),
      ...(repo.owner.type === "Organization"
        ? { organization: organization(this.urls, repo.owner) }
        : {}),
      sender: s.user(this.urls, sender),
      ...(installation
        ? {
            installation: {
              id: installation.id,
              node_id: Buffer.from(`026:Integration::Installation${installation.id}`).toString(
                "base64",
              ),
            },
          }
        : {}),
    };
    return this.webhooks.send(event, payload);
  }

  reset(): void {
    for (const repo of this.repos.values()) repo.git.remove();
    this.repos.clear();
    // Installation tokens survive, as a real one lives an hour: the default installation comes
    // back with the same id, and a Probot instance keeps its cached token across tests.
    for (const [value, token] of this.tokens) {
      if (token.installationId === undefined) this.tokens.delete(value);
    }
    this.teams.clear();
    this.pushedAt.clear();
    const keep = new Set([
      this.app.owner,
      this.app.bot,
      this.actionsApp.owner,
      this.actionsApp.bot,
    ]);
    for (const [login, account] of this.accounts) {
      if (!keep.has(account)) this.accounts.delete(login);
    }
    this.installations.clear();
  }
}

function organization(urls: s.Urls, account: Account): Json {
  const api = `${urls.api}/orgs/${account.login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: Buffer.from(`012:Organization${account.id}`).toString("base64"),
    url: api,
    repos_url: `${api}/repos`,
    events_url: `${api}/events`,
    hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`,
    members_url: `${api}/members{/member}`,
    public_members_url: `${api}/public_members{/member}`,
    avatar_url: `${urls.html}/avatars/u/${account.id}?v=4`,
    description: null,
  };
}

export function covers(granted: TokenPermission | undefined, wanted: TokenPermission): boolean {
  const rank = { read: 1, write: 2, admin: 3 } as const;
  return granted !== undefined && rank[granted] >= rank[wanted];
}
