// Workflow runs like GitHub's: attempts, job executions with steps, re-runs that keep the jobs
// they do not re-run, the REST views the App reads (validated against the OpenAPI description)
// and the `workflow_run` / `workflow_job` webhooks each transition fires.
import { describe, expect, it } from "vitest";
import { tokenClient } from "./clients.js";
import { agentPull, useSimulator } from "./use-simulator.js";

const repo = "flows";
const PATH = ".github/workflows/agate.yml";
let head: string;
let number: number;
const { sim } = useSimulator({
  receiver: true,
  seed: async (sim) => {
    await sim.createRepository({
      repo,
      files: { README: "r\n", ".github/workflows/agate.yml": "on: pull_request\n" },
    });
    ({ head, number } = await agentPull(sim, { repo }));
  },
});

const octokit = () => tokenClient(sim, sim.createToken({ permissions: { actions: "read" } }));

function events(from = 0): string[] {
  return sim.deliveries.slice(from).map((delivery) => `${delivery.event}.${delivery.action}`);
}

async function agateRun(jobs = ["agate"]) {
  const { mergeCommitSha } = sim.pull({ repo, number });
  return sim.createWorkflowRun({
    repo,
    path: PATH,
    name: "agate",
    event: "pull_request",
    headSha: head,
    headBranch: "agent/1",
    sha: mergeCommitSha ?? "",
    ref: `refs/pull/${number}/merge`,
    actor: "codex[bot]",
    jobs: jobs.map((name) => ({ name, steps: ["Run actions/checkout@v4", "agate"] })),
  });
}

describe("a job's life fires GitHub's webhooks", () => {
  it("requested, queued, in_progress, steps, completed: for the job and for the run", async () => {
    const before = sim.deliveries.length;
    const run = await agateRun();
    expect(events(before)).toEqual(["workflow_run.requested", "workflow_job.queued"]);
    const queued = sim.deliveries.at(-1)?.payload.workflow_job as Record<string, unknown>;
    expect(queued).toMatchObject({
      id: run.jobIds.agate,
      run_id: run.id,
      run_attempt: 1,
      status: "queued",
      steps: [],
      runner_id: null,
      workflow_name: "agate",
      head_sha: head,
      head_branch: "agent/1",
    });

    await sim.startJob({ repo, runId: run.id, job: "agate" });
    expect(events(before).slice(2)).toEqual([
      "workflow_run.in_progress",
      "workflow_job.in_progress",
    ]);
    const started = sim.deliveries.at(-1)?.payload.workflow_job as {
      steps: { name: string; status: string }[];
    };
    expect(started.steps.map((step) => [step.name, step.status])).toEqual([
      ["Set up job", "in_progress"],
      ["Run actions/checkout@v4", "queued"],
      ["agate", "queued"],
      ["Complete job", "queued"],
    ]);

    sim.completeStep({
      repo,
      runId: run.id,
      job: "agate",
      step: "Set up job",
      conclusion: "success",
    });
    sim.completeStep({
      repo,
      runId: run.id,
      job: "agate",
      step: "Run actions/checkout@v4",
      conclusion: "success",
    });
    // Steps fire no webhook; the API shows them as they go.
    const { data: mid } = await octokit().rest.actions.getJobForWorkflowRun({
      owner: sim.owner,
      repo,
      job_id: run.jobIds.agate ?? 0,
    });
    expect(mid.steps?.map((step) => [step.name, step.status, step.conclusion])).toEqual([
      ["Set up job", "completed", "success"],
      ["Run actions/checkout@v4", "completed", "success"],
      ["agate", "in_progress", null],
      ["Complete job", "queued", null],
    ]);

    await sim.completeJob({
      repo,
      runId: run.id,
      job: "agate",
      steps: [{ name: "agate", conclusion: "failure" }],
    });
    expect(events(before).slice(4)).toEqual(["workflow_job.completed", "workflow_run.completed"]);
    const completed = sim.deliveries.at(-2)?.payload.workflow_job as {
      conclusion: string;
      steps: { name: string; conclusion: string }[];
    };
    expect(completed.conclusion).toBe("failure");
    expect(completed.steps.map((step) => [step.name, step.conclusion])).toEqual([
      ["Set up job", "success"],
      ["Run actions/checkout@v4", "success"],
      ["agate", "failure"],
      ["Complete job", "success"],
    ]);
    const runPayload = sim.deliveries.at(-1)?.payload as {
      workflow_run: Record<string, unknown>;
      workflow: Record<string, unknown>;
    };
    expect(runPayload.workflow_run).toMatchObject({
      id: run.id,
      path: PATH,
      event: "pull_request",
      status: "completed",
      conclusion: "failure",
      run_attempt: 1,
      head_sha: head,
      head_branch: "agent/1",
      display_title: "Task",
      pull_requests: [expect.objectContaining({ number })],
    });
    expect(runPayload.workflow).toMatchObject({ path: PATH, name: "agate" });
  });
});

describe("the REST views of runs and jobs", () => {
  it("lists runs of a workflow by file name or id, filtered like GitHub's", async () => {
    const run = await agateRun();
    const other = await sim.createWorkflowRun({
      repo,
      path: ".github/workflows/ci.yml",
      event: "push",
      headSha: head,
      jobs: [{ name: "build" }],
    });
    const api = octokit();
    const runsOf = async (query: {
      workflow_id: string | number;
      head_sha?: string;
      event?: string;
      status?: "queued";
      branch?: string;
    }) => (await api.rest.actions.listWorkflowRuns({ owner: sim.owner, repo, ...query })).data;
    const byName = await runsOf({ workflow_id: "agate.yml" });
    expect(byName.workflow_runs.map((entry) => entry.id)).toEqual([run.id]);
    const workflowId = byName.workflow_runs[0]?.workflow_id ?? 0;
    const byId = await runsOf({
      workflow_id: workflowId,
      head_sha: head,
      event: "pull_request",
      status: "queued",
      branch: "agent/1",
    });
    expect(byId.total_count).toBe(1);
    const none = await runsOf({ workflow_id: "agate.yml", event: "push" });
    expect(none.total_count).toBe(0);
    const forRepo = await api.rest.actions.listWorkflowRunsForRepo({
      owner: sim.owner,
      repo,
      event: "push",
    });
    expect(forRepo.data.workflow_runs.map((entry) => entry.id)).toEqual([other.id]);
    const missing = await runsOf({ workflow_id: "nope.yml" }).catch(
      (error: { status: number }) => error.status,
    );
    expect(missing).toBe(404);
  });

  it("re-runs failed jobs as a new attempt; `latest` keeps the jobs that were not re-run", async () => {
    const run = await agateRun(["lint", "agate"]);
    for (const job of ["lint", "agate"]) await sim.startJob({ repo, runId: run.id, job });
    await sim.completeJob({ repo, runId: run.id, job: "lint", conclusion: "success" });
    await sim.completeJob({
      repo,
      runId: run.id,
      job: "agate",
      steps: [{ name: "agate", conclusion: "failure" }],
    });
    const before = sim.deliveries.length;
    const rerun = await sim.rerunWorkflowRun({ repo, runId: run.id, onlyJobs: "failed" });
    await sim.flushWebhooks();
    expect(rerun.attempt).toBe(2);
    expect(Object.keys(rerun.jobIds)).toEqual(["agate"]);
    expect(rerun.jobIds.agate).not.toBe(run.jobIds.agate);
    expect(events(before)).toEqual(["workflow_run.requested", "workflow_job.queued"]);
    expect(sim.deliveries.at(-2)?.payload.workflow_run).toMatchObject({ run_attempt: 2 });

    await sim.startJob({ repo, runId: run.id, job: "agate" });
    await sim.completeJob({ repo, runId: run.id, job: "agate", conclusion: "success" });

    const api = octokit();
    const latest = await api.rest.actions.listJobsForWorkflowRun({
      owner: sim.owner,
      repo,
      run_id: run.id,
    });
    expect(latest.data.jobs.map((job) => [job.name, job.run_attempt, job.conclusion])).toEqual([
      ["lint", 1, "success"],
      ["agate", 2, "success"],
    ]);
    const all = await api.rest.actions.listJobsForWorkflowRun({
      owner: sim.owner,
      repo,
      run_id: run.id,
      filter: "all",
    });
    expect(all.data.jobs.map((job) => [job.name, job.run_attempt])).toEqual([
      ["lint", 1],
      ["agate", 1],
      ["agate", 2],
    ]);
    const second = await api.rest.actions.listJobsForWorkflowRunAttempt({
      owner: sim.owner,
      repo,
      run_id: run.id,
      attempt_number: 2,
    });
    expect(second.data.jobs.map((job) => job.id)).toEqual([rerun.jobIds.agate]);

    const attempt1 = await api.rest.actions.getWorkflowRunAttempt({
      owner: sim.owner,
      repo,
      run_id: run.id,
      attempt_number: 1,
    });
    expect(attempt1.data).toMatchObject({ run_attempt: 1, conclusion: "failure" });
    expect(attempt1.data.previous_attempt_url).toBeNull();
    const current = await api.rest.actions.getWorkflowRun({
      owner: sim.owner,
      repo,
      run_id: run.id,
    });
    expect(current.data).toMatchObject({
      run_attempt: 2,
      status: "completed",
      conclusion: "success",
    });
    expect(current.data.previous_attempt_url).toMatch(/\/attempts\/1$/);
    const noAttempt = await api.rest.actions
      .getWorkflowRunAttempt({ owner: sim.owner, repo, run_id: run.id, attempt_number: 3 })
      .catch((error: { status: number }) => error.status);
    expect(noAttempt).toBe(404);
  });

  it("refuses to re-run a run that is still in progress", async () => {
    const run = await agateRun();
    await expect(sim.rerunWorkflowRun({ repo, runId: run.id })).rejects.toThrow(/still queued/);
  });

  it("keeps the older seeding helpers: addWorkflowRun is silent, completeWorkflowRun sends job and run", async () => {
    const before = sim.deliveries.length;
    const seeded = sim.addWorkflowRun({
      repo,
      headSha: head,
      path: PATH,
      conclusion: null,
      jobs: [{ name: "agate", steps: [{ name: "agate" }] }],
    });
    expect(sim.deliveries.length).toBe(before);
    await sim.completeWorkflowRun({
      repo,
      runId: seeded.id,
      conclusion: "success",
      jobs: [{ name: "agate", steps: [{ name: "agate", conclusion: "success" }] }],
    });
    expect(events(before)).toEqual(["workflow_job.completed", "workflow_run.completed"]);
  });
});

describe("job check runs (jobCheckRuns: true)", () => {
  it("makes each job a GitHub Actions check run named after it, as GitHub does", async () => {
    // The option of startGitHubSimulator; reset() puts it back.
    sim.world.workflows.jobCheckRuns = true;
    const before = sim.deliveries.length;
    const run = await sim.createWorkflowRun({
      repo,
      path: PATH,
      event: "push",
      headSha: head,
      jobs: [{ name: "agate" }],
    });
    await sim.startJob({ repo, runId: run.id, job: "agate" });
    await sim.completeJob({ repo, runId: run.id, job: "agate", conclusion: "success" });
    const checks = sim.checkRuns({ repo });
    expect(checks.map((check) => [check.id, check.name, check.app.slug, check.conclusion])).toEqual(
      [[run.jobIds.agate, "agate", "github-actions", "success"]],
    );
    expect(events(before)).toEqual([
      "workflow_run.requested",
      "check_run.created",
      "workflow_job.queued",
      "workflow_run.in_progress",
      "workflow_job.in_progress",
      "workflow_job.completed",
      "check_run.completed",
      "workflow_run.completed",
    ]);
    sim.reset();
    expect(sim.world.workflows.jobCheckRuns).toBe(false);
  });
});
