/**
 * The gate's job kinds (their specs in schemas/jobs/gate.ts), registered with the runtime by
 * app/compose.ts. Each registration hands its job the context and the gate's process-wide caches
 * (evidence runs, trace reports, whether a base requires agate), made here once per process.
 */
import { CONFIG_PATH } from "../../schemas/config.js";
import {
  GATE_JOBS,
  type HeadJob,
  type PullRequestJob,
  type RepositoryLabelsJob,
} from "../../schemas/jobs/gate.js";
import { jobOf, type Trigger } from "../../schemas/jobs/index.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { type JobContext, type JobRegistration, registration } from "../runtime/jobs.js";
import { type EvaluatorDeps, runEvaluatorJob } from "./evaluator-job.js";
import { EvidenceCache } from "./evidence.js";
import { runMergeGroupDeadlineJob, runMergeGroupJob } from "./merge-group.js";
import { runOverrideJob } from "./override.js";
import { type PassResult, runPullRequestPass } from "./pull-request.js";
import { reconcileOnce } from "./reconcile.js";
import { ensureRepositoryLabels } from "./repository-labels.js";
import type { RequiredCheckReader } from "./required-check.js";
import { TraceReportCache } from "./trace-report.js";

/** What a gate job runs with: its context, and the gate's caches and evaluator. */
export interface GateDeps extends JobContext {
  evidence: EvidenceCache;
  traceReports: TraceReportCache;
  /** Whether base branches require agate, read and reused across jobs; absent: not read. */
  requiredChecks?: RequiredCheckReader;
  /** How to reach the evaluator; absent: a configured llm or command evaluator is unavailable. */
  evaluator?: EvaluatorDeps;
}

export interface GateJobsOptions {
  evaluator?: EvaluatorDeps;
  /** How often every open pull request gets a pass (the reconcile job); absent: never by itself. */
  reconcileEveryMs?: number;
  /** Whether a base requires agate from this App; absent: the `setup` fact is not read. */
  requiredChecks?: RequiredCheckReader;
  /** The process's evidence cache; a new one when absent (a test hands one in to share it). */
  evidence?: EvidenceCache;
}

const cause = (trigger: Trigger) => `${trigger.event}${trigger.action ? `.${trigger.action}` : ""}`;
const describe = (result: PassResult) => result.skipped ?? result.decision?.title ?? "";

/** Every job kind of the gate. */
export function gateJobs(options: GateJobsOptions = {}): JobRegistration[] {
  const caches = {
    evidence: options.evidence ?? new EvidenceCache(),
    traceReports: new TraceReportCache(),
    ...(options.requiredChecks ? { requiredChecks: options.requiredChecks } : {}),
    ...(options.evaluator ? { evaluator: options.evaluator } : {}),
  };
  const gate = (context: JobContext): GateDeps => ({ ...context, ...caches });
  return [
    registration(GATE_JOBS.pullRequest, (job, context) => runPullRequestJob(job, gate(context))),
    registration(GATE_JOBS.head, runHeadJob),
    registration(GATE_JOBS.mergeGroup, (job, context) => runMergeGroupJob(job, gate(context))),
    registration(GATE_JOBS.mergeGroupDeadline, (job, context) =>
      runMergeGroupDeadlineJob(job, gate(context)),
    ),
    registration(GATE_JOBS.override, async (job, context) => {
      const deps = gate(context);
      const github = await context.github(job.repository, job.installation);
      return runOverrideJob(job, {
        ...deps,
        github,
        pass: async (number) =>
          pullRequestPass(
            deps,
            GATE_JOBS.pullRequest.payload.parse({
              repository: job.repository,
              installation: job.installation,
              number,
              trigger: job.trigger,
            }),
            github,
          ),
      });
    }),
    registration(
      GATE_JOBS.reconcile,
      (_job, context) => runReconcileJob(context),
      options.reconcileEveryMs === undefined ? {} : { everyMs: options.reconcileEveryMs },
    ),
    registration(GATE_JOBS.evaluator, async (job, context) => {
      const deps = gate(context);
      const github = await context.github(job.repository, job.installation);
      const result = await runEvaluatorJob({ ...deps, github, evaluator: deps.evaluator }, job);
      return `${job.repository}#${job.number} evaluator on tree ${job.tree_sha.slice(0, 7)}: ${result.outcome}`;
    }),
    registration(GATE_JOBS.repositoryLabels, runRepositoryLabelsJob),
  ];
}

/** The `gate.reconcile` job: a pass of every open pull request (app/gate/reconcile.ts). */
async function runReconcileJob(context: JobContext): Promise<string> {
  const { repositories, queued } = await reconcileOnce(context);
  return `reconcile: queued gate passes for ${queued} open pull requests in ${repositories} repositories (a pass already waiting counts)`;
}

/** The `gate.repository_labels` job: agate's labels where its config is (repository-labels.ts). */
async function runRepositoryLabelsJob(
  job: RepositoryLabelsJob,
  context: JobContext,
): Promise<string> {
  const github = await context.github(job.repository, job.installation);
  const result = await ensureRepositoryLabels(github);
  if (!result.config) {
    return `${job.repository} labels after ${cause(job.trigger)}: no ${CONFIG_PATH} on the default branch, none made; agate makes each the first time it needs it`;
  }
  return `${job.repository} labels after ${cause(job.trigger)}: ${result.created.length} created, ${result.styled.length} restyled`;
}

/** The `gate.pull_request` job: the pull request's pass (app/gate/pull-request.ts). */
async function runPullRequestJob(job: PullRequestJob, deps: GateDeps): Promise<string> {
  const github = await deps.github(job.repository, job.installation);
  const result = await pullRequestPass(deps, job, github);
  return `${job.repository}#${job.number} after ${cause(job.trigger)}: ${describe(result)}`;
}

async function pullRequestPass(
  deps: GateDeps,
  job: PullRequestJob,
  github: GitHubAdapter,
): Promise<PassResult> {
  return runPullRequestPass(
    {
      github,
      store: deps.store,
      reads: deps.reads,
      evidence: deps.evidence,
      traceReports: deps.traceReports,
      ...(deps.requiredChecks ? { setup: deps.requiredChecks } : {}),
      agateVersion: AGATE_VERSION,
      appSlug: await deps.appSlug(),
      now: deps.now,
      ...(deps.retried ? { retried: true } : {}),
      ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
    },
    job,
  );
}

/**
 * The `gate.head` job: a workflow or check event that names only a commit. The pull requests
 * agate saw with this head (by its reads or in events) each get a pass, in a job of its own key
 * so it runs in order with the pull request's other jobs; GitHub is asked only when it saw none.
 */
async function runHeadJob(job: HeadJob, context: JobContext): Promise<string> {
  const github = await context.github(job.repository, job.installation);
  if (job.only_if_app !== null && job.only_if_app !== (await context.appSlug())) {
    return "another app's check run";
  }
  const head = { repository: job.repository, headSha: job.head_sha };
  const seen = [
    ...(await context.store.listHeadObservations(head)),
    ...(await context.store.listBaseSightings(head)),
  ];
  const numbers =
    seen.length > 0
      ? [...new Set(seen.map((s) => s.pull_number))]
      : (await github.openPullRequests())
          .filter((p) => p.head_sha === job.head_sha)
          .map((p) => p.number);
  for (const number of numbers) {
    await context.store.enqueue(
      jobOf(GATE_JOBS.pullRequest, {
        repository: job.repository,
        installation: job.installation,
        number,
        head_sha: job.head_sha,
        trigger: job.trigger,
        only_if: job.only_if,
        run: job.run,
      }),
    );
  }
  return `${job.repository}@${job.head_sha.slice(0, 7)} after ${cause(job.trigger)}: queued pull requests ${numbers.map((n) => `#${n}`).join(", ") || "(none)"}`;
}
