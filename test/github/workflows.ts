// GitHub Actions workflow runs as GitHub keeps them: a run has attempts, each attempt executes
// jobs (a re-run makes new executions with new ids; jobs it does not re-run keep their earlier
// execution), each job has steps. Tests drive a job's life (queued, in progress, step by step,
// completed) and every transition fires the webhooks GitHub fires: `workflow_run` requested /
// in_progress / completed and `workflow_job` queued / in_progress / completed.
import { randomUUID } from "node:crypto";
import { NotFound, Unprocessable } from "./errors.js";
import * as s from "./serialize.js";
import type {
  Account,
  CheckRun,
  Repository,
  RunAttempt,
  WorkflowJob,
  WorkflowRun,
  WorkflowStep,
} from "./state.js";
import { newestAttempt, nowIso } from "./state.js";
import type { Delivery } from "./webhooks.js";
import type { World } from "./world.js";

type Json = Record<string, unknown>;

export interface JobSpec {
  name: string;
  /**
   * The workflow's steps as GitHub names them ("Run actions/checkout@v4", a step's `name:`,
   * "Post Run actions/checkout@v4"); "Set up job" and "Complete job" are added around them.
   */
  steps?: string[];
  labels?: string[];
}

export interface StepResult {
  name: string;
  conclusion: string;
  startedAt?: string;
  completedAt?: string;
}

/** GitHub's job steps around the workflow's own. */
export const SETUP_STEP = "Set up job";
const COMPLETE_STEP = "Complete job";

/**
 * Job conclusions "re-run failed jobs" re-runs. (`startup_failure` is a run's conclusion when its
 * workflow cannot start; no job has it: the job schema's conclusions do not include it.)
 */
const FAILED = new Set(["failure", "cancelled", "timed_out"]);

/** How a job ends: its conclusion, and the steps it reports (added to, or replacing, its own). */
export interface JobEnd {
  conclusion?: string;
  steps?: StepResult[];
  replaceSteps?: boolean;
}

export class Workflows {
  /**
   * A job is also a check run of GitHub Actions on the run's head (same id, named after the job),
   * with `check_run` created / completed webhooks. Off by default: see the README.
   */
  jobCheckRuns = false;
  /** The planned steps of each job execution (GitHub lists them once the job starts). */
  private readonly plans = new WeakMap<WorkflowJob, string[]>();
  private runnerIds = 1;

  constructor(private readonly world: World) {}

  // ---- lookups --------------------------------------------------------------------------------

  run(repo: Repository, runId: number): WorkflowRun {
    const found = repo.workflowRuns.get(runId);
    if (!found) throw new NotFound(`workflow run ${runId}`);
    return found;
  }

  attempt(run: WorkflowRun, number = newestAttempt(run).number): RunAttempt {
    const found = run.attempts.find((entry) => entry.number === number);
    if (!found) throw new NotFound(`workflow run ${run.id} has no attempt ${number}`);
    return found;
  }

  /** Each job's most recent execution up to `attempt` (what `filter=latest` lists). */
  latestJobs(run: WorkflowRun, attempt = newestAttempt(run).number): WorkflowJob[] {
    const byName = new Map<string, WorkflowJob>();
    for (const job of run.jobs) {
      if (job.runAttempt > attempt) continue;
      const seen = byName.get(job.name);
      if (!seen || job.runAttempt >= seen.runAttempt) byName.set(job.name, job);
    }
    return [...byName.values()];
  }

  /** The executions that ran in one attempt (`list-jobs-for-workflow-run-attempt`). */
  jobsOfAttempt(run: WorkflowRun, attempt: number): WorkflowJob[] {
    return run.jobs.filter((job) => job.runAttempt === attempt);
  }

  /** A job's execution in an attempt (default: the newest attempt that executed it). */
  job(run: WorkflowRun, name: string, attempt?: number): WorkflowJob {
    const found =
      attempt === undefined
        ? this.latestJobs(run).find((job) => job.name === name)
        : run.jobs.find((job) => job.name === name && job.runAttempt === attempt);
    if (!found) {
      throw new NotFound(
        `workflow run ${run.id} has no job ${JSON.stringify(name)}${attempt ? ` in attempt ${attempt}` : ""}`,
      );
    }
    return found;
  }

  findJob(repo: Repository, jobId: number): { run: WorkflowRun; job: WorkflowJob } {
    for (const run of repo.workflowRuns.values()) {
      const job = run.jobs.find((entry) => entry.id === jobId);
      if (job) return { run, job };
    }
    throw new NotFound("Not Found");
  }

  /** Finds a job execution by the backend ids a runtime token names. */
  byBackendIds(
    runBackendId: string,
    jobBackendId: string,
  ): { repo: Repository; run: WorkflowRun; attempt: RunAttempt; job: WorkflowJob } | undefined {
    for (const repo of this.world.repos.values()) {
      for (const run of repo.workflowRuns.values()) {
        const attempt = run.attempts.find((entry) => entry.backendId === runBackendId);
        if (!attempt) continue;
        const job = run.jobs.find(
          (entry) => entry.backendId === jobBackendId && entry.runAttempt === attempt.number,
        );
        return job ? { repo, run, attempt, job } : undefined;
      }
    }
    return undefined;
  }

  // ---- creating runs --------------------------------------------------------------------------

  /**
   * A new workflow run in `queued`, with its jobs queued: `workflow_run.requested`, then
   * `workflow_job.queued` for each job. `silent` creates it without webhooks (a seed).
   */
  createRun(
    repo: Repository,
    input: {
      path: string;
      name?: string;
      event: string;
      headSha: string;
      headBranch?: string | null;
      headRepo?: Repository;
      sha?: string;
      ref?: string;
      actor: Account;
      jobs: JobSpec[];
      displayTitle?: string;
      eventPayload?: unknown;
      checkSuiteId?: number;
      silent?: boolean;
    },
  ): { run: WorkflowRun; deliveries: Promise<Delivery[]> } {
    const headSha = repo.git.resolveObject(input.headSha, "commit");
    if (!headSha) throw new Unprocessable(`No commit found for SHA: ${input.headSha}`);
    const headRepo = input.headRepo ?? repo;
    const headBranch =
      input.headBranch !== undefined
        ? input.headBranch
        : (headRepo.git
            .refs("refs/heads/")
            .find((ref) => ref.sha === headSha)
            ?.ref.replace("refs/heads/", "") ?? null);
    const suite = input.checkSuiteId
      ? repo.checkSuites.get(input.checkSuiteId)
      : this.world.newSuite(repo, this.world.actionsApp, headSha, headBranch);
    if (!suite) throw new NotFound(`check suite ${input.checkSuiteId}`);
    const now = nowIso();
    const run: WorkflowRun = {
      id: this.world.ids.take(),
      workflowId: workflowIdOf(input.path),
      name: input.name ?? input.path.split("/").pop() ?? input.path,
      path: input.path,
      headSha,
      headBranch,
      headRepo,
      sha: input.sha ?? headSha,
      ref: input.ref ?? (headBranch ? `refs/heads/${headBranch}` : headSha),
      event: input.event,
      displayTitle: input.displayTitle ?? this.displayTitleOf(repo, input.event, headSha),
      checkSuiteId: suite.id,
      runNumber: repo.nextRunNumber++,
      actor: input.actor,
      createdAt: now,
      attempts: [queuedAttempt(1, input.actor)],
      jobs: [],
      eventPayload: input.eventPayload,
      pullRequests:
        headRepo === repo
          ? this.world
              .pullsForSha(repo, headSha)
              .map((json) => ({ number: json.number as number, json }))
          : [],
    };
    repo.workflowRuns.set(run.id, run);
    const sends: Promise<Delivery>[] = [];
    if (!input.silent) sends.push(this.emitRun(repo, run, "requested"));
    for (const spec of input.jobs) {
      const job = this.newJob(repo, run, spec, 1, input.silent ? undefined : sends);
      if (!input.silent) sends.push(this.emitJob(repo, run, job, "queued"));
    }
    return { run, deliveries: Promise.all(sends) };
  }

  /** GitHub's `display_title`: a pull request's title, else the head commit's subject. */
  private displayTitleOf(repo: Repository, event: string, headSha: string): string {
    if (event.startsWith("pull_request")) {
      for (const item of repo.issues.values()) {
        if (item.pull && item.state === "open" && this.world.pullHeadSha(repo, item) === headSha) {
          return item.title;
        }
      }
    }
    return repo.git.readCommit(headSha).message.split("\n")[0] ?? "";
  }

  private newJob(
    repo: Repository,
    run: WorkflowRun,
    spec: JobSpec,
    attempt: number,
    /** Where the job's check run delivery goes; none for a silent seed. */
    sends?: Promise<Delivery>[],
  ): WorkflowJob {
    const now = nowIso();
    const job: WorkflowJob = {
      id: this.world.ids.take(),
      runId: run.id,
      runAttempt: attempt,
      name: spec.name,
      status: "queued",
      conclusion: null,
      createdAt: now,
      startedAt: now,
      completedAt: null,
      steps: [],
      log: "",
      backendId: randomUUID(),
      runner: null,
      labels: spec.labels ?? ["ubuntu-latest"],
    };
    this.plans.set(job, [SETUP_STEP, ...(spec.steps ?? []), COMPLETE_STEP]);
    run.jobs.push(job);
    if (this.jobCheckRuns) {
      const delivery = this.createJobCheckRun(repo, run, job, sends !== undefined);
      if (delivery && sends) sends.push(delivery);
    }
    return job;
  }

  // ---- a job's life -----------------------------------------------------------------------------

  /**
   * A runner picks the job up: in progress, its steps listed ("Set up job" running, the rest
   * queued). The first job of an attempt to start puts the run in progress too.
   */
  startJob(repo: Repository, run: WorkflowRun, name: string): Promise<Delivery[]> {
    const job = this.job(run, name, newestAttempt(run).number);
    if (job.status !== "queued") {
      throw new Unprocessable(`job ${name} of run ${run.id} is already ${job.status}`);
    }
    const now = nowIso();
    const sends: Promise<Delivery>[] = [];
    const attempt = this.attempt(run);
    if (attempt.status === "queued") {
      attempt.status = "in_progress";
      attempt.runStartedAt = now;
      attempt.updatedAt = now;
      sends.push(this.emitRun(repo, run, "in_progress"));
    }
    job.status = "in_progress";
    job.startedAt = now;
    this.assignRunner(job);
    job.steps = (this.plans.get(job) ?? [SETUP_STEP, COMPLETE_STEP]).map((step, index) => ({
      name: step,
      number: index + 1,
      status: index === 0 ? "in_progress" : "queued",
      conclusion: null,
      startedAt: index === 0 ? now : null,
      completedAt: null,
    }));
    const check = repo.checkRuns.get(job.id);
    if (check) {
      check.status = "in_progress";
      check.startedAt = now;
    }
    sends.push(this.emitJob(repo, run, job, "in_progress"));
    return Promise.all(sends);
  }

  /** A hosted runner takes the job: `runner_id` / `runner_name` (RUNNER_NAME in the job). */
  assignRunner(job: WorkflowJob): void {
    const id = this.runnerIds++;
    job.runner = { id, name: `GitHub Actions ${id}` };
  }

  /** The runner finished a step (no webhook: GitHub sends none per step); the next one starts. */
  completeStep(
    run: WorkflowRun,
    jobName: string,
    stepName: string,
    conclusion: string,
    times: { startedAt?: string; completedAt?: string } = {},
  ): WorkflowStep {
    const job = this.job(run, jobName, newestAttempt(run).number);
    if (job.status !== "in_progress") {
      throw new Unprocessable(`job ${jobName} of run ${run.id} is not in progress`);
    }
    const index = job.steps.findIndex(
      (step) => step.name === stepName && step.status !== "completed",
    );
    const step = job.steps[index];
    if (!step) throw new NotFound(`job ${jobName} has no pending step ${JSON.stringify(stepName)}`);
    const now = nowIso();
    // Steps before it that never ran were skipped (a step only runs after the one before it).
    for (const earlier of job.steps.slice(0, index)) {
      if (earlier.status !== "completed") this.finishStep(earlier, "skipped", now);
    }
    step.startedAt = times.startedAt ?? step.startedAt ?? now;
    step.status = "completed";
    step.conclusion = conclusion;
    step.completedAt = times.completedAt ?? now;
    const next = job.steps[index + 1];
    if (next && next.status === "queued") {
      next.status = "in_progress";
      next.startedAt = now;
    }
    return step;
  }

  private finishStep(step: WorkflowStep, conclusion: string, now: string): void {
    step.status = "completed";
    step.conclusion = conclusion;
    step.startedAt = step.startedAt ?? (conclusion === "skipped" ? null : now);
    step.completedAt = now;
  }

  /**
   * The job ends: steps not reported are completed (post steps and "Complete job" succeed, steps
   * after a failure are skipped), `workflow_job.completed`; when it was the attempt's last job,
   * the run completes with the jobs' roll-up: `workflow_run.completed`.
   */
  completeJob(
    repo: Repository,
    run: WorkflowRun,
    name: string,
    input: JobEnd = {},
  ): Promise<Delivery[]> {
    const sends = [this.completeJobOnly(repo, run, name, input)];
    if (this.latestJobs(run).every((entry) => entry.status === "completed")) {
      sends.push(this.completeAttempt(repo, run).then((delivery) => [delivery]));
    }
    return Promise.all(sends).then((all) => all.flat());
  }

  /** `completeJob` without completing the run (a caller that sets the run's conclusion itself). */
  completeJobOnly(
    repo: Repository,
    run: WorkflowRun,
    name: string,
    input: JobEnd = {},
  ): Promise<Delivery[]> {
    const job = this.job(run, name, newestAttempt(run).number);
    if (job.status === "completed") {
      throw new Unprocessable(`job ${name} of run ${run.id} is already completed`);
    }
    const now = nowIso();
    if (input.replaceSteps && input.steps) {
      job.steps = input.steps.map((step, index) => ({
        name: step.name,
        number: index + 1,
        status: "completed",
        conclusion: step.conclusion,
        startedAt: step.startedAt ?? job.startedAt,
        completedAt: step.completedAt ?? now,
      }));
    } else {
      if (job.status !== "in_progress" && job.steps.length === 0) {
        job.steps = (this.plans.get(job) ?? []).map((step, index) => ({
          name: step,
          number: index + 1,
          status: "queued",
          conclusion: null,
          startedAt: null,
          completedAt: null,
        }));
      }
      for (const given of input.steps ?? []) {
        const step = job.steps.find(
          (entry) => entry.name === given.name && entry.status !== "completed",
        );
        if (!step)
          throw new NotFound(`job ${name} has no pending step ${JSON.stringify(given.name)}`);
        step.status = "completed";
        step.conclusion = given.conclusion;
        step.startedAt = given.startedAt ?? step.startedAt ?? now;
        step.completedAt = given.completedAt ?? now;
      }
    }
    const failedStep = job.steps.some((step) => step.conclusion === "failure");
    const conclusion = input.conclusion ?? (failedStep ? "failure" : "success");
    let failedSoFar = false;
    for (const step of job.steps) {
      if (step.status === "completed") {
        if (step.conclusion === "failure") failedSoFar = true;
        continue;
      }
      const always = step.name === COMPLETE_STEP || step.name.startsWith("Post ");
      this.finishStep(
        step,
        always || (!failedSoFar && conclusion === "success") ? "success" : "skipped",
        now,
      );
    }
    job.status = "completed";
    job.conclusion = conclusion;
    job.completedAt = now;
    const sends = [this.emitJob(repo, run, job, "completed")];
    const check = repo.checkRuns.get(job.id);
    if (check) {
      check.status = "completed";
      check.conclusion = conclusion as CheckRun["conclusion"];
      check.completedAt = now;
      sends.push(this.world.emitCheckRun(repo, check, "completed", this.world.actionsApp.bot));
    }
    return Promise.all(sends);
  }

  /** The attempt ends with the roll-up of its jobs (or `conclusion`): `workflow_run.completed`. */
  completeAttempt(repo: Repository, run: WorkflowRun, conclusion?: string): Promise<Delivery> {
    const attempt = this.attempt(run);
    const now = nowIso();
    attempt.status = "completed";
    attempt.conclusion = conclusion ?? rollUp(this.latestJobs(run));
    attempt.updatedAt = now;
    return this.emitRun(repo, run, "completed");
  }

  /**
   * Re-runs a completed run as a new attempt: every job ("Re-run all jobs"), the failed ones
   * ("Re-run failed jobs"), or the named ones. Jobs not re-run keep their execution from the
   * earlier attempt. `workflow_run.requested` and `workflow_job.queued` follow.
   */
  rerun(
    repo: Repository,
    run: WorkflowRun,
    input: { jobs?: string[] | "failed"; actor: Account },
  ): Promise<Delivery[]> {
    const current = this.attempt(run);
    if (current.status !== "completed") {
      throw new Unprocessable(`workflow run ${run.id} is still ${current.status}`);
    }
    const latest = this.latestJobs(run);
    const chosen =
      input.jobs === undefined
        ? latest
        : input.jobs === "failed"
          ? latest.filter((job) => FAILED.has(job.conclusion ?? ""))
          : latest.filter((job) => (input.jobs as string[]).includes(job.name));
    if (chosen.length === 0) throw new Unprocessable("There are no jobs to re-run");
    const attempt = queuedAttempt(current.number + 1, input.actor);
    run.attempts.push(attempt);
    const sends = [this.emitRun(repo, run, "requested")];
    for (const previous of chosen) {
      const plan = this.plans.get(previous) ?? [];
      const job = this.newJob(
        repo,
        run,
        {
          name: previous.name,
          steps: plan.filter((step) => step !== SETUP_STEP && step !== COMPLETE_STEP),
          labels: previous.labels,
        },
        attempt.number,
        sends,
      );
      sends.push(this.emitJob(repo, run, job, "queued"));
    }
    return Promise.all(sends);
  }

  // ---- seeds (the older helpers `addWorkflowRun` / `completeWorkflowRun`) ----------------------

  /** Sets a freshly created run's state directly, without webhooks. */
  seedState(
    run: WorkflowRun,
    status: RunAttempt["status"],
    conclusion: string | null,
    jobs: {
      name: string;
      conclusion?: string | null;
      steps?: Partial<WorkflowStep>[];
      log?: string;
    }[],
  ): void {
    const attempt = this.attempt(run);
    attempt.status = status;
    attempt.conclusion = status === "completed" ? conclusion : null;
    for (const [index, job] of run.jobs.entries()) {
      const given = jobs[index];
      job.status = status;
      job.conclusion = status === "completed" ? (given?.conclusion ?? conclusion) : null;
      job.completedAt = status === "completed" ? job.startedAt : null;
      job.log = given?.log ?? "";
      if (status !== "queued") this.assignRunner(job);
      job.steps = (given?.steps ?? []).map((step, number) => ({
        name: step.name ?? `step ${number + 1}`,
        number: step.number ?? number + 1,
        status: step.status ?? (status === "completed" ? "completed" : "in_progress"),
        conclusion: step.conclusion ?? (status === "completed" ? "success" : null),
        startedAt: step.startedAt ?? job.startedAt,
        completedAt: step.completedAt ?? (status === "completed" ? job.startedAt : null),
      }));
    }
  }

  /** Job check runs of a seeded run follow the jobs' state. */
  seedCheckRuns(repo: Repository, run: WorkflowRun): void {
    for (const job of run.jobs) {
      const check = repo.checkRuns.get(job.id);
      if (!check) continue;
      check.status = job.status;
      check.conclusion = job.conclusion as CheckRun["conclusion"];
      check.completedAt = job.completedAt;
    }
  }

  // ---- JSON and webhooks ------------------------------------------------------------------------

  runJson(repo: Repository, run: WorkflowRun, attempt = newestAttempt(run).number): Json {
    return s.workflowRun(
      this.world.urls,
      repo,
      run,
      attempt,
      repo.git.readCommit(run.headSha),
      this.pullsOf(repo, run),
      this.world.pushedAtOf(repo),
    );
  }

  /**
   * The run's `pull_requests`: the open pull requests whose head is the run's (GitHub fills it only
   * for heads in the repository itself: a fork's run lists none), each as GitHub associated it
   * with the run, its base the one it had when the run was made; one opened since is listed as
   * it is now.
   */
  private pullsOf(repo: Repository, run: WorkflowRun): Json[] {
    if (run.headRepo !== repo) return [];
    return this.world.pullsForSha(repo, run.headSha).map((now) => {
      const then = run.pullRequests.find((p) => p.number === now.number);
      return then ? then.json : now;
    });
  }

  workflowJson(repo: Repository, run: WorkflowRun): Json {
    const { urls } = this.world;
    const name = `${repo.owner.login}/${repo.name}`;
    return {
      id: run.workflowId,
      node_id: Buffer.from(`10:Workflow${run.workflowId}`).toString("base64"),
      name: run.name,
      path: run.path,
      state: "active",
      created_at: repo.createdAt,
      updated_at: repo.createdAt,
      url: `${urls.api}/repos/${name}/actions/workflows/${run.workflowId}`,
      html_url: `${urls.html}/${name}/blob/${repo.defaultBranch}/${run.path}`,
      badge_url: `${urls.html}/${name}/workflows/${encodeURIComponent(run.name)}/badge.svg`,
    };
  }

  private emitRun(repo: Repository, run: WorkflowRun, action: string): Promise<Delivery> {
    return this.world.emit(repo, "workflow_run", this.attempt(run).triggeringActor, {
      action,
      workflow_run: this.runJson(repo, run),
      workflow: this.workflowJson(repo, run),
    });
  }

  private emitJob(
    repo: Repository,
    run: WorkflowRun,
    job: WorkflowJob,
    action: string,
  ): Promise<Delivery> {
    const sender = this.attempt(run, job.runAttempt).triggeringActor;
    return this.world.emit(repo, "workflow_job", sender, {
      action,
      workflow_job: s.job(this.world.urls, repo, run, job),
    });
  }

  private createJobCheckRun(
    repo: Repository,
    run: WorkflowRun,
    job: WorkflowJob,
    announce: boolean,
  ): Promise<Delivery> | undefined {
    const check: CheckRun = {
      id: job.id,
      suiteId: run.checkSuiteId,
      headSha: run.headSha,
      name: job.name,
      status: "queued",
      conclusion: null,
      startedAt: job.createdAt,
      completedAt: null,
      externalId: job.backendId,
      detailsUrl: `${this.world.urls.html}/${repo.owner.login}/${repo.name}/actions/runs/${run.id}/job/${job.id}`,
      output: { title: null, summary: null, text: null, annotationsCount: 0 },
      app: this.world.actionsApp,
    };
    repo.checkRuns.set(check.id, check);
    return announce
      ? this.world.emitCheckRun(repo, check, "created", this.world.actionsApp.bot)
      : undefined;
  }
}

/** A new attempt of a run, queued (its `workflow_run_backend_id` a fresh one). */
function queuedAttempt(number: number, triggeringActor: Account): RunAttempt {
  const now = nowIso();
  return {
    number,
    status: "queued",
    conclusion: null,
    createdAt: now,
    updatedAt: now,
    runStartedAt: now,
    triggeringActor,
    backendId: randomUUID(),
  };
}

/** A run's conclusion from its jobs: a failed or timed-out job fails it, then cancelled. */
function rollUp(jobs: WorkflowJob[]): string {
  if (jobs.some((job) => job.conclusion === "failure" || job.conclusion === "timed_out")) {
    return "failure";
  }
  if (jobs.some((job) => job.conclusion === "cancelled")) return "cancelled";
  return "success";
}

/** A stable workflow id per workflow file path. */
export function workflowIdOf(path: string): number {
  let hash = 0;
  for (const char of path) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (hash % 9_000_000) + 1_000_000;
}
