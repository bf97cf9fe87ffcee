// Workflow runs and jobs, seeded by tests (`sim.addWorkflowRun`): the App reads them to tell
// whether a command record came from a trusted workflow run on the right commit.
import * as s from "../serialize.js";
import type { Repository, WorkflowRun } from "../state.js";
import { NotFound } from "../world.js";
import {
  type Ctx,
  json,
  numberParam,
  type OperationTable,
  paginate,
  queryString,
  repoOf,
} from "./context.js";

function runJson(ctx: Ctx, repo: Repository, run: WorkflowRun) {
  return s.workflowRun(
    ctx.world.urls,
    repo,
    run,
    repo.git.readCommit(run.headSha),
    ctx.world.pullsForSha(repo, run.headSha),
    ctx.world.pushedAtOf(repo),
  );
}

function findJob(repo: Repository, id: number) {
  for (const run of repo.workflowRuns.values()) {
    const job = run.jobs.find((entry) => entry.id === id);
    if (job) return { run, job };
  }
  throw new NotFound("Not Found");
}

export const actionOperations: OperationTable = {
  "actions/list-workflow-runs-for-repo": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const suite = queryString(ctx, "check_suite_id");
      const headSha = queryString(ctx, "head_sha");
      const status = queryString(ctx, "status");
      const event = queryString(ctx, "event");
      const branch = queryString(ctx, "branch");
      const runs = [...repo.workflowRuns.values()]
        .filter((run) => !suite || String(run.checkSuiteId) === suite)
        .filter((run) => !headSha || run.headSha === headSha)
        .filter((run) => !status || run.status === status || run.conclusion === status)
        .filter((run) => !event || run.event === event)
        .filter((run) => !branch || run.headBranch === branch)
        .sort((a, b) => b.id - a.id);
      const { page, headers } = paginate(ctx, runs);
      return json(
        200,
        { total_count: runs.length, workflow_runs: page.map((run) => runJson(ctx, repo, run)) },
        headers,
      );
    },
  },

  "actions/get-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const run = repo.workflowRuns.get(numberParam(ctx, "run_id"));
      if (!run) throw new NotFound("Not Found");
      return json(200, runJson(ctx, repo, run));
    },
  },

  "actions/list-jobs-for-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const run = repo.workflowRuns.get(numberParam(ctx, "run_id"));
      if (!run) throw new NotFound("Not Found");
      const { page, headers } = paginate(ctx, run.jobs);
      return json(
        200,
        {
          total_count: run.jobs.length,
          jobs: page.map((job) => s.job(ctx.world.urls, repo, run, job)),
        },
        headers,
      );
    },
  },

  "actions/get-job-for-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const { run, job } = findJob(repo, numberParam(ctx, "job_id"));
      return json(200, s.job(ctx.world.urls, repo, run, job));
    },
  },

  "actions/download-job-logs-for-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const { job } = findJob(repo, numberParam(ctx, "job_id"));
      // GitHub answers with a redirect to short-lived blob storage; the front server serves it.
      return {
        status: 302,
        raw: "",
        contentType: "text/plain",
        headers: { location: `${ctx.world.urls.html}/_simulator/job-logs/${repo.id}/${job.id}` },
      };
    },
  },
};
