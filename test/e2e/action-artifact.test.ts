import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type CommandRecord,
  commandRecordSchema,
  RECORD_FILE_NAME,
  recordArtifactName,
} from "../../schemas/command-record.js";
import {
  type GitHubSimulator,
  type Receiver,
  startGitHubSimulator,
  startReceiver,
} from "../github/index.js";
import { runActionBundle } from "../support/action-runner.js";
import { GIT_ENV } from "../support/git-repo.js";
import { testConfig } from "../support/runner-users.js";

/**
 * The committed Action bundle on the evidence channel, against the GitHub simulator: a pull
 * request with GitHub's test merge commit, a workflow run whose `agate` job is in progress, the
 * checkout actions/checkout makes by default (shallow, the merge commit, detached), the runtime
 * environment the runner gives a JavaScript action, and the record uploaded through the real
 * `@actions/artifact` client to the simulator's artifact service. The job has no write token: the
 * only GitHub API call the bundle may make is reading the base config.
 */
const FORGE = resolve(import.meta.dirname, "..", "support", "forge-record-artifact.mjs");
const WORKFLOW = ".github/workflows/agate.yml";

let sim: GitHubSimulator;
let receiver: Receiver;
const dirs: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  sim = await startGitHubSimulator({ webhookUrl: receiver.url });
});
afterAll(async () => {
  await sim?.close();
  await receiver?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  sim.reset();
  receiver.received.length = 0;
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();

const config = (commands: Record<string, string>) =>
  testConfig(
    `version: 1\ncommands:\n${Object.entries(commands)
      .map(([name, run]) => `  - name: ${name}\n    run: ${JSON.stringify(run)}\n`)
      .join("")}`,
  );

/** A repository, an agent's pull request (with GitHub's test merge) and the event GitHub sent. */
async function agentPullRequest(baseConfig: string, headFiles: Record<string, string | null>) {
  const repo = `widgets-${Math.random().toString(36).slice(2, 8)}`;
  await sim.createRepository({
    repo,
    files: { ".github/agate.yml": baseConfig, "src/a.txt": "1\n" },
  });
  const head = await sim.pushCommit({
    repo,
    branch: "codex/task",
    files: headFiles,
    author: "codex[bot]",
  });
  const pull = await sim.openPullRequest({
    repo,
    head: "codex/task",
    title: "Do the task",
    user: "codex[bot]",
  });
  await sim.flushWebhooks();
  const opened = receiver.received
    .map((r) => ({ event: r.headers["x-github-event"], body: JSON.parse(r.body) }))
    .find((d) => d.event === "pull_request" && d.body.action === "opened");
  if (!opened) throw new Error("the simulator sent no pull_request.opened");
  if (!pull.mergeCommitSha) throw new Error("the simulator made no test merge commit");
  return {
    repo,
    head,
    base: pull.baseSha,
    number: pull.number,
    merge: pull.mergeCommitSha,
    event: opened.body,
    full: `${sim.owner}/${repo}`,
  };
}

type PullRequest = Awaited<ReturnType<typeof agentPullRequest>>;

/**
 * actions/checkout@v4 on pull_request with its defaults: `git init`, a fetch of depth 1 of
 * refs/pull/N/merge, a detached checkout. `reachable: false` points origin nowhere afterwards,
 * as for a private repository checked out without persisted credentials.
 */
function checkout(pr: PullRequest, options: { reachable?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "agate-checkout-"));
  dirs.push(dir);
  git(dir, "init", "--quiet");
  git(dir, "remote", "add", "origin", `file://${sim.gitDir({ repo: pr.repo })}`);
  const ref = `refs/remotes/pull/${pr.number}/merge`;
  git(
    dir,
    "fetch",
    "--quiet",
    "--no-tags",
    "--depth=1",
    "origin",
    `+refs/pull/${pr.number}/merge:${ref}`,
  );
  git(dir, "checkout", "--quiet", "--force", ref);
  if (options.reachable === false)
    git(dir, "remote", "set-url", "origin", join(dir, "no-such-remote"));
  return dir;
}

/** What AGATE_ACTION_NODE (the Node the runner helper starts the bundle with) reports. */
const ACTION_NODE_VERSION = process.env.AGATE_ACTION_NODE
  ? execFileSync(process.env.AGATE_ACTION_NODE, ["--version"], { encoding: "utf8" }).trim()
  : process.version;

/** The pinned workflow's run for the pull request, its `agate` job in progress on a runner. */
async function workflowRun(pr: PullRequest) {
  const run = await sim.createWorkflowRun({
    repo: pr.repo,
    path: WORKFLOW,
    event: "pull_request",
    headSha: pr.head,
    headBranch: "codex/task",
    sha: pr.merge,
    ref: `refs/pull/${pr.number}/merge`,
    jobs: [{ name: "agate", steps: ["actions/checkout", "agate"] }],
  });
  await sim.startJob({ repo: pr.repo, runId: run.id, job: "agate" });
  return run;
}

/** The bundle as the runner starts it for the job's `agate` step. */
async function runStep(
  pr: PullRequest,
  cwd: string,
  runId: number,
  runtime: Record<string, string> = sim.actionsRuntime({ repo: pr.repo, runId, job: "agate" }),
  extraEnv: Record<string, string> = {},
) {
  return runActionBundle({
    cwd,
    eventName: "pull_request",
    event: pr.event,
    repository: pr.full,
    inputs: { token: sim.createToken({ permissions: { contents: "read" } }) },
    env: {
      ...runtime,
      GITHUB_API_URL: sim.apiUrl,
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_JOB: "agate",
      GITHUB_WORKFLOW_REF: `${pr.full}/${WORKFLOW}@refs/pull/${pr.number}/merge`,
      ...extraEnv,
    },
  });
}

/** GitHub API calls that write (the artifact service and blob storage are the runner's, not the API). */
const apiWrites = () =>
  sim.callLog.filter((call) => call.handledBy !== "simulator" && call.method !== "GET");

function recordOf(files: Record<string, Buffer> | undefined): CommandRecord {
  const file = files?.[RECORD_FILE_NAME];
  if (!file)
    throw new Error(`the artifact holds ${Object.keys(files ?? {}).join(", ") || "nothing"}`);
  return commandRecordSchema.parse(JSON.parse(file.toString("utf8")));
}

describe("the Action uploads its record as the run attempt's artifact (simulated)", () => {
  it("once, named for the attempt, holding the record file; a shallow merge checkout; no API write", async () => {
    const pr = await agentPullRequest(
      config({ unit: "cat src/a.txt", lint: "echo ok > lint.log" }),
      {
        "src/a.txt": "2\n",
        ".github/agate.yml": config({ unit: "echo only-this" }),
      },
    );
    const cwd = checkout(pr);
    const run = await workflowRun(pr);
    sim.clearCalls();
    const step = await runStep(pr, cwd, run.id);
    expect(step.status, step.stdout + step.stderr).toBe(0);

    const artifacts = sim.artifacts({ repo: pr.repo, runId: run.id });
    expect(artifacts.map((a) => [a.name, a.attempt, a.job, a.state, a.expired])).toEqual([
      [recordArtifactName(1), 1, "agate", "finalized", false],
    ]);
    const [artifact] = artifacts;
    expect(Object.keys(artifact?.files ?? {})).toEqual([RECORD_FILE_NAME]);
    expect(artifact?.files?.[RECORD_FILE_NAME]?.toString("utf8")).toBe(
      readFileSync(step.outputs["record-path"] ?? "", "utf8"),
    );
    const record = recordOf(artifact?.files);
    expect(record.version).toBe(2);
    expect(
      record.commands.map((c) => [c.name, c.exit_code, c.output.tail, c.changed_paths]),
    ).toEqual([
      ["unit", 0, "2\n", []],
      ["lint", 0, "", ["lint.log"]],
    ]);
    expect(record.tested).toMatchObject({
      sha: pr.merge,
      tree_sha: git(cwd, "rev-parse", "HEAD^{tree}"),
      parents: [pr.base, pr.head],
      clean_before: true,
      dirty_before: [],
      clean: false,
    });
    expect(record.pull_request).toEqual({
      number: pr.number,
      head_sha: pr.head,
      base_sha: pr.base,
    });
    expect(record.workflow).toMatchObject({ run_id: run.id, run_attempt: 1, job: "agate" });
    // The Node the bundle ran on (Node 24 under .ci/run, as on GitHub's runners).
    expect(record.runner?.node_version).toBe(ACTION_NODE_VERSION);

    expect(step.stdout).toContain(
      `agate: uploaded the command record as the artifact ${recordArtifactName(1)} (id ${artifact?.id}).`,
    );
    expect(step.summary).toContain(
      `The record is the artifact \`${recordArtifactName(1)}\` (id ${artifact?.id}) of this run.`,
    );
    expect(step.outputs.passed).toBe("true");
    // Read with git (the base was fetched by SHA), so no API call at all; never a write.
    expect(step.stdout).toContain("(read with git)");
    expect(apiWrites()).toEqual([]);
    expect(sim.checkRuns({ repo: pr.repo })).toEqual([]);
  });

  it("a failing command: the artifact holds the failing record and the step fails (they agree)", async () => {
    const pr = await agentPullRequest(
      config({ ok: "true", broken: "echo 'expected 3 to be 4'; exit 1" }),
      {
        "src/a.txt": "2\n",
      },
    );
    const run = await workflowRun(pr);
    const step = await runStep(pr, checkout(pr), run.id);
    expect(step.status).toBe(1);
    expect(step.stdout).toContain("::error::agate: 1 of 2 required commands failed on");
    const [artifact, ...more] = sim.artifacts({ repo: pr.repo, runId: run.id });
    expect(more).toEqual([]);
    const record = recordOf(artifact?.files);
    expect(record.commands.map((c) => c.exit_code)).toEqual([0, 1]);
    expect(apiWrites()).toEqual([]);
  });

  it("a command that uploads the record's name first with a leaked runtime token makes the step fail as tampered", async () => {
    const pr = await agentPullRequest(
      config({ tests: `node ${JSON.stringify(FORGE)} "$PPID" && exit 1` }),
      { "src/a.txt": "2\n" },
    );
    const run = await workflowRun(pr);
    // The commands cannot read it from agate (test/e2e/isolation.test.ts); here it leaked anyway.
    const runtime = sim.actionsRuntime({ repo: pr.repo, runId: run.id, job: "agate" });
    const leaked = Object.fromEntries(Object.entries(runtime).map(([k, v]) => [`LEAKED_${k}`, v]));
    const step = await runStep(pr, checkout(pr), run.id, runtime, {
      ...leaked,
      LEAKED_GITHUB_RUN_ATTEMPT: "1",
    });
    expect(step.stdout).toMatch(/forged artifact \d+/);
    expect(step.status).toBe(1);
    expect(step.stdout).toContain(
      `::error::agate: the job was tampered with: an artifact named ${recordArtifactName(1)} already exists in this run attempt`,
    );
    expect(step.stdout).toContain("The App will refuse the record of this attempt.");
    expect(step.summary).toContain(
      "The job was tampered with; the App will refuse this attempt's record.",
    );
    // The one artifact is the forgery (passing, while the step failed): the App refuses it.
    const artifacts = sim.artifacts({ repo: pr.repo, runId: run.id });
    expect(artifacts.map((a) => a.name)).toEqual([recordArtifactName(1)]);
    expect(JSON.parse(artifacts[0]?.files?.[RECORD_FILE_NAME]?.toString("utf8") ?? "{}")).toEqual({
      forged: true,
      passed: true,
    });
  });

  it("reads the base config through the contents API when git cannot fetch the base", async () => {
    const pr = await agentPullRequest(config({ "from-base": "echo base-config" }), {
      ".github/agate.yml": config({ "from-head": "echo head-config" }),
    });
    const run = await workflowRun(pr);
    sim.clearCalls();
    const step = await runStep(pr, checkout(pr, { reachable: false }), run.id);
    expect(step.status, step.stdout).toBe(0);
    expect(step.stdout).toContain("(read with api)");
    expect(
      sim.callLog
        .filter((c) => c.handledBy !== "simulator")
        .map((c) => [c.operationId, c.method, c.status]),
    ).toEqual([["repos/get-content", "GET", 200]]);
    const record = recordOf(sim.artifacts({ repo: pr.repo, runId: run.id })[0]?.files);
    expect(record.commands.map((c) => c.name)).toEqual(["from-base"]);
  });

  it("an upload the service refuses otherwise fails the step, saying the App cannot see the evidence", async () => {
    const pr = await agentPullRequest(config({ ok: "true" }), { "src/a.txt": "2\n" });
    const run = await workflowRun(pr);
    const runtime = sim.actionsRuntime({ repo: pr.repo, runId: run.id, job: "agate" });
    // The job is over before the step uploads: its runtime token is refused (401).
    await sim.completeJob({ repo: pr.repo, runId: run.id, job: "agate", conclusion: "success" });
    const step = await runStep(pr, checkout(pr), run.id, runtime);
    expect(step.status).toBe(1);
    expect(step.stdout).toContain(
      `::error::agate: could not upload the command record as the artifact ${recordArtifactName(1)}:`,
    );
    expect(step.stdout).toContain("The App cannot see this run's evidence without it");
    expect(step.outputs.passed).toBe("true");
    expect(sim.artifacts({ repo: pr.repo, runId: run.id })).toEqual([]);
  });
});
