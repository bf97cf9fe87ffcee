// CI as GitHub runs the README's workflow:
//
//   on: [pull_request, merge_group]
//   permissions: { contents: read }
//   jobs:
//     agate-commands:
//       runs-on: ubuntu-latest
//       steps:
//         - uses: actions/checkout@v4
//           with: { persist-credentials: false }
//         - name: agate
//           uses: <owner>/agate@v1
//
// A workflow run of `.github/workflows/agate.yml` for the head (queued, then in progress, with
// GitHub's webhooks), a checkout the way actions/checkout does it by default (a fresh `git init`,
// a shallow fetch of GITHUB_SHA: the test merge commit `refs/pull/N/merge` on pull_request, the
// group head on merge_group; no credentials persisted), optional `run:` steps before agate with
// GITHUB_ENV / GITHUB_PATH honoured for later steps as the runner honours them, the committed
// Action bundle with the job's environment (the runtime token for artifacts included, a
// `contents: read` token as input), then the step and the job completed with the conclusions the
// processes' exit statuses give (or forced ones, for tamper tests).
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { GitHubSimulator } from "../github/index.js";
import { SETUP_STEP } from "../github/workflows.js";
import { type ActionRun, runActionBundle } from "./action-runner.js";
import { giveTo, type RunnerUser, spawnAs } from "./runner-users.js";

/** The runner users' work directories, removed when the test process exits. */
const works: string[] = [];
process.once("exit", () => {
  for (const work of works) rmSync(work, { recursive: true, force: true });
});

const DEFAULT_WORKFLOW = {
  path: ".github/workflows/agate.yml",
  name: "agate",
  job: "agate-commands",
  step: "agate",
} as const;

/** GitHub's step names for the checkout action (its main and post steps). */
const CHECKOUT_STEP = "Run actions/checkout@v4";
const CHECKOUT_POST_STEP = "Post Run actions/checkout@v4";

export interface CiStep {
  /** The step's `name:` (GitHub lists it under that name). */
  name: string;
  /** Bash run in the checkout with the job's environment (`bash -e`, GitHub's default shell). */
  run: string;
}

/** The job as it ran: ids for the API, the checkout, and the environment the agate step had. */
export interface CiJob {
  runId: number;
  attempt: number;
  jobId: number;
  job: string;
  /** The checkout (GITHUB_WORKSPACE). */
  workspace: string;
  /** GITHUB_SHA and GITHUB_REF. */
  sha: string;
  ref: string;
  /** The agate step's environment (job variables, GITHUB_ENV additions, the runtime token). */
  env: Record<string, string>;
}

export interface SimulatedCiRun extends ActionRun, CiJob {
  /** What each step concluded (the runner's record), in order. */
  steps: { name: string; conclusion: string | null }[];
  /** The job's conclusion. */
  conclusion: string;
  /** Output of the `before` steps, by name. */
  before: Record<string, { status: number | null; stdout: string; stderr: string }>;
}

export interface SimulatedCiOptions {
  sim: GitHubSimulator;
  repo: string;
  /** The base repository's owner; default `sim.owner`. */
  owner?: string;
  /** The head commit: the pull request's head (not the merge), the group head, the pushed commit. */
  head: string;
  /** The pull request; default the open one whose head is `head` (or whose head branch is `branch`). */
  number?: number;
  /** The head branch (pull_request) or the pushed branch (push). */
  branch?: string;
  temp: string;
  /** Lets the webhooks' receiver finish; called between the job's phases. */
  settle: () => Promise<void>;
  /** Default `pull_request` (`merge_group` with `mergeGroup: true`). */
  event?: string;
  /** Run on `merge_group`: `head` is the group head, the payload the last matching delivery. */
  mergeGroup?: boolean;
  /** The event payload; default the delivery GitHub would have triggered the run with. */
  eventPayload?: unknown;
  workflow?: { path?: string; name?: string; job?: string; step?: string };
  /** `run:` steps between checkout and agate (the attack surface of the issue). */
  before?: CiStep[];
  /** actions/checkout's `fetch-depth`: 1 (the default) or 0 (all history). */
  fetchDepth?: number;
  /** Re-run an earlier run as a new attempt instead of starting a run. */
  rerun?: { runId: number; onlyJobs?: string[] | "failed" };
  /** What the runner records for the agate step, whatever the process did (tamper tests). */
  stepConclusion?: "success" | "failure";
  /** The job's conclusion, whatever its steps did. */
  jobConclusion?: "success" | "failure" | "cancelled";
  inputs?: Record<string, string>;
  env?: Record<string, string>;
  /** Another Action bundle to run as the agate step (default: the committed dist/action/index.js). */
  bundle?: string;
  /**
   * Runs just before the agate step, with the environment an action step gets (the runtime
   * token included): what code of the job could do first, such as upload a forged record.
   */
  beforeAgate?: (job: CiJob) => Promise<void>;
  /** Runs after the agate step while the job is still in progress (its runtime token valid). */
  whileRunning?: (job: CiJob) => Promise<void>;
  /**
   * The runner's user (test/support/runner-users.ts): the job's directories are its own, closed to
   * others like a runner's home, and every step runs as it. Default: this process's user.
   */
  runAs?: RunnerUser;
}

interface Target {
  event: string;
  sha: string;
  ref: string;
  headBranch: string | null;
  headOwner: string | undefined;
  payload: unknown;
  actor: string;
  displayTitle: string | undefined;
  extraEnv: Record<string, string>;
}

/** Runs CI for a head as GitHub would for the README's workflow; see the file comment. */
export async function simulatedCi(options: SimulatedCiOptions): Promise<SimulatedCiRun> {
  const { sim, repo } = options;
  const owner = options.owner ?? sim.owner;
  const workflow = { ...DEFAULT_WORKFLOW, ...options.workflow };
  const ref = { owner, repo };

  // 1. The run: new (queued, with GitHub's webhooks) or a re-run of an earlier one.
  let runId: number;
  let target: Target;
  if (options.rerun) {
    const earlier = sim.workflowRun({ ...ref, runId: options.rerun.runId });
    await sim.rerunWorkflowRun({
      ...ref,
      runId: earlier.id,
      ...(options.rerun.onlyJobs ? { onlyJobs: options.rerun.onlyJobs } : {}),
    });
    runId = earlier.id;
    // A re-run uses the original event's GITHUB_SHA, GITHUB_REF and payload.
    target = {
      event: earlier.event,
      sha: earlier.sha,
      ref: earlier.ref,
      headBranch: earlier.headBranch,
      headOwner: earlier.headRepo.owner.login,
      payload: earlier.eventPayload,
      actor: earlier.actor.login,
      displayTitle: undefined,
      extraEnv: headAndBase(earlier.eventPayload),
    };
  } else {
    target = resolveTarget(options, owner);
    // GitHub runs the workflow file as it is at GITHUB_SHA (the test merge commit on
    // pull_request): without it there is no run at all.
    if (!sim.repository(ref).git.entryAt(target.sha, workflow.path)) {
      throw new Error(
        `GitHub would run no workflow: ${workflow.path} does not exist at ${target.sha} (${target.ref}); commit it to the base branch (or pass workflow.path)`,
      );
    }
    const created = await sim.createWorkflowRun({
      ...ref,
      path: workflow.path,
      name: workflow.name,
      event: target.event,
      headSha: options.head,
      headBranch: target.headBranch,
      ...(target.headOwner && target.headOwner !== owner ? { headOwner: target.headOwner } : {}),
      sha: target.sha,
      ref: target.ref,
      actor: target.actor,
      jobs: [
        {
          name: workflow.job,
          steps: [
            CHECKOUT_STEP,
            ...(options.before ?? []).map((step) => step.name),
            workflow.step,
            CHECKOUT_POST_STEP,
          ],
        },
      ],
      ...(target.displayTitle ? { displayTitle: target.displayTitle } : {}),
      eventPayload: target.payload,
    });
    runId = created.id;
  }
  await options.settle();

  // 2. A runner picks the job up.
  const { jobId, attempt } = await sim.startJob({ ...ref, runId, job: workflow.job });
  await options.settle();
  const done = (
    step: string,
    conclusion: string,
    times?: { startedAt: string; completedAt: string },
  ) => sim.completeStep({ ...ref, runId, job: workflow.job, step, conclusion, ...times });
  done(SETUP_STEP, "success");

  // 3. actions/checkout with its defaults (fetch-depth 1, persist-credentials false here).
  // As the runner's home: the runner's own, closed to other users (mode 700).
  const work = options.runAs ? mkdtempSync(join(tmpdir(), "agate-runner-work-")) : options.temp;
  if (options.runAs) works.push(work);
  const workspace = mkdtempSync(join(work, "checkout-"));
  const runnerTemp = mkdtempSync(join(work, "runner-temp-"));
  // The runner writes the event file once for the whole job, in RUNNER_TEMP: every step reads
  // the same file, and a step before agate can rewrite it.
  const eventPath = join(runnerTemp, "_github_workflow", "event.json");
  mkdirSync(dirname(eventPath));
  writeFileSync(eventPath, JSON.stringify(target.payload));
  checkout(workspace, sim.gitDir(ref), target, options.fetchDepth ?? 1);
  if (options.runAs) giveTo(options.runAs, work);
  done(CHECKOUT_STEP, "success");

  // 4. The job's environment, as the runner sets it for every step.
  const run = sim.workflowRun({ ...ref, runId });
  const runner = run.jobs.find((entry) => entry.id === jobId)?.runner;
  if (!runner) throw new Error(`job ${jobId} of run ${runId} has no runner after it started`);
  const runtime = sim.actionsRuntime({ ...ref, runId, job: workflow.job, attempt });
  const repository = `${owner}/${repo}`;
  const jobEnv: Record<string, string> = {
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: repository,
    GITHUB_REPOSITORY_OWNER: owner,
    GITHUB_REPOSITORY_ID: String(sim.repository(ref).id),
    GITHUB_RUN_ID: String(runId),
    GITHUB_RUN_NUMBER: String(run.runNumber),
    GITHUB_RUN_ATTEMPT: String(attempt),
    GITHUB_JOB: workflow.job,
    GITHUB_WORKFLOW: workflow.name,
    GITHUB_WORKFLOW_REF: `${repository}/${workflow.path}@${target.ref}`,
    GITHUB_WORKFLOW_SHA: target.sha,
    GITHUB_SHA: target.sha,
    GITHUB_REF: target.ref,
    GITHUB_REF_NAME: target.ref.replace(/^refs\/(heads|tags|pull)\//, ""),
    GITHUB_REF_TYPE: target.ref.startsWith("refs/tags/") ? "tag" : "branch",
    GITHUB_EVENT_NAME: target.event,
    GITHUB_ACTOR: target.actor,
    GITHUB_TRIGGERING_ACTOR: target.actor,
    GITHUB_API_URL: sim.apiUrl,
    GITHUB_GRAPHQL_URL: `${sim.apiUrl}/graphql`,
    GITHUB_SERVER_URL: runtime.GITHUB_SERVER_URL ?? sim.url,
    GITHUB_RETENTION_DAYS: runtime.GITHUB_RETENTION_DAYS ?? "90",
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    RUNNER_NAME: runner.name,
    RUNNER_ENVIRONMENT: "github-hosted",
    RUNNER_TEMP: runnerTemp,
    ...target.extraEnv,
  };
  const added: Record<string, string> = {};
  const pathPrefix: string[] = [];
  // "You can't overwrite the value of the default environment variables named GITHUB_* and
  // RUNNER_*" through GITHUB_ENV (GitHub's docs); other names, CI and PATH included, can be. The
  // runner's per-step variables (GITHUB_EVENT_PATH, the file commands, INPUT_*) are set after
  // this, so they win too. GITHUB_PATH entries go before PATH, whoever set it.
  const stepEnv = () => ({
    ...jobEnv,
    ...Object.fromEntries(
      Object.entries(added).filter(([name]) => !(/^(GITHUB|RUNNER)_/.test(name) && name in jobEnv)),
    ),
    PATH: [...pathPrefix, added.PATH ?? process.env.PATH ?? ""].join(":"),
  });

  // 5. `run:` steps before agate; a failing one skips the rest, as the runner does. They get no
  // ACTIONS_RUNTIME_TOKEN: the runner gives it to actions only (which is why actions such as
  // crazy-max/ghaction-github-runtime exist to expose it).
  const before: SimulatedCiRun["before"] = {};
  let failed = false;
  for (const step of options.before ?? []) {
    const files = stepFiles(runnerTemp);
    const script = join(runnerTemp, `${randomUUID()}.sh`);
    writeFileSync(script, step.run);
    if (options.runAs) giveTo(options.runAs, runnerTemp);
    const result = await spawnAsync("bash", ["-e", script], options.runAs, {
      cwd: workspace,
      env: {
        ...stepEnv(),
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_ENV: files.env,
        GITHUB_PATH: files.path,
        GITHUB_OUTPUT: files.output,
        GITHUB_STEP_SUMMARY: files.summary,
      },
    });
    before[step.name] = result;
    Object.assign(added, readEnvFile(files.env));
    pathPrefix.unshift(...readPathFile(files.path).reverse());
    done(step.name, result.status === 0 ? "success" : "failure");
    if (result.status !== 0) {
      failed = true;
      break;
    }
  }

  // 6. The agate step: the committed bundle with the job's environment and a read-only token.
  const env = { ...stepEnv(), ...runtime, ...options.env };
  let result: ActionRun = {
    status: null,
    stdout: "",
    stderr: "",
    outputs: {},
    summary: "",
    envFile: "",
    pathFile: "",
    temp: runnerTemp,
  };
  let stepConclusion: string = "skipped";
  const job: CiJob = {
    runId,
    attempt,
    jobId,
    job: workflow.job,
    workspace,
    sha: target.sha,
    ref: target.ref,
    env,
  };
  if (!failed && options.beforeAgate) await options.beforeAgate(job);
  if (!failed) {
    const startedAt = new Date().toISOString();
    result = await runActionBundle({
      cwd: workspace,
      eventName: target.event,
      event: target.payload,
      repository,
      inputs: {
        token: sim.createToken({ permissions: { contents: "read" } }),
        ...options.inputs,
      },
      env,
      eventPath,
      ...(options.bundle ? { bundle: options.bundle } : {}),
      ...(options.runAs ? { runAs: options.runAs } : {}),
    });
    stepConclusion = options.stepConclusion ?? (result.status === 0 ? "success" : "failure");
    done(workflow.step, stepConclusion, { startedAt, completedAt: new Date().toISOString() });
  }
  if (options.whileRunning) await options.whileRunning(job);
  done(CHECKOUT_POST_STEP, "success");

  // 7. The job ends: workflow_job.completed, then workflow_run.completed.
  const conclusion =
    options.jobConclusion ?? (failed || stepConclusion === "failure" ? "failure" : "success");
  await sim.completeJob({ ...ref, runId, job: workflow.job, conclusion });
  await options.settle();
  const final = sim.workflowRun({ ...ref, runId }).jobs.find((entry) => entry.id === jobId);
  return {
    ...result,
    ...job,
    steps: (final?.steps ?? []).map((step) => ({ name: step.name, conclusion: step.conclusion })),
    conclusion,
    before,
  };
}

/** What GitHub would run: GITHUB_SHA, GITHUB_REF, the head's branch and owner, the payload. */
function resolveTarget(options: SimulatedCiOptions, owner: string): Target {
  const { sim, repo } = options;
  const ref = { owner, repo };
  const event = options.event ?? (options.mergeGroup ? "merge_group" : "pull_request");
  const deliveries = sim.deliveries.filter(
    (d) =>
      (d.payload.repository as { full_name?: string } | undefined)?.full_name ===
      `${owner}/${repo}`,
  );
  const sender = (payload: unknown) =>
    (payload as { sender?: { login?: string } } | undefined)?.sender?.login ?? "octocat";
  if (event === "pull_request" || event === "pull_request_target") {
    const number = options.number ?? findPull(sim, ref, deliveries, options.head, options.branch);
    const pull = sim.pull({ ...ref, number });
    // The test merge commit made for this head (a late run tests the one of its own time).
    const merge =
      pull.headSha === options.head
        ? pull.mergeCommitSha
        : pull.mergeCommits.filter((entry) => entry.head === options.head).at(-1)?.sha;
    if (!merge) {
      throw new Error(
        `pull request #${number} has no test merge commit for ${options.head} (a merge conflict?): GitHub runs no pull_request workflow then`,
      );
    }
    const payload =
      options.eventPayload ??
      deliveries
        .filter((d) => d.event === "pull_request")
        .filter((d) => (d.payload.number as number | undefined) === number)
        .filter(
          (d) =>
            (d.payload.pull_request as { head?: { sha?: string } } | undefined)?.head?.sha ===
            options.head,
        )
        .at(-1)?.payload;
    if (!payload) throw new Error(`no pull_request delivery for #${number} at ${options.head}`);
    const title = (payload as { pull_request?: { title?: string } }).pull_request?.title;
    return {
      event,
      // pull_request_target runs the base branch; the README's workflow is pull_request.
      sha: event === "pull_request" ? merge : pull.baseSha,
      ref: event === "pull_request" ? `refs/pull/${number}/merge` : `refs/heads/${pull.baseRef}`,
      headBranch: pull.headRef,
      headOwner: pull.headOwner,
      payload,
      actor: sender(payload),
      displayTitle: title,
      extraEnv: headAndBase(payload),
    };
  }
  if (event === "merge_group") {
    const delivery = deliveries
      .filter((d) => d.event === "merge_group")
      .filter(
        (d) =>
          (d.payload.merge_group as { head_sha?: string } | undefined)?.head_sha === options.head,
      )
      .at(-1);
    const payload = options.eventPayload ?? delivery?.payload;
    const headRef = (payload as { merge_group?: { head_ref?: string } } | undefined)?.merge_group
      ?.head_ref;
    if (!payload || !headRef) throw new Error(`no merge_group delivery for ${options.head}`);
    return {
      event,
      sha: options.head,
      ref: headRef,
      headBranch: headRef.replace(/^refs\/heads\//, ""),
      headOwner: undefined,
      payload,
      actor: sender(payload),
      displayTitle: undefined,
      extraEnv: {},
    };
  }
  // push, workflow_dispatch and others: the branch tip (the simulator sends no push webhook,
  // so the payload is made here with the fields GitHub's has).
  const branch =
    options.branch ??
    sim
      .repository(ref)
      .git.refs("refs/heads/")
      .find((entry) => entry.sha === options.head)
      ?.ref.replace("refs/heads/", "");
  if (!branch) throw new Error(`no branch at ${options.head} for a ${event} run`);
  const repository = deliveries.at(-1)?.payload.repository;
  const payload =
    options.eventPayload ??
    (event === "push"
      ? {
          ref: `refs/heads/${branch}`,
          before: sim.repository(ref).git.readCommit(options.head).parents[0] ?? "0".repeat(40),
          after: options.head,
          repository,
          sender: { login: "octocat" },
        }
      : { ref: `refs/heads/${branch}`, inputs: {}, repository, sender: { login: "octocat" } });
  return {
    event,
    sha: options.head,
    ref: `refs/heads/${branch}`,
    headBranch: branch,
    headOwner: undefined,
    payload,
    actor: "octocat",
    displayTitle: undefined,
    extraEnv: {},
  };
}

function findPull(
  sim: GitHubSimulator,
  ref: { owner: string; repo: string },
  deliveries: GitHubSimulator["deliveries"],
  head: string,
  branch: string | undefined,
): number {
  const numbers = [
    ...new Set(
      deliveries.filter((d) => d.event === "pull_request").map((d) => d.payload.number as number),
    ),
  ];
  const pulls = numbers
    .map((number) => sim.pull({ ...ref, number }))
    .filter((pull) => pull.state === "open");
  const found =
    pulls.find((pull) => pull.headSha === head) ??
    pulls.find((pull) => pull.mergeCommits.some((merge) => merge.head === head)) ??
    pulls.find((pull) => branch !== undefined && pull.headRef === branch);
  if (!found) throw new Error(`no open pull request with head ${head}`);
  return found.number;
}

/** GITHUB_HEAD_REF and GITHUB_BASE_REF, set on pull_request runs. */
function headAndBase(payload: unknown): Record<string, string> {
  const pull = (payload as { pull_request?: { head?: { ref?: string }; base?: { ref?: string } } })
    ?.pull_request;
  if (!pull?.head?.ref || !pull.base?.ref) return {};
  return { GITHUB_HEAD_REF: pull.head.ref, GITHUB_BASE_REF: pull.base.ref };
}

/**
 * actions/checkout's sequence: `git init`, `remote add origin`, a fetch of `+<sha>:<ref>` (depth 1
 * by default; all branches and tags with fetch-depth 0), then a detached checkout of
 * `refs/remotes/pull/N/merge`, or `checkout -B <branch>` for a branch ref.
 */
function checkout(dir: string, remote: string, target: Target, depth: number): void {
  const git = (...args: string[]) => gitSync(dir, args);
  git("init", "--quiet");
  git("remote", "add", "origin", remote);
  git("config", "--local", "gc.auto", "0");
  const pull = /^refs\/pull\/(.+)$/.exec(target.ref);
  const branch = /^refs\/heads\/(.+)$/.exec(target.ref)?.[1];
  const destination = pull
    ? `refs/remotes/pull/${pull[1]}`
    : branch
      ? `refs/remotes/origin/${branch}`
      : undefined;
  const specs = [destination ? `+${target.sha}:${destination}` : target.sha];
  if (depth > 0) {
    git(
      "-c",
      "protocol.version=2",
      "fetch",
      "--no-tags",
      "--prune",
      "--no-recurse-submodules",
      `--depth=${depth}`,
      "origin",
      ...specs,
    );
  } else {
    git(
      "-c",
      "protocol.version=2",
      "fetch",
      "--prune",
      "--no-recurse-submodules",
      "origin",
      "+refs/heads/*:refs/remotes/origin/*",
      "+refs/tags/*:refs/tags/*",
      ...(pull ? specs : []),
    );
  }
  if (pull) git("checkout", "--quiet", "--force", `refs/remotes/pull/${pull[1]}`);
  else if (branch)
    git("checkout", "--quiet", "--force", "-B", branch, `refs/remotes/origin/${branch}`);
  else git("checkout", "--quiet", "--force", target.sha);
}

function gitSync(cwd: string, args: string[]): string {
  // Synchronous is fine: a fetch by path needs nothing from the simulator's HTTP server.
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function stepFiles(runnerTemp: string) {
  const id = randomUUID();
  const files = {
    env: join(runnerTemp, `set_env_${id}`),
    path: join(runnerTemp, `add_path_${id}`),
    output: join(runnerTemp, `set_output_${id}`),
    summary: join(runnerTemp, `step_summary_${id}`),
  };
  for (const file of Object.values(files)) writeFileSync(file, "");
  return files;
}

/**
 * The runner's GITHUB_ENV format: `NAME=value` lines and `NAME<<DELIMITER` heredocs. The runner
 * refuses NODE_OPTIONS there (actions/runner#2775: it would reach every later action's node).
 */
function readEnvFile(path: string): Record<string, string> {
  const lines = readFileSync(path, "utf8").split(/\r?\n/);
  const result: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!line) continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    let name: string;
    let value: string;
    if (heredoc) {
      name = heredoc[1] ?? "";
      const end = lines.indexOf(heredoc[2] ?? "", i + 1);
      if (end === -1) throw new Error(`GITHUB_ENV: no closing ${heredoc[2]}`);
      value = lines.slice(i + 1, end).join("\n");
      i = end;
    } else {
      const at = line.indexOf("=");
      if (at <= 0) throw new Error(`GITHUB_ENV: invalid line ${JSON.stringify(line)}`);
      name = line.slice(0, at);
      value = line.slice(at + 1);
    }
    if (name.toUpperCase() === "NODE_OPTIONS") continue;
    result[name] = value;
  }
  return result;
}

function readPathFile(path: string): string[] {
  return readFileSync(path, "utf8")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Asynchronous on purpose: a simulator in the same process must keep answering meanwhile. */
function spawnAsync(
  command: string,
  args: string[],
  user: RunnerUser | undefined,
  options: { cwd: string; env: Record<string, string> },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
    const child = user
      ? spawnAs(user, command, args, { ...options, stdio })
      : spawn(command, args, { ...options, stdio });
    if (!child.stdout || !child.stderr) throw new Error("a step's output is not piped");
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.once("error", reject);
    child.once("close", (status) =>
      resolve({
        status,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}
