// Workflow runs, their attempts and jobs, and workflow artifacts: what the App reads (with
// `actions: read`) to decide whether a command record came from the pinned workflow's run on the
// graded commit, in its newest attempt, from the named job and step.
import * as s from "../serialize.js";
import {
  type Artifact,
  newestAttempt,
  type Repository,
  type WorkflowJob,
  type WorkflowRun,
} from "../state.js";
import { NotFound } from "../world.js";
import {
  type Ctx,
  countedPage,
  errorBody,
  json,
  numberParam,
  type OperationTable,
  queryString,
  repoOf,
} from "./context.js";

function runJson(ctx: Ctx, repo: Repository, run: WorkflowRun, attempt?: number) {
  const json = ctx.world.workflows.runJson(repo, run, attempt);
  // `exclude_pull_requests=true` leaves `pull_requests` empty, as GitHub does.
  if (queryString(ctx, "exclude_pull_requests") === "true") json.pull_requests = [];
  return json;
}

function runOf(ctx: Ctx, repo: Repository): WorkflowRun {
  const run = repo.workflowRuns.get(numberParam(ctx, "run_id"));
  if (!run) throw new NotFound("Not Found");
  return run;
}

/** The filters `list-workflow-runs` and `list-workflow-runs-for-repo` share. */
function filterRuns(ctx: Ctx, runs: WorkflowRun[]): WorkflowRun[] {
  const suite = queryString(ctx, "check_suite_id");
  const headSha = queryString(ctx, "head_sha");
  const status = queryString(ctx, "status");
  const event = queryString(ctx, "event");
  const branch = queryString(ctx, "branch");
  const actor = queryString(ctx, "actor");
  return runs
    .filter((run) => !suite || String(run.checkSuiteId) === suite)
    .filter((run) => !headSha || run.headSha === headSha)
    .filter((run) => {
      const { status: current, conclusion } = newestAttempt(run);
      return !status || current === status || conclusion === status;
    })
    .filter((run) => !event || run.event === event)
    .filter((run) => !branch || run.headBranch === branch)
    .filter((run) => !actor || run.actor.login.toLowerCase() === actor.toLowerCase())
    .sort((a, b) => b.id - a.id);
}

function listRuns(ctx: Ctx, repo: Repository, runs: WorkflowRun[]) {
  return countedPage(ctx, "workflow_runs", filterRuns(ctx, runs), (run) => runJson(ctx, repo, run));
}

/** The run's attempt named by `attempt_number` (404 when it has none of that number). */
function attemptOf(ctx: Ctx, run: WorkflowRun): number {
  const number = numberParam(ctx, "attempt_number");
  if (!run.attempts.some((attempt) => attempt.number === number)) throw new NotFound("Not Found");
  return number;
}

function listJobs(ctx: Ctx, repo: Repository, run: WorkflowRun, jobs: WorkflowJob[]) {
  return countedPage(ctx, "jobs", jobs, (job) => s.job(ctx.world.urls, repo, run, job));
}

/** Artifacts the REST API lists: finalized, not deleted (expired ones are listed, `expired`). */
function listed(repo: Repository, filter: (item: Artifact) => boolean): Artifact[] {
  return [...repo.artifacts.values()]
    .filter((item) => item.state === "finalized" && filter(item))
    .sort((a, b) => a.id - b.id);
}

function artifactJson(ctx: Ctx, repo: Repository, item: Artifact) {
  const run = repo.workflowRuns.get(item.runId);
  if (!run) throw new NotFound("Not Found");
  return s.artifact(ctx.world.urls, repo, run, item);
}

function listArtifacts(ctx: Ctx, repo: Repository, items: Artifact[]) {
  return countedPage(ctx, "artifacts", items, (item) => artifactJson(ctx, repo, item));
}

function artifactOf(ctx: Ctx, repo: Repository): Artifact {
  const item = repo.artifacts.get(numberParam(ctx, "artifact_id"));
  if (item?.state !== "finalized") throw new NotFound("Not Found");
  return item;
}

export const actionOperations: OperationTable = {
  "actions/list-workflow-runs-for-repo": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      return listRuns(ctx, repo, [...repo.workflowRuns.values()]);
    },
  },

  "actions/list-workflow-runs": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      // The workflow by id, or by its file name ("agate.yml"), as GitHub takes it.
      const given = ctx.params.workflow_id ?? "";
      const runs = [...repo.workflowRuns.values()].filter(
        (run) => String(run.workflowId) === given || run.path.split("/").pop() === given,
      );
      const tip = ctx.world.branchSha(repo, repo.defaultBranch);
      const exists =
        runs.length > 0 ||
        (tip !== undefined && repo.git.entryAt(tip, `.github/workflows/${given}`) !== undefined);
      if (!exists) throw new NotFound("Not Found");
      return listRuns(ctx, repo, runs);
    },
  },

  "actions/get-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      return json(200, runJson(ctx, repo, runOf(ctx, repo)));
    },
  },

  "actions/get-workflow-run-attempt": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const run = runOf(ctx, repo);
      return json(200, runJson(ctx, repo, run, attemptOf(ctx, run)));
    },
  },

  "actions/list-jobs-for-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const run = runOf(ctx, repo);
      // `latest` (the default): each job's most recent execution; `all`: every execution.
      const jobs =
        (queryString(ctx, "filter") ?? "latest") === "all"
          ? run.jobs
          : ctx.world.workflows.latestJobs(run);
      return listJobs(ctx, repo, run, jobs);
    },
  },

  "actions/list-jobs-for-workflow-run-attempt": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const run = runOf(ctx, repo);
      return listJobs(ctx, repo, run, ctx.world.workflows.jobsOfAttempt(run, attemptOf(ctx, run)));
    },
  },

  "actions/get-job-for-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const { run, job } = ctx.world.workflows.findJob(repo, numberParam(ctx, "job_id"));
      return json(200, s.job(ctx.world.urls, repo, run, job));
    },
  },

  "actions/download-job-logs-for-workflow-run": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const { job } = ctx.world.workflows.findJob(repo, numberParam(ctx, "job_id"));
      // GitHub answers with a redirect to short-lived blob storage; the front server serves it.
      return {
        status: 302,
        raw: "",
        contentType: "text/plain",
        headers: { location: `${ctx.world.urls.html}/_simulator/job-logs/${repo.id}/${job.id}` },
      };
    },
  },

  "actions/list-workflow-run-artifacts": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const run = runOf(ctx, repo);
      const name = queryString(ctx, "name");
      // Every attempt's artifacts: after a re-run one name can appear once per attempt.
      return listArtifacts(
        ctx,
        repo,
        listed(repo, (item) => item.runId === run.id && (!name || item.name === name)),
      );
    },
  },

  "actions/list-artifacts-for-repo": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const name = queryString(ctx, "name");
      return listArtifacts(
        ctx,
        repo,
        listed(repo, (item) => !name || item.name === name).reverse(),
      );
    },
  },

  "actions/get-artifact": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      return json(200, artifactJson(ctx, repo, artifactOf(ctx, repo)));
    },
  },

  "actions/download-artifact": {
    auth: "token",
    permission: ["actions", "read"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const item = artifactOf(ctx, repo);
      if (ctx.params.archive_format !== "zip") throw new NotFound("Not Found");
      if (item.expired) return json(410, errorBody(410, "Artifact has expired"));
      // A redirect to blob storage, valid for a minute, fetched without the GitHub token.
      return {
        status: 302,
        raw: "",
        contentType: "text/plain",
        headers: { location: ctx.world.artifacts.downloadUrl(repo, item) },
      };
    },
  },

  "actions/delete-artifact": {
    auth: "token",
    permission: ["actions", "write"],
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const item = artifactOf(ctx, repo);
      item.state = "deleted";
      return { status: 204, raw: "", contentType: "text/plain" };
    },
  },
};
