// The simulated CI (test/support/simulated-ci.ts) plays GitHub running the README's workflow:
// the run and job with their webhooks, actions/checkout's default shallow checkout of the test
// merge commit, `run:` steps whose GITHUB_ENV / GITHUB_PATH reach the agate step, re-runs, forks
// and merge groups. Most tests run a stub in place of the Action (fast, and independent of the
// Action's own behaviour); one runs the committed bundle and reads its record artifact back.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testConfig } from "../support/runner-users.js";
import { type SimulatedCiOptions, simulatedCi } from "../support/simulated-ci.js";
import { tokenClient } from "./clients.js";
import { runArtifactClient } from "./real-artifact-client.js";
import { forkPull, agentPull as openAgentPull, useSimulator } from "./use-simulator.js";

const repo = "ci";
const { sim } = useSimulator({
  seed: (sim) =>
    sim.createRepository({
      repo,
      files: {
        "answer.txt": "0\n",
        ".github/agate.yml": testConfig(
          "version: 1\ncommands:\n  - name: answer\n    run: cat answer.txt\n",
        ),
        ".github/workflows/agate.yml": "on: [pull_request, merge_group]\n",
      },
    }),
});
const temp = mkdtempSync(join(tmpdir(), "agate-sim-ci-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
// Stands in for the Action: reports its environment and exits with STUB_EXIT.
const stub = join(temp, "stub.mjs");
writeFileSync(
  stub,
  `process.stdout.write(JSON.stringify(process.env)); process.exitCode = Number(process.env.STUB_EXIT ?? 0);\n`,
);

const settle = () => sim.flushWebhooks();
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

const agentPull = (files: Record<string, string> = { "answer.txt": "42\n" }) =>
  openAgentPull(sim, { repo, files, title: "Answer" });

/** CI for `head` with the stub in place of the Action, as most tests here run it. */
const ci = (
  head: string,
  options: Partial<Omit<SimulatedCiOptions, "sim" | "repo" | "head">> = {},
) => simulatedCi({ sim, repo, head, temp, settle, bundle: stub, ...options });

function stubEnv(run: { stdout: string }): Record<string, string> {
  return JSON.parse(run.stdout) as Record<string, string>;
}

describe("a pull_request run of the README's workflow", () => {
  it("queues and runs job agate-commands, checks out the test merge commit shallow, completes with webhooks", async () => {
    const { head, number } = await agentPull();
    const before = sim.deliveries.length;
    const run = await ci(head);
    expect(sim.deliveries.slice(before).map((d) => `${d.event}.${d.action}`)).toEqual([
      "workflow_run.requested",
      "workflow_job.queued",
      "workflow_run.in_progress",
      "workflow_job.in_progress",
      "workflow_job.completed",
      "workflow_run.completed",
    ]);
    const merge = sim.pull({ repo, number }).mergeCommitSha;
    expect(run).toMatchObject({
      attempt: 1,
      job: "agate-commands",
      sha: merge,
      ref: `refs/pull/${number}/merge`,
      status: 0,
      conclusion: "success",
    });
    expect(run.steps).toEqual([
      { name: "Set up job", conclusion: "success" },
      { name: "Run actions/checkout@v4", conclusion: "success" },
      { name: "agate", conclusion: "success" },
      { name: "Post Run actions/checkout@v4", conclusion: "success" },
      { name: "Complete job", conclusion: "success" },
    ]);

    // actions/checkout's default: fetch-depth 1 of the merge commit, detached, no credentials.
    const ws = run.workspace;
    expect(git(ws, "rev-parse", "HEAD")).toBe(merge);
    expect(git(ws, "rev-parse", "--is-shallow-repository")).toBe("true");
    expect(git(ws, "rev-list", "--parents", "-n", "1", "HEAD")).toBe(merge);
    expect(git(ws, "rev-parse", "--abbrev-ref", "HEAD")).toBe("HEAD");
    expect(git(ws, "rev-parse", "HEAD^{tree}")).toBe(
      git(sim.gitDir({ repo }), "rev-parse", `${merge}^{tree}`),
    );
    expect(readFileSync(join(ws, ".git", "config"), "utf8")).not.toMatch(/extraheader|token/i);
    expect(readFileSync(join(ws, "answer.txt"), "utf8")).toBe("42\n");

    // The job's environment, as the agate step saw it.
    const env = stubEnv(run);
    expect(env).toMatchObject({
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_SHA: merge,
      GITHUB_REF: `refs/pull/${number}/merge`,
      GITHUB_RUN_ID: String(run.runId),
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_JOB: "agate-commands",
      GITHUB_WORKFLOW_REF: `${sim.owner}/${repo}/.github/workflows/agate.yml@refs/pull/${number}/merge`,
      GITHUB_HEAD_REF: "agent/1",
      GITHUB_BASE_REF: "main",
      GITHUB_API_URL: sim.apiUrl,
      GITHUB_WORKSPACE: ws,
      GITHUB_REPOSITORY: `${sim.owner}/${repo}`,
    });
    expect(env.GITHUB_SERVER_URL).toMatch(/^http:\/\/github\.localhost:\d+$/);
    expect(env.ACTIONS_RUNTIME_TOKEN).toBeTruthy();
    expect(env.ACTIONS_RESULTS_URL).toBe(`${sim.url}/`);
    const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8"));
    expect(event).toMatchObject({
      action: "opened",
      number,
      pull_request: { head: { sha: head } },
    });

    // GitHub's view of it: the pinned workflow, the head, the job and its step.
    const api = tokenClient(sim, sim.createToken({ permissions: { actions: "read" } }));
    const { data } = await api.rest.actions.getWorkflowRun({
      owner: sim.owner,
      repo,
      run_id: run.runId,
    });
    expect(data).toMatchObject({
      path: ".github/workflows/agate.yml",
      event: "pull_request",
      head_sha: head,
      head_branch: "agent/1",
      run_attempt: 1,
      conclusion: "success",
      pull_requests: [expect.objectContaining({ number })],
    });
    // The runner the job ran on is the one the job's environment names.
    const { data: job } = await api.rest.actions.getJobForWorkflowRun({
      owner: sim.owner,
      repo,
      job_id: run.jobId,
    });
    expect(job.runner_name).toMatch(/^GitHub Actions \d+$/);
    expect(env.RUNNER_NAME).toBe(job.runner_name);
  });

  it("runs the committed Action bundle by default, which uploads its record as this attempt's artifact", async () => {
    const { head, number } = await agentPull();
    // No `bundle`: the committed one (the stub uploads nothing and sets no output).
    const run = await simulatedCi({ sim, repo, head, temp, settle });
    // `cat answer.txt` passes on the merge commit: the step and the job succeed.
    expect(run.status, run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ passed: "true", "tested-sha": run.sha });
    expect(run.steps.find((step) => step.name === "agate")?.conclusion).toBe("success");
    expect(run.conclusion).toBe("success");
    const artifacts = sim.artifacts({ repo, runId: run.runId });
    expect(artifacts.map((item) => [item.name, item.attempt, item.job, item.state])).toEqual([
      ["agate-command-record-attempt-1", 1, "agate-commands", "finalized"],
    ]);
    expect(Object.keys(artifacts[0]?.files ?? {})).toEqual(["command-record.json"]);
    const record = JSON.parse(artifacts[0]?.files?.["command-record.json"]?.toString() ?? "{}");
    expect(record).toMatchObject({
      tested: { sha: run.sha },
      pull_request: { number, head_sha: head },
      workflow: {
        run_id: run.runId,
        run_attempt: 1,
        job: "agate-commands",
        event_name: "pull_request",
      },
    });
  });

  it("lets the job upload through the real client while it runs, bound to its attempt and job", async () => {
    const { head } = await agentPull();
    const dir = mkdtempSync(join(temp, "upload-"));
    writeFileSync(join(dir, "command-record.json"), "{}\n");
    let uploaded: unknown;
    const run = await ci(head, {
      whileRunning: async (job) => {
        const result = await runArtifactClient(job.env, {
          kind: "upload",
          name: "agate-command-record-attempt-1",
          files: [join(dir, "command-record.json")],
          root: dir,
        });
        uploaded = result.result ?? result.error;
      },
    });
    expect(uploaded).toMatchObject({ id: expect.any(Number) });
    expect(sim.artifacts({ repo, runId: run.runId })).toMatchObject([
      {
        name: "agate-command-record-attempt-1",
        attempt: 1,
        job: "agate-commands",
        jobId: run.jobId,
      },
    ]);
  });
});

describe("what steps before agate can do", () => {
  it("carries GITHUB_ENV and GITHUB_PATH to the agate step (not NODE_OPTIONS or a default GITHUB_*), and edits to the work tree", async () => {
    const { head } = await agentPull();
    const run = await ci(head, {
      before: [
        {
          name: "npm ci",
          run: [
            'echo "BASH_ENV=$RUNNER_TEMP/evil.sh" >> "$GITHUB_ENV"',
            'echo "NODE_OPTIONS=--require=/tmp/evil.js" >> "$GITHUB_ENV"',
            'echo "GITHUB_SHA=0000000000000000000000000000000000000000" >> "$GITHUB_ENV"',
            'printf "MULTI<<EOF\\nline 1\\nline 2\\nEOF\\n" >> "$GITHUB_ENV"',
            'mkdir -p "$RUNNER_TEMP/fake-bin" && echo "$RUNNER_TEMP/fake-bin" >> "$GITHUB_PATH"',
            "echo 41 > answer.txt",
            "git -c user.name=x -c user.email=x@x commit -qam forged",
          ].join("\n"),
        },
      ],
    });
    const env = stubEnv(run);
    expect(env.BASH_ENV).toBe(join(env.RUNNER_TEMP ?? "", "evil.sh"));
    expect(env.MULTI).toBe("line 1\nline 2");
    expect(env.NODE_OPTIONS).toBeUndefined();
    expect(env.GITHUB_SHA).toBe(run.sha);
    expect(env.PATH?.split(":")[0]).toBe(join(env.RUNNER_TEMP ?? "", "fake-bin"));
    expect(run.before["npm ci"]?.status).toBe(0);
    // The work tree and HEAD are what the step left: a commit GitHub never made.
    expect(git(run.workspace, "rev-parse", "HEAD")).not.toBe(run.sha);
    expect(readFileSync(join(run.workspace, "answer.txt"), "utf8")).toBe("41\n");
    expect(run.steps.map((step) => step.name)).toEqual([
      "Set up job",
      "Run actions/checkout@v4",
      "npm ci",
      "agate",
      "Post Run actions/checkout@v4",
      "Complete job",
    ]);
  });

  it("lets nothing in GITHUB_ENV override the runner's own variables of the agate step", async () => {
    const { head } = await agentPull();
    const run = await ci(head, {
      before: [
        {
          name: "poison",
          run: [
            'echo \'{"forged":true}\' > "$RUNNER_TEMP/forged.json"',
            'echo "GITHUB_EVENT_PATH=$RUNNER_TEMP/forged.json" >> "$GITHUB_ENV"',
            'echo "GITHUB_OUTPUT=$RUNNER_TEMP/forged-output" >> "$GITHUB_ENV"',
            'echo "GITHUB_STEP_SUMMARY=$RUNNER_TEMP/forged-summary" >> "$GITHUB_ENV"',
            'echo "INPUT_TOKEN=forged" >> "$GITHUB_ENV"',
            'echo "INPUT_CONFIG=forged.yml" >> "$GITHUB_ENV"',
            'echo "INPUT_RECORD-PATH=$RUNNER_TEMP/forged-record.json" >> "$GITHUB_ENV"',
            // PATH is not the runner's: GITHUB_ENV sets it, GITHUB_PATH entries go before it.
            'echo "PATH=/opt/forged:$PATH" >> "$GITHUB_ENV"',
            'echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"',
          ].join("\n"),
        },
      ],
    });
    expect(run.before.poison?.status).toBe(0);
    const env = stubEnv(run);
    const runnerTemp = env.RUNNER_TEMP ?? "";
    expect(env.GITHUB_EVENT_PATH).not.toBe(join(runnerTemp, "forged.json"));
    expect(JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8"))).toMatchObject({
      pull_request: { head: { sha: head } },
    });
    expect(env.GITHUB_OUTPUT).not.toBe(join(runnerTemp, "forged-output"));
    expect(env.GITHUB_STEP_SUMMARY).not.toBe(join(runnerTemp, "forged-summary"));
    expect(sim.world.tokens.has(env.INPUT_TOKEN ?? "")).toBe(true);
    expect(env.INPUT_CONFIG).toBe(".github/agate.yml");
    expect(env["INPUT_RECORD-PATH"]).toBe("");
    expect(env.PATH?.split(":").slice(0, 2)).toEqual([join(runnerTemp, "bin"), "/opt/forged"]);
  });

  it("shares the job's event file with earlier steps, which can rewrite it, as on a runner", async () => {
    const { head } = await agentPull();
    const run = await ci(head, {
      before: [{ name: "rewrite", run: 'echo \'{"rewritten":true}\' > "$GITHUB_EVENT_PATH"' }],
    });
    expect(run.before.rewrite?.status).toBe(0);
    const env = stubEnv(run);
    expect(env.GITHUB_EVENT_PATH).toBe(
      join(env.RUNNER_TEMP ?? "", "_github_workflow", "event.json"),
    );
    expect(JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8"))).toEqual({
      rewritten: true,
    });
  });

  it("skips agate after a failing step, and the job fails", async () => {
    const { head } = await agentPull();
    const run = await ci(head, { before: [{ name: "setup", run: "exit 3" }] });
    expect(run.status).toBeNull();
    expect(run.conclusion).toBe("failure");
    expect(run.steps.find((step) => step.name === "setup")?.conclusion).toBe("failure");
    expect(run.steps.find((step) => step.name === "agate")?.conclusion).toBe("skipped");
    expect(sim.workflowRun({ repo, runId: run.runId }).attempts.at(-1)?.conclusion).toBe("failure");
  });

  it("records a forced step conclusion whatever the process did (tamper tests)", async () => {
    const { head } = await agentPull();
    const run = await ci(head, { env: { STUB_EXIT: "1" }, stepConclusion: "success" });
    expect(run.status).toBe(1);
    expect(run.steps.find((step) => step.name === "agate")?.conclusion).toBe("success");
    expect(run.conclusion).toBe("success");
  });
});

describe("other shapes of runs", () => {
  it("re-runs as attempt 2 with the same GITHUB_SHA, GITHUB_REF and payload, and a new job", async () => {
    const { head } = await agentPull();
    const first = await ci(head, { env: { STUB_EXIT: "1" } });
    // Meanwhile the base moves: the re-run still tests the first run's merge commit.
    await sim.pushCommit({ repo, branch: "main", files: { "other.txt": "x\n" } });
    const second = await ci(head, { rerun: { runId: first.runId } });
    expect(second).toMatchObject({
      runId: first.runId,
      attempt: 2,
      sha: first.sha,
      ref: first.ref,
    });
    expect(second.jobId).not.toBe(first.jobId);
    expect(stubEnv(second).GITHUB_RUN_ATTEMPT).toBe("2");
    expect(git(second.workspace, "rev-parse", "HEAD")).toBe(first.sha);
    const run = sim.workflowRun({ repo, runId: first.runId });
    expect(run.attempts.map((attempt) => [attempt.number, attempt.conclusion])).toEqual([
      [1, "failure"],
      [2, "success"],
    ]);
  });

  it("checks out a full history with fetchDepth 0", async () => {
    const { head } = await agentPull();
    const run = await ci(head, { fetchDepth: 0 });
    expect(git(run.workspace, "rev-parse", "--is-shallow-repository")).toBe("false");
    expect(git(run.workspace, "rev-parse", "HEAD^2")).toBe(head);
  });

  it("runs a fork's pull request: head repository the fork, no pull_requests, the merge checked out", async () => {
    const { head, number } = await forkPull(sim, {
      repo,
      owner: "contributor",
      files: { "answer.txt": "42\n" },
    });
    const before = sim.deliveries.length;
    const run = await ci(head);
    expect(run.sha).toBe(sim.pull({ repo, number }).mergeCommitSha);
    expect(readFileSync(join(run.workspace, "answer.txt"), "utf8")).toBe("42\n");
    const completed = sim.deliveries
      .slice(before)
      .find((d) => d.event === "workflow_run" && d.action === "completed")?.payload as {
      workflow_run: { head_repository: { full_name: string }; pull_requests: unknown[] };
    };
    expect(completed.workflow_run.head_repository.full_name).toBe(`contributor/${repo}`);
    expect(completed.workflow_run.pull_requests).toEqual([]);
    expect(stubEnv(run).GITHUB_REPOSITORY).toBe(`${sim.owner}/${repo}`);
  });

  it("runs on merge_group: the group head on its branch, the delivery as the event", async () => {
    const ref = "gh-readonly-queue/main/pr-1-abc";
    const head = await sim.pushCommit({ repo, branch: ref, files: { "answer.txt": "42\n" } });
    await sim.requestMergeGroupChecks({ repo, headSha: head, headRef: ref });
    const run = await ci(head, { mergeGroup: true });
    expect(run).toMatchObject({ sha: head, ref: `refs/heads/${ref}` });
    expect(git(run.workspace, "symbolic-ref", "HEAD")).toBe(`refs/heads/${ref}`);
    expect(stubEnv(run).GITHUB_EVENT_NAME).toBe("merge_group");
    expect(sim.workflowRun({ repo, runId: run.runId })).toMatchObject({
      event: "merge_group",
      headBranch: ref,
      headSha: head,
    });
  });

  it("refuses to run a pull_request workflow for a conflicting pull request, as GitHub does not", async () => {
    const { head } = await agentPull({ "answer.txt": "42\n" });
    await sim.pushCommit({ repo, branch: "main", files: { "answer.txt": "7\n" } });
    await expect(ci(head)).rejects.toThrow(/merge conflict/);
  });

  it("runs nothing when the workflow file is not at the commit GitHub would run", async () => {
    const { head } = await agentPull();
    await expect(ci(head, { workflow: { path: ".github/workflows/other.yml" } })).rejects.toThrow(
      /would run no workflow/,
    );
  });

  it("lets code of the job act with the runtime token before agate (a forged record first)", async () => {
    const { head } = await agentPull();
    const run = await simulatedCi({
      sim,
      repo,
      head,
      temp,
      settle,
      beforeAgate: async (job) => {
        await sim.uploadArtifactAs({
          repo,
          runId: job.runId,
          job: job.job,
          name: "agate-command-record-attempt-1",
          files: { "command-record.json": '{"forged":true}\n' },
        });
      },
    });
    // The Action's own upload of that name is refused (409): one artifact, the forged one.
    const artifacts = sim.artifacts({ repo, runId: run.runId });
    expect(artifacts.map((item) => item.files?.["command-record.json"]?.toString())).toEqual([
      '{"forged":true}\n',
    ]);
    expect(run.status).not.toBe(0);
    expect(run.steps.find((step) => step.name === "agate")?.conclusion).toBe("failure");
  });

  it("gives `run:` steps no runtime token", async () => {
    const { head } = await agentPull();
    const run = await ci(head, {
      before: [{ name: "look", run: 'test -z "$ACTIONS_RUNTIME_TOKEN" && echo token=none' }],
    });
    expect(run.before.look?.stdout).toBe("token=none\n");
  });
});
