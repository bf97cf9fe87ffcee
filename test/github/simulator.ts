// startGitHubSimulator(): a GitHub for tests, benchmarks and the demo. GitHub's OpenAPI description
// validates every request (400) and every stateful response (502); git data lives in real bare
// repositories; state changes send signed webhooks; the App authenticates with a real JWT.

import { randomInt } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { simulation } from "@simulacrum/github-api-simulator";
import { credentialOf, generateAppKeys, looksLikeJwt, verifyAppJwt } from "./auth.js";
import type { FileChanges } from "./git.js";
import { statefulOperations } from "./handlers/index.js";
import { libraryHandlers } from "./router.js";
import { type CallRecord, type CredentialCheck, startFront } from "./server.js";
import { patchedSpecPath } from "./spec.js";
import type {
  AccountType,
  CheckConclusion,
  CheckRun,
  CheckStatus,
  PermissionLevel,
  Repository,
  Review,
  TokenPermission,
  WorkflowStep,
} from "./state.js";
import { type Delivery, WebhookSender } from "./webhooks.js";
import { type Author, World } from "./world.js";

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

  /** Calls per operation id since start or the last reset/clearCalls. */
  readonly calls: Readonly<Record<string, number>>;
  readonly callLog: readonly CallRecord[];
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
  openPullRequest(
    input: RepoRef & {
      head: string;
      base?: string;
      title: string;
      body?: string;
      user: Who;
      labels?: string[];
      draft?: boolean;
    },
  ): Promise<{ number: number; headSha: string; baseSha: string }>;
  addLabels(input: RepoRef & { number: number; labels: string[]; user?: Who }): Promise<void>;
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
  addWorkflowRun(
    input: RepoRef & {
      headSha: string;
      path: string;
      name?: string;
      event?: string;
      conclusion?: string | null;
      checkSuiteId?: number;
      actor?: string;
      jobs?: {
        name: string;
        conclusion?: string | null;
        steps?: Partial<WorkflowStep>[];
        log?: string;
      }[];
    },
  ): { id: number; checkSuiteId: number; jobIds: number[] };

  /** Completes a run, its jobs and steps; sends workflow_run.completed. Resolves when answered. */
  completeWorkflowRun(
    input: RepoRef & {
      runId: number;
      conclusion: string;
      jobs?: { name: string; conclusion?: string; steps?: Partial<WorkflowStep>[] }[];
    },
  ): Promise<void>;

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

  /** Clears all state (repositories, tokens, deliveries, calls) and re-installs the App. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_SECRET = "agate-simulator-secret";

export async function startGitHubSimulator(
  options: SimulatorOptions = {},
): Promise<GitHubSimulator> {
  const strict = options.strict ?? true;
  const owner = options.owner ?? "agate-dev";
  const appSlug = options.appSlug ?? "agate-sim";
  const secret = options.webhookSecret ?? DEFAULT_SECRET;
  let currentSecret = secret;
  const keys = generateAppKeys();
  const appId = randomInt(100_000, 1_000_000);
  const spec = patchedSpecPath();

  const callLog: CallRecord[] = [];
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

  const ownRoute = (path: string, _req: IncomingMessage, res: ServerResponse): boolean => {
    const match = /^\/_simulator\/job-logs\/(\d+)\/(\d+)$/.exec(path);
    if (!match || !world) return false;
    const repo = [...world.repos.values()].find((entry) => String(entry.id) === match[1]);
    const job = repo
      ? [...repo.workflowRuns.values()]
          .flatMap((run) => run.jobs)
          .find((entry) => String(entry.id) === match[2])
      : undefined;
    res.statusCode = job ? 200 : 404;
    res.setHeader("content-type", "text/plain; charset=utf-8");
    res.end(job ? job.log : "Not Found");
    return true;
  };

  const front = await startFront({
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
    onCall: (record) => {
      callLog.push(record);
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

    get calls() {
      return calls;
    },
    callLog,
    clearCalls: () => {
      callLog.length = 0;
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
      const { issue, deliveries } = w.openPullRequest(repo, {
        head: input.head,
        base: input.base ?? repo.defaultBranch,
        title: input.title,
        body: input.body ?? null,
        user: account(input.user),
        ...(input.draft !== undefined ? { draft: input.draft } : {}),
        ...(input.labels ? { labels: input.labels } : {}),
      });
      await deliveries;
      return {
        number: issue.number,
        headSha: w.branchSha(repo, input.head) ?? "",
        baseSha: w.branchSha(repo, input.base ?? repo.defaultBranch) ?? "",
      };
    },

    addLabels: async (input) => {
      const repo = repoOf(input);
      await w.addLabels(
        repo,
        w.issue(repo, input.number),
        input.labels,
        account(input.user ?? "octocat"),
      );
    },

    removeLabel: async (input) => {
      const repo = repoOf(input);
      await w.removeLabel(
        repo,
        w.issue(repo, input.number),
        input.label,
        account(input.user ?? "octocat"),
      );
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

    requestCheckRunAction: async (input) => {
      await w.requestCheckRunAction(
        repoOf(input),
        input.checkRunId,
        input.identifier,
        account(input.user ?? "octocat"),
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
        account(input.user ?? "octocat"),
      );
      await delivery;
      return { baseSha };
    },

    addUser: (login, type = "User") => {
      w.account(login, type);
    },
    setPermission: (input) => {
      w.account(input.user);
      repoOf(input).collaborators.set(input.user.toLowerCase(), input.permission);
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

    reset: () => {
      w.reset();
      sim.setWebhookSecret(secret);
      sender.clear();
      sim.clearCalls();
      // Same id as before, so a Probot instance or token cache built earlier stays valid.
      installation = w.install(owner, undefined, installation.id);
    },
    close: async () => {
      w.reset();
      await new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      });
    },
  };
  return sim;
}
