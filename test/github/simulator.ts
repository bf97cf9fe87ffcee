// startGitHubSimulator(): a GitHub for tests, benchmarks and the demo. GitHub's OpenAPI description
// validates every request (400) and every stateful response (502); git data lives in real bare
// repositories; state changes send signed webhooks; the App authenticates with a real JWT.

import { randomInt, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { simulation } from "@simulacrum/github-api-simulator";
import { unzipSync } from "fflate";
import { uploadArtifact } from "./artifact-upload.js";
import { credentialOf, generateAppKeys, looksLikeJwt, verifyAppJwt } from "./auth.js";
import { speedUpOpenApiRouter } from "./fast-router.js";
import { WriteFaults } from "./faults.js";
import type { FileChanges } from "./git.js";
import { statefulOperations } from "./handlers/index.js";
import { libraryHandlers } from "./router.js";
import * as s from "./serialize.js";
import { type CallRecord, type CredentialCheck, startFront, type WriteRecord } from "./server.js";
import { patchedSpecPath } from "./spec.js";
import type {
  AccountType,
  CheckConclusion,
  CheckRun,
  CheckStatus,
  PermissionLevel,
  Repository,
  RequiredStatusCheck,
  Review,
  TokenPermission,
  WorkflowRun,
  WorkflowStep,
} from "./state.js";
import { newestAttempt, setSimulatorClock } from "./state.js";
import { type Delivery, WebhookSender } from "./webhooks.js";
import { type Author, type SeededRun, World } from "./world.js";

export interface SimulatorOptions {
  /** Secret the webhooks are signed with. Default "agate-simulator-secret". */
  webhookSecret?: string;
  /** Where webhooks go; without one they are recorded with error "no webhook URL". */
  webhookUrl?: string;
  /**
   * Default true: an operation without a stateful handler answers 501 with its operation id
   * instead of the spec's canned example, so no test passes on data nobody put there.
   */
  strict?: boolean;
  /** The account the App is installed on, and the default owner of new repositories. */
  owner?: string;
  appSlug?: string;
  /**
   * Each workflow job is also a check run of GitHub Actions named after the job, as on GitHub
   * (so a job named `agate` shows up as a second `agate` check run). Default false: see README.
   */
  jobCheckRuns?: boolean;
}

/** A job of a workflow run: its name and the steps GitHub would list for it. */
export interface SimJob {
  name: string;
  /** Step names as GitHub shows them; "Set up job" and "Complete job" are added. */
  steps?: string[];
}

/** What `sim.artifacts()` shows of an artifact. */
export interface SimArtifact {
  id: number;
  name: string;
  runId: number;
  attempt: number;
  /** The job (name) and job execution (id) whose runtime token created it. */
  job: string;
  jobId: number;
  state: "pending" | "finalized" | "deleted";
  size: number;
  digest: string | null;
  /** The blob as uploaded: the bytes the REST download serves. */
  zip: Buffer;
  /** The zip's files, when it is a zip. */
  files: Record<string, Buffer> | undefined;
  expired: boolean;
}

/** What `sim.pull()` shows of a pull request. */
export interface SimPull {
  number: number;
  state: "open" | "closed";
  headRef: string;
  headOwner: string;
  headRepo: string;
  headSha: string;
  baseRef: string;
  baseSha: string;
  /** The test merge commit (refs/pull/N/merge), null on a conflict. */
  mergeCommitSha: string | null;
  mergeable: boolean | null;
  /** Every test merge commit made for it, oldest first. */
  mergeCommits: { base: string; head: string; sha: string }[];
}

/** A person or bot by login, or a git identity (name and email) for commits. */
export type Who = string | { login: string; type?: AccountType };

interface RepoRef {
  owner?: string;
  repo: string;
}

export interface GitHubSimulator {
  /** http://127.0.0.1:PORT */
  url: string;
  /** url + "/api/v3": Octokit's baseUrl, what Probot uses with GHE_HOST. */
  apiUrl: string;
  /** "127.0.0.1:PORT" for GHE_HOST (with GHE_PROTOCOL=http). */
  gheHost: string;
  appId: number;
  appSlug: string;
  /** PKCS#8 PEM, generated for this instance. */
  privateKey: string;
  /**
   * What a person's click on "Create GitHub App" does with a manifest form: GitHub registers the
   * App and redirects to the manifest's redirect_url with a one-time code (returned here), which
   * `POST /app-manifests/{code}/conversions` turns into the App's id, key and webhook secret.
   */
  registerFromManifest(manifest: Record<string, unknown>): { code: string };
  readonly webhookSecret: string;
  /** The App's installation on the default owner. */
  installationId: number;
  /** The default owner of repositories (an organisation with the App installed). */
  owner: string;
  /** Environment for a Probot process pointed at this simulator. */
  probotEnv(webhookPort?: number): Record<string, string>;

  setWebhookUrl(url: string | undefined): void;
  /** Signs later deliveries with another secret (to test a receiver's verification). */
  setWebhookSecret(secret: string): void;
  readonly deliveries: readonly Delivery[];
  /** Waits until every queued webhook was answered, including those the answers caused. */
  flushWebhooks(): Promise<void>;
  waitForDelivery(match: (delivery: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;

  /**
   * The fault injector: `faults.arm({ nth, mode })` applies the nth write from now and then drops
   * its answer or holds it (faults.ts). `reset()` disarms it and ends held answers.
   */
  readonly faults: WriteFaults;

  /** Calls per operation id since start or the last reset/clearCalls. */
  readonly calls: Readonly<Record<string, number>>;
  readonly callLog: readonly CallRecord[];
  /**
   * The calls that asked a stateful handler to change something (POST, PATCH, PUT, DELETE), with
   * their path parameters and body, in the order they were answered; errors included.
   */
  readonly writes: readonly WriteRecord[];
  clearCalls(): void;

  createRepository(
    input: RepoRef & {
      defaultBranch?: string;
      files?: FileChanges;
      message?: string;
      author?: Who;
      private?: boolean;
      /** Install the App on the owner when it is not yet (default true). */
      installApp?: boolean;
    },
  ): Promise<{ gitDir: string; headSha: string; defaultBranch: string; id: number }>;
  /** Commits on `branch` (created from `from` or the default branch) and moves it like a push. */
  pushCommit(
    input: RepoRef & {
      branch: string;
      files: FileChanges;
      message?: string;
      author?: Who;
      trailers?: Record<string, string>;
      from?: string;
    },
  ): Promise<string>;
  /**
   * Opens a pull request: `pull_request.opened` (with `merge_commit_sha: null`), then GitHub's
   * test merge commit is written to `refs/pull/N/merge`. With `headOwner`, the head branch is
   * in that account's fork (see `forkRepository`).
   */
  openPullRequest(
    input: RepoRef & {
      head: string;
      headOwner?: string;
      base?: string;
      title: string;
      body?: string;
      user: Who;
      labels?: string[];
      draft?: boolean;
      maintainerCanModify?: boolean;
    },
  ): Promise<{ number: number; headSha: string; baseSha: string; mergeCommitSha: string | null }>;
  /**
   * Forks a repository to `owner` (a user account, the App not installed): a new repository
   * with the source's branches, `fork: true`. Push to it with `pushCommit({owner, repo})`.
   */
  forkRepository(input: {
    repo: string;
    /** The source repository's owner; default `sim.owner`. */
    sourceOwner?: string;
    /** Who gets the fork. */
    owner: string;
    name?: string;
  }): Promise<{ owner: string; repo: string; gitDir: string; id: number }>;
  /** Changes a pull request's base (`pull_request.edited` with `changes.base`). */
  retargetPullRequest(input: RepoRef & { number: number; base: string; user?: Who }): Promise<void>;
  /** Closes or reopens a pull request (`closed` / `reopened`). */
  setPullRequestState(
    input: RepoRef & { number: number; state: "open" | "closed"; user?: Who },
  ): Promise<void>;
  addLabels(input: RepoRef & { number: number; labels: string[]; user?: Who }): Promise<void>;
  /** Adds repositories to the App's installation: `installation_repositories.added`. */
  addToInstallation(input: { repos: string[]; user?: Who }): Promise<void>;
  removeLabel(input: RepoRef & { number: number; label: string; user?: Who }): Promise<void>;
  createIssue(
    input: RepoRef & { title: string; body?: string; user: Who; labels?: string[] },
  ): Promise<number>;
  addIssueComment(input: RepoRef & { number: number; body: string; user: Who }): Promise<number>;
  submitReview(
    input: RepoRef & {
      number: number;
      state: Exclude<Review["state"], "PENDING" | "DISMISSED">;
      user: Who;
      body?: string;
      commitId?: string;
    },
  ): Promise<number>;
  /** A check run from another app than the agate App (default GitHub Actions). */
  createCheckRun(
    input: RepoRef & {
      name: string;
      headSha: string;
      app?: "github-actions" | "agate";
      status?: CheckStatus;
      conclusion?: CheckConclusion;
      output?: { title?: string; summary?: string; text?: string };
    },
  ): Promise<number>;
  addWorkflowRun(input: RepoRef & Omit<SeededRun, "status">): {
    id: number;
    checkSuiteId: number;
    jobIds: number[];
  };

  /** Completes a run, its jobs and steps; sends workflow_run.completed. Resolves when answered. */
  completeWorkflowRun(
    input: RepoRef & {
      runId: number;
      conclusion: string;
      jobs?: { name: string; conclusion?: string; steps?: Partial<WorkflowStep>[] }[];
    },
  ): Promise<void>;

  /**
   * A workflow run as GitHub starts one: queued, its jobs queued; `workflow_run.requested`, then
   * `workflow_job.queued` per job. `headSha` is what GitHub shows as the run's head (a pull
   * request's head commit); `sha` and `ref` are GITHUB_SHA and GITHUB_REF (the test merge commit
   * and `refs/pull/N/merge` on `pull_request`). `headOwner` names a fork the head came from.
   */
  createWorkflowRun(
    input: RepoRef & {
      path: string;
      name?: string;
      event: string;
      headSha: string;
      headBranch?: string | null;
      headOwner?: string;
      sha?: string;
      ref?: string;
      actor?: Who;
      jobs: SimJob[];
      displayTitle?: string;
      eventPayload?: unknown;
    },
  ): Promise<{ id: number; attempt: number; checkSuiteId: number; jobIds: Record<string, number> }>;
  /** A runner picks a job up: `workflow_run.in_progress` (first job) and `workflow_job.in_progress`. */
  startJob(
    input: RepoRef & { runId: number; job: string },
  ): Promise<{ jobId: number; attempt: number }>;
  /** A step of a running job finished (no webhook); the next step starts. */
  completeStep(
    input: RepoRef & {
      runId: number;
      job: string;
      step: string;
      conclusion: string;
      startedAt?: string;
      completedAt?: string;
    },
  ): void;
  /**
   * A job finished: steps not reported complete as the runner would, `workflow_job.completed`;
   * the attempt's last job completes the run (`workflow_run.completed`, conclusion rolled up).
   */
  completeJob(
    input: RepoRef & {
      runId: number;
      job: string;
      conclusion?: string;
      steps?: { name: string; conclusion: string; startedAt?: string; completedAt?: string }[];
    },
  ): Promise<void>;
  /**
   * Re-runs a completed run as a new attempt: all jobs, the failed ones, or the named ones (the
   * others keep their earlier execution, as "Re-run failed jobs" does).
   */
  rerunWorkflowRun(
    input: RepoRef & { runId: number; onlyJobs?: string[] | "failed"; actor?: Who },
  ): Promise<{ attempt: number; jobIds: Record<string, number> }>;
  /**
   * The environment a job's JavaScript action gets for artifacts: ACTIONS_RUNTIME_TOKEN (bound
   * to this run attempt and job execution), ACTIONS_RESULTS_URL, a GITHUB_SERVER_URL the client
   * accepts, GITHUB_RETENTION_DAYS. `attempt` defaults to the newest.
   */
  actionsRuntime(
    input: RepoRef & { runId: number; job: string; attempt?: number },
  ): Record<string, string>;
  /**
   * Uploads an artifact as the job would (same HTTP path as @actions/artifact: Twirp, blob,
   * finalize). Fails like the client: 409 for a second artifact of one name in one attempt,
   * 401 once the job completed.
   */
  uploadArtifactAs(
    input: RepoRef & {
      runId: number;
      job: string;
      attempt?: number;
      name: string;
      files: Record<string, string | Buffer>;
    },
  ): Promise<{ id: number; size: number; digest: string }>;
  /** Artifacts of a repository (or one run), every state, oldest first. */
  artifacts(input: RepoRef & { runId?: number }): SimArtifact[];
  /** Makes an artifact expired (listed with `expired: true`; its download answers 410). */
  expireArtifact(input: RepoRef & { artifactId: number }): void;
  /** A workflow run's state (attempts, every job execution). */
  workflowRun(input: RepoRef & { runId: number }): WorkflowRun;
  /** A pull request's refs and test merge commit. */
  pull(input: RepoRef & { number: number }): SimPull;

  /** A person presses a check run's button: sends `check_run.requested_action`. */
  requestCheckRunAction(
    input: RepoRef & { checkRunId: number; identifier: string; user?: Who },
  ): Promise<void>;

  /**
   * The merge queue asks for checks on a group: sends `merge_group.checks_requested` with the
   * base branch's tip as `base_sha`. Resolves when answered, with the base SHA it named.
   */
  requestMergeGroupChecks(
    input: RepoRef & { baseBranch?: string; headSha: string; headRef: string; user?: Who },
  ): Promise<{ baseSha: string }>;

  addUser(login: string, type?: AccountType): void;
  setPermission(input: RepoRef & { user: string; permission: PermissionLevel }): void;
  /**
   * An active ruleset on the repository's branches (names or "~DEFAULT_BRANCH"): required
   * status checks (with the App they must come from, or none: any source) and a merge queue.
   * Returns its id.
   */
  addRuleset(
    input: RepoRef & {
      branches?: string[];
      requiredChecks?: RequiredStatusCheck[];
      mergeQueue?: boolean;
    },
  ): number;
  /** Classic branch protection requiring these status checks on `branch`. */
  protectBranch(input: RepoRef & { branch: string; requiredChecks: RequiredStatusCheck[] }): void;
  addTeamMember(input: {
    org?: string;
    team: string;
    user: string;
    role?: "member" | "maintainer";
  }): void;
  installApp(account: string, permissions?: Record<string, TokenPermission>): number;
  /** A token that is not the App's, like a workflow's GITHUB_TOKEN (GitHub Actions' identity). */
  createToken(input?: { permissions?: Record<string, TokenPermission>; actor?: string }): string;

  /** Read-only views of state, for assertions. */
  gitDir(input: RepoRef): string;
  branchSha(input: RepoRef & { branch: string }): string | undefined;
  checkRuns(input: RepoRef): CheckRun[];
  labelsOf(input: RepoRef & { number: number }): string[];
  repository(input: RepoRef): Repository;
  readonly world: World;

  /**
   * The clock GitHub's timestamps (created_at, updated_at, ...) come from; the real one when
   * absent. Shared by every simulator in the process; reset() and close() put the real one back.
   */
  setClock(now?: () => Date): void;
  /** Clears all state (repositories, tokens, deliveries, calls) and re-installs the App. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_SECRET = "agate-simulator-secret";

export async function startGitHubSimulator(
  options: SimulatorOptions = {},
): Promise<GitHubSimulator> {
  speedUpOpenApiRouter();
  const strict = options.strict ?? true;
  const owner = options.owner ?? "agate-dev";
  const appSlug = options.appSlug ?? "agate-sim";
  const secret = options.webhookSecret ?? DEFAULT_SECRET;
  let currentSecret = secret;
  const keys = generateAppKeys();
  const appId = randomInt(100_000, 1_000_000);
  const spec = patchedSpecPath();

  const callLog: CallRecord[] = [];
  const writes: WriteRecord[] = [];
  let calls: Record<string, number> = {};
  let world: World | undefined;
  let app: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const authenticate = (authorization: string | undefined): CredentialCheck => {
    const credential = credentialOf(authorization);
    if (!credential) return { ok: false, message: "Requires authentication" };
    if (looksLikeJwt(credential)) {
      const check = verifyAppJwt(credential, appId, keys.publicKey);
      return check.ok
        ? { ok: true, credential: { kind: "app", appId: check.appId } }
        : { ok: false, message: check.message };
    }
    const token = world?.tokens.get(credential);
    if (!token || token.expiresAt.getTime() <= Date.now())
      return { ok: false, message: "Bad credentials" };
    return { ok: true, credential: { kind: "token", token } };
  };

  const ownRoute = (path: string, req: IncomingMessage, res: ServerResponse): string | false => {
    if (!world) return false;
    const artifactRoute = world.artifacts.handle(path, req, res);
    if (artifactRoute) return artifactRoute;
    const match = /^\/_simulator\/job-logs\/(\d+)\/(\d+)$/.exec(path);
    if (!match) return false;
    const repo = [...world.repos.values()].find((entry) => String(entry.id) === match[1]);
    const job = repo
      ? [...repo.workflowRuns.values()]
          .flatMap((run) => run.jobs)
          .find((entry) => String(entry.id) === match[2])
      : undefined;
    res.statusCode = job ? 200 : 404;
    res.setHeader("content-type", "text/plain; charset=utf-8");
    res.end(job ? job.log : "Not Found");
    return "simulator/job-logs";
  };

  const faults = new WriteFaults();
  const front = await startFront({
    faults,
    app: (req, res) => {
      if (!app) {
        res.statusCode = 503;
        res.end();
        return;
      }
      app(req, res);
    },
    authenticate,
    ownRoute,
    isPublic: (method, path) =>
      method === "POST" && /^\/app-manifests\/[^/]+\/conversions$/.test(path),
    onCall: (record) => {
      callLog.push(record);
      if (record.write) writes.push({ ...record, write: record.write });
      // AGATE_SIM_DEBUG=1 prints every call answered with an error, for a test that swallows them.
      if (process.env.AGATE_SIM_DEBUG && record.status >= 400) {
        process.stderr.write(
          `[github-sim] ${record.method} ${record.path} -> ${record.status} (${record.operationId ?? "no operation"}, ${record.handledBy})\n`,
        );
      }
      const key = record.operationId ?? `${record.method} ${record.path}`;
      calls[key] = (calls[key] ?? 0) + 1;
    },
  });
  const address = front.address();
  if (!address || typeof address === "string") throw new Error("simulator front has no port");
  const gheHost = `127.0.0.1:${address.port}`;
  const url = `http://${gheHost}`;
  const apiUrl = `${url}/api/v3`;

  const hookId = randomInt(100_000_000, 999_999_999);
  const sender = new WebhookSender(secret, { hookId, appId }, options.webhookUrl);
  const w = new World({ api: apiUrl, html: url }, sender, appId, appSlug);
  w.workflows.jobCheckRuns = options.jobCheckRuns ?? false;
  world = w;
  let installation = w.install(owner);

  const handlers = libraryHandlers(w, statefulOperations, spec.operationIds, strict);
  const inner = await simulation({
    // The library registers custom handlers only when an initial state is given.
    initialState: { users: [], organizations: [], repositories: [], branches: [], blobs: [] },
    apiSchema: spec.path,
    extend: {
      // The library's handler type is express-shaped; ours reads the same arguments.
      openapiHandlers: () => handlers as never,
    },
    // Port 0 on loopback: the library's own listener is closed right away, only its handler is used.
  }).listen(0, "127.0.0.1" as never);
  const listener = inner.server.listeners("request")[0];
  if (typeof listener !== "function") throw new Error("simulator has no request handler");
  app = listener as (req: IncomingMessage, res: ServerResponse) => void;
  // Only its request handler is used; the front serves every request.
  await inner.ensureClose();

  const repoOf = (input: RepoRef) => w.repo(input.owner ?? owner, input.repo);
  const account = (who: Who) =>
    typeof who === "string"
      ? w.account(who, who.endsWith("[bot]") ? "Bot" : "User")
      : w.account(who.login, who.type ?? (who.login.endsWith("[bot]") ? "Bot" : "User"));
  const identity = (
    who: Who | undefined,
  ): { author: Author; pusher: ReturnType<typeof account> } => {
    const found = account(who ?? "octocat");
    return { author: { name: found.login, email: found.email }, pusher: found };
  };
  /** Who acts: the input's `user`, or `octocat` when it names no one. */
  const actor = (input: { user?: Who }) => account(input.user ?? "octocat");
  /** A person's edit of a pull request (its base, its state); resolves when the webhooks are answered. */
  const editPull = async (
    input: RepoRef & { number: number; user?: Who },
    changes: Parameters<World["updateIssue"]>[3],
  ) => {
    const repo = repoOf(input);
    await w.updateIssue(repo, w.pull(repo, input.number), actor(input), changes);
    await sender.flush();
  };

  const sim: GitHubSimulator = {
    url,
    apiUrl,
    gheHost,
    appId,
    appSlug,
    privateKey: keys.privateKey,
    get webhookSecret() {
      return currentSecret;
    },
    get installationId() {
      return installation.id;
    },
    owner,
    probotEnv: () => ({
      APP_ID: String(appId),
      PRIVATE_KEY: keys.privateKey,
      WEBHOOK_SECRET: currentSecret,
      GHE_HOST: gheHost,
      GHE_PROTOCOL: "http",
    }),

    registerFromManifest: (manifest) => {
      for (const field of ["name", "url", "redirect_url"] as const) {
        if (typeof manifest[field] !== "string" || manifest[field] === "") {
          throw new Error(`GitHub refuses an App manifest without ${field}`);
        }
      }
      const hook = manifest.hook_attributes as { url?: unknown } | undefined;
      if (typeof hook?.url !== "string")
        throw new Error("GitHub refuses a manifest without hook_attributes.url");
      const code = randomUUID().replaceAll("-", "");
      w.manifestConversions.set(code, {
        ...s.integration(w.urls, w.app),
        client_secret: "sim-client-secret",
        webhook_secret: currentSecret,
        pem: keys.privateKey,
      });
      return { code };
    },
    setWebhookUrl: (next) => sender.setUrl(next),
    setWebhookSecret: (next) => {
      currentSecret = next;
      sender.setSecret(next);
    },
    get deliveries() {
      return sender.deliveries;
    },
    flushWebhooks: () => sender.flush(),
    waitForDelivery: async (match, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = sender.deliveries.find(
          (delivery) => delivery.status !== undefined && match(delivery),
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error("no matching webhook delivery in time");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },

    faults,
    get calls() {
      return calls;
    },
    callLog,
    writes,
    clearCalls: () => {
      callLog.length = 0;
      writes.length = 0;
      calls = {};
    },

    createRepository: async (input) => {
      const ownerLogin = input.owner ?? owner;
      const repo = w.createRepository({
        owner: ownerLogin,
        repo: input.repo,
        ...(input.defaultBranch ? { defaultBranch: input.defaultBranch } : {}),
        ...(input.private !== undefined ? { private: input.private } : {}),
      });
      if (input.installApp ?? true) w.install(ownerLogin);
      const { author } = identity(input.author);
      const sha = repo.git.commitFiles({
        parent: undefined,
        files: input.files ?? { "README.md": `# ${input.repo}\n` },
        message: `${input.message ?? "Initial commit"}\n`,
        author,
      });
      repo.git.updateRef(`refs/heads/${repo.defaultBranch}`, sha, "");
      return { gitDir: repo.git.dir, headSha: sha, defaultBranch: repo.defaultBranch, id: repo.id };
    },

    pushCommit: async (input) => {
      const { author, pusher } = identity(input.author);
      const { sha, deliveries } = w.pushCommit({
        repo: repoOf(input),
        branch: input.branch,
        files: input.files,
        message: input.message ?? "Update files",
        author,
        pusher,
        ...(input.trailers ? { trailers: input.trailers } : {}),
        ...(input.from ? { from: input.from } : {}),
      });
      await deliveries;
      return sha;
    },

    openPullRequest: async (input) => {
      const repo = repoOf(input);
      const headRepo = input.headOwner ? w.forkOf(repo, input.headOwner) : repo;
      const { issue, deliveries } = w.openPullRequest(repo, {
        head: input.head,
        headRepo,
        base: input.base ?? repo.defaultBranch,
        title: input.title,
        body: input.body ?? null,
        user: account(input.user),
        ...(input.draft !== undefined ? { draft: input.draft } : {}),
        ...(input.labels ? { labels: input.labels } : {}),
        ...(input.maintainerCanModify !== undefined
          ? { maintainerCanModify: input.maintainerCanModify }
          : {}),
      });
      await deliveries;
      return {
        number: issue.number,
        headSha: w.pullHeadSha(repo, issue) ?? "",
        baseSha: w.branchSha(repo, input.base ?? repo.defaultBranch) ?? "",
        mergeCommitSha: issue.pull?.merge.sha ?? null,
      };
    },

    forkRepository: async (input) => {
      const source = w.repo(input.sourceOwner ?? owner, input.repo);
      w.account(input.owner, "User");
      const fork = w.forkRepository(source, input.owner, input.name);
      return { owner: fork.owner.login, repo: fork.name, gitDir: fork.git.dir, id: fork.id };
    },

    retargetPullRequest: (input) => editPull(input, { base: input.base }),

    setPullRequestState: (input) => editPull(input, { state: input.state }),

    addToInstallation: async (input) => {
      await w.emitRepositoriesAdded(
        input.repos.map((repo) => repoOf({ repo })),
        actor(input),
      );
    },

    addLabels: async (input) => {
      const repo = repoOf(input);
      await w.addLabels(repo, w.issue(repo, input.number), input.labels, actor(input));
    },

    removeLabel: async (input) => {
      const repo = repoOf(input);
      await w.removeLabel(repo, w.issue(repo, input.number), input.label, actor(input));
    },

    createIssue: async (input) => {
      const repo = repoOf(input);
      const { issue, deliveries } = w.createIssue(repo, {
        title: input.title,
        body: input.body ?? null,
        user: account(input.user),
        ...(input.labels ? { labels: input.labels } : {}),
      });
      await deliveries;
      return issue.number;
    },

    addIssueComment: async (input) => {
      const repo = repoOf(input);
      const { comment, delivery } = w.addComment(repo, w.issue(repo, input.number), {
        body: input.body,
        user: account(input.user),
      });
      await delivery;
      return comment.id;
    },

    submitReview: async (input) => {
      const repo = repoOf(input);
      const { review, delivery } = w.submitReview(repo, w.pull(repo, input.number), {
        state: input.state,
        user: account(input.user),
        ...(input.body !== undefined ? { body: input.body } : {}),
        ...(input.commitId ? { commitId: input.commitId } : {}),
      });
      await delivery;
      return review.id;
    },

    createCheckRun: async (input) => {
      const repo = repoOf(input);
      const app = input.app === "agate" ? w.app : w.actionsApp;
      const { run, deliveries } = w.createCheckRun(repo, app, app.bot, {
        name: input.name,
        headSha: input.headSha,
        ...(input.status ? { status: input.status } : {}),
        ...(input.conclusion ? { conclusion: input.conclusion } : {}),
        ...(input.output ? { output: input.output } : {}),
      });
      await deliveries;
      return run.id;
    },

    addWorkflowRun: (input) => {
      const run = w.addWorkflowRun(repoOf(input), input);
      return { id: run.id, checkSuiteId: run.checkSuiteId, jobIds: run.jobs.map((job) => job.id) };
    },

    completeWorkflowRun: async (input) => {
      await w.completeWorkflowRun(repoOf(input), input.runId, input);
      await sender.flush();
    },

    createWorkflowRun: async (input) => {
      const repo = repoOf(input);
      const headRepo = input.headOwner ? w.forkOf(repo, input.headOwner) : repo;
      const { run, deliveries } = w.workflows.createRun(repo, {
        path: input.path,
        ...(input.name ? { name: input.name } : {}),
        event: input.event,
        headSha: input.headSha,
        ...(input.headBranch !== undefined ? { headBranch: input.headBranch } : {}),
        headRepo,
        ...(input.sha ? { sha: input.sha } : {}),
        ...(input.ref ? { ref: input.ref } : {}),
        actor: account(input.actor ?? "octocat"),
        jobs: input.jobs,
        ...(input.displayTitle ? { displayTitle: input.displayTitle } : {}),
        ...(input.eventPayload !== undefined ? { eventPayload: input.eventPayload } : {}),
      });
      await deliveries;
      return {
        id: run.id,
        attempt: newestAttempt(run).number,
        checkSuiteId: run.checkSuiteId,
        jobIds: Object.fromEntries(run.jobs.map((job) => [job.name, job.id])),
      };
    },

    startJob: async (input) => {
      const repo = repoOf(input);
      const run = w.workflows.run(repo, input.runId);
      await w.workflows.startJob(repo, run, input.job);
      const job = w.workflows.job(run, input.job, newestAttempt(run).number);
      return { jobId: job.id, attempt: job.runAttempt };
    },

    completeStep: (input) => {
      const run = w.workflows.run(repoOf(input), input.runId);
      w.workflows.completeStep(run, input.job, input.step, input.conclusion, {
        ...(input.startedAt ? { startedAt: input.startedAt } : {}),
        ...(input.completedAt ? { completedAt: input.completedAt } : {}),
      });
    },

    completeJob: async (input) => {
      const repo = repoOf(input);
      const run = w.workflows.run(repo, input.runId);
      await w.workflows.completeJob(repo, run, input.job, {
        ...(input.conclusion ? { conclusion: input.conclusion } : {}),
        ...(input.steps ? { steps: input.steps } : {}),
      });
      await sender.flush();
    },

    rerunWorkflowRun: async (input) => {
      const repo = repoOf(input);
      const run = w.workflows.run(repo, input.runId);
      await w.workflows.rerun(repo, run, {
        ...(input.onlyJobs ? { jobs: input.onlyJobs } : {}),
        actor: account(input.actor ?? "octocat"),
      });
      return {
        attempt: newestAttempt(run).number,
        jobIds: Object.fromEntries(
          w.workflows
            .jobsOfAttempt(run, newestAttempt(run).number)
            .map((job) => [job.name, job.id]),
        ),
      };
    },

    actionsRuntime: (input) => {
      const run = w.workflows.run(repoOf(input), input.runId);
      const job = w.workflows.job(run, input.job, input.attempt ?? newestAttempt(run).number);
      return w.artifacts.runtimeEnv(run, job);
    },

    uploadArtifactAs: (input) =>
      uploadArtifact({
        env: sim.actionsRuntime(input),
        name: input.name,
        files: input.files,
      }),

    artifacts: (input) => {
      const repo = repoOf(input);
      return [...repo.artifacts.values()]
        .filter((item) => input.runId === undefined || item.runId === input.runId)
        .sort((a, b) => a.id - b.id)
        .map((item) => {
          const zip = item.content ?? Buffer.alloc(0);
          let files: Record<string, Buffer> | undefined;
          try {
            files = Object.fromEntries(
              Object.entries(unzipSync(zip)).map(([name, data]) => [name, Buffer.from(data)]),
            );
          } catch {
            files = undefined;
          }
          const run = repo.workflowRuns.get(item.runId);
          return {
            id: item.id,
            name: item.name,
            runId: item.runId,
            attempt: item.attempt,
            job: run?.jobs.find((job) => job.id === item.jobId)?.name ?? "",
            jobId: item.jobId,
            state: item.state,
            size: item.size,
            digest: item.digest,
            zip,
            files,
            expired: item.expired,
          };
        });
    },

    expireArtifact: (input) => {
      const item = repoOf(input).artifacts.get(input.artifactId);
      if (!item) throw new Error(`no artifact ${input.artifactId}`);
      item.expired = true;
    },

    workflowRun: (input) => w.workflows.run(repoOf(input), input.runId),

    pull: (input) => {
      const repo = repoOf(input);
      const item = w.pull(repo, input.number);
      return {
        number: item.number,
        state: item.state,
        headRef: item.pull.headRef,
        headOwner: item.pull.headRepo.owner.login,
        headRepo: item.pull.headRepo.name,
        headSha: w.pullHeadSha(repo, item) ?? "",
        baseRef: item.pull.baseRef,
        baseSha: w.branchSha(repo, item.pull.baseRef) ?? "",
        mergeCommitSha: item.pull.merge.sha,
        mergeable: item.pull.merge.mergeable,
        mergeCommits: [...item.pull.merge.history],
      };
    },

    requestCheckRunAction: async (input) => {
      await w.requestCheckRunAction(
        repoOf(input),
        input.checkRunId,
        input.identifier,
        actor(input),
      );
      await sender.flush();
    },

    requestMergeGroupChecks: async (input) => {
      const repo = repoOf(input);
      const { baseSha, delivery } = w.requestMergeGroupChecks(
        repo,
        {
          baseBranch: input.baseBranch ?? repo.defaultBranch,
          headSha: input.headSha,
          headRef: input.headRef,
        },
        actor(input),
      );
      await delivery;
      return { baseSha };
    },

    addUser: (login, type) => {
      w.account(login, type);
    },
    setPermission: (input) => {
      w.account(input.user);
      repoOf(input).collaborators.set(input.user.toLowerCase(), input.permission);
    },
    addRuleset: (input) => {
      const id = w.ids.take();
      repoOf(input).rulesets.push({
        id,
        branches: input.branches ?? ["~DEFAULT_BRANCH"],
        ...(input.requiredChecks ? { requiredChecks: input.requiredChecks } : {}),
        ...(input.mergeQueue ? { mergeQueue: true } : {}),
      });
      return id;
    },
    protectBranch: (input) => {
      repoOf(input).protections.set(input.branch, input.requiredChecks);
    },
    addTeamMember: (input) =>
      w.addTeamMember(input.org ?? owner, input.team, input.user, input.role ?? "member"),
    installApp: (login, permissions) => w.install(login, permissions).id,
    createToken: (input = {}) =>
      w.mintPlainToken({
        ...(input.permissions ? { permissions: input.permissions } : {}),
        ...(input.actor ? { actor: input.actor } : {}),
      }).token,

    gitDir: (input) => repoOf(input).git.dir,
    branchSha: (input) => w.branchSha(repoOf(input), input.branch),
    checkRuns: (input) => [...repoOf(input).checkRuns.values()],
    labelsOf: (input) => {
      const repo = repoOf(input);
      return [...w.issue(repo, input.number).labels];
    },
    repository: (input) => repoOf(input),
    world: w,

    setClock: (now) => setSimulatorClock(now),
    reset: () => {
      faults.disarm();
      faults.release();
      setSimulatorClock();
      w.reset();
      w.workflows.jobCheckRuns = options.jobCheckRuns ?? false;
      sim.setWebhookSecret(secret);
      sender.clear();
      sim.clearCalls();
      // Same id as before, so a Probot instance or token cache built earlier stays valid.
      installation = w.install(owner, undefined, installation.id);
    },
    close: async () => {
      faults.disarm();
      faults.release();
      setSimulatorClock();
      w.reset();
      await new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      });
    },
  };
  return sim;
}
