/**
 * The handler of every gate job kind, in one table: each payload is parsed with its schema from
 * schemas/jobs.ts, then handled. A kind the route makes without a handler here fails a test.
 */
import { CONFIG_PATH } from "../../schemas/config.js";
import {
  JOB_KINDS,
  JOB_PAYLOADS,
  type JobKind,
  type JobPayload,
  type JobPayloadInput,
  pullRequestKey,
} from "../../schemas/jobs/gate.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import { handleDashboardJob } from "../dashboard/jobs.js";
import { handleEntryDeadlineJob, handleEntryJob } from "../entries/jobs.js";
import { runPullRequestEntriesJob } from "../entries/pull-request-entries.js";
import { AppAdapter, GitHubAdapter, type GitHubClient } from "../github/adapter.js";
import { ImmutableReads } from "../github/reads.js";
import { keepTrying } from "../kit/keep-trying.js";
import type { Runtime } from "../runtime/server.js";
import type { JobHandler } from "../runtime/worker.js";
import { runEvaluatorJob } from "./evaluator-job.js";
import { EvidenceCache } from "./evidence.js";
import type { GateDeps } from "./job-deps.js";
import { handleMergeGroupDeadline, runMergeGroupJob } from "./merge-group.js";
import { runOverrideJob } from "./override.js";
import { type PassResult, runPullRequestPass } from "./pull-request.js";
import { reconcileOnce } from "./reconcile.js";
import { ensureRepositoryLabels } from "./repository-labels.js";
import { RequiredCheckReader } from "./required-check.js";
import { TraceReportCache } from "./trace-report.js";

export type { GateDeps } from "./job-deps.js";

/** `RECONCILE` is queued by the App itself, one pass at a time. */
export const RECONCILE = JOB_KINDS.reconcile;

type Handler<K extends JobKind> = (payload: JobPayload<K>, deps: GateDeps) => Promise<string>;

async function adapterFor(deps: GateDeps, repository: string, installation: number) {
  const slug = await deps.appSlug();
  return { github: new GitHubAdapter(await deps.octokitFor(installation), repository, slug), slug };
}

async function pass(
  deps: GateDeps,
  job: JobPayload<"gate.pull_request">,
  github: GitHubAdapter,
  slug: string,
): Promise<PassResult> {
  return runPullRequestPass(
    {
      github,
      store: deps.store,
      reads: deps.reads ?? new ImmutableReads(),
      evidence: deps.evidence ?? new EvidenceCache(),
      traceReports: deps.traceReports ?? new TraceReportCache(),
      ...(deps.setup ? { setup: deps.setup } : {}),
      agateVersion: AGATE_VERSION,
      appSlug: slug,
      now: deps.now,
      ...(deps.retried ? { retried: true } : {}),
      ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
    },
    job,
  );
}

const describe = (result: PassResult) => result.skipped ?? result.decision?.title ?? "";
const cause = (trigger: { event: string; action: string | null }) =>
  `${trigger.event}${trigger.action ? `.${trigger.action}` : ""}`;

/** Every job kind the gate handles. */
const GATE_HANDLERS: { [K in JobKind]: Handler<K> } = {
  [JOB_KINDS.pullRequest]: async (job, deps) => {
    const { github, slug } = await adapterFor(deps, job.repository, job.installation);
    const result = await pass(deps, job, github, slug);
    return `${job.repository}#${job.number} after ${cause(job.trigger)}: ${describe(result)} (${github.totalCalls} GitHub calls: ${callList(github)})`;
  },
  [JOB_KINDS.head]: async (job, deps) => {
    const { github, slug } = await adapterFor(deps, job.repository, job.installation);
    if (job.only_if_app !== null && job.only_if_app !== slug) return "another app's check run";
    // The pull requests agate saw with this head (by its reads or in events); GitHub is asked
    // only when it saw none.
    const head = { repository: job.repository, headSha: job.head_sha };
    const seen = [
      ...(await deps.store.listHeadObservations(head)),
      ...(await deps.store.listBaseSightings(head)),
    ];
    const numbers =
      seen.length > 0
        ? [...new Set(seen.map((s) => s.pull_number))]
        : (await github.openPullRequests())
            .filter((p) => p.head_sha === job.head_sha)
            .map((p) => p.number);
    // Each in a job of its own key, so it runs in order with the pull request's other jobs.
    for (const number of numbers) {
      const payload: JobPayloadInput<"gate.pull_request"> = {
        repository: job.repository,
        installation: job.installation,
        number,
        head_sha: job.head_sha,
        trigger: job.trigger,
        only_if: job.only_if,
        run: job.run,
      };
      await deps.store.enqueue({
        kind: JOB_KINDS.pullRequest,
        payload,
        concurrency_key: pullRequestKey(job.repository, number),
      });
    }
    return `${job.repository}@${job.head_sha.slice(0, 7)} after ${cause(job.trigger)}: queued pull requests ${numbers.map((n) => `#${n}`).join(", ") || "(none)"} (${github.totalCalls} GitHub calls)`;
  },
  [JOB_KINDS.mergeGroup]: (job, deps) => runMergeGroupJob(job, deps),
  [JOB_KINDS.mergeGroupDeadline]: async (job, deps) => {
    await handleMergeGroupDeadline(job, deps);
    return `${job.repository} merge group ${job.head_sha.slice(0, 7)}: deadline handled`;
  },
  [JOB_KINDS.override]: async (job, deps) => {
    const { github, slug } = await adapterFor(deps, job.repository, job.installation);
    return runOverrideJob(job, {
      github,
      store: deps.store,
      reads: deps.reads ?? new ImmutableReads(),
      now: deps.now,
      ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
      pass: (number) =>
        pass(
          deps,
          JOB_PAYLOADS[JOB_KINDS.pullRequest].parse({
            repository: job.repository,
            installation: job.installation,
            number,
            trigger: job.trigger,
          }),
          github,
          slug,
        ),
    });
  },
  [JOB_KINDS.reconcile]: async (_job, deps) => {
    const app = new AppAdapter(await deps.appOctokit());
    const { repositories, queued } = await reconcileOnce({
      store: deps.store,
      app,
      octokitFor: deps.octokitFor,
      appSlug: deps.appSlug,
    });
    return `reconcile: queued gate passes for ${queued} open pull requests in ${repositories} repositories (a pass already waiting counts)`;
  },
  [JOB_KINDS.evaluator]: async (job, deps) => {
    const { github } = await adapterFor(deps, job.repository, job.installation);
    const result = await runEvaluatorJob(
      {
        github,
        store: deps.store,
        reads: deps.reads ?? new ImmutableReads(),
        evaluator: deps.evaluator,
        now: deps.now,
        ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
      },
      job,
    );
    return `${job.repository}#${job.number} evaluator on tree ${job.tree_sha.slice(0, 7)}: ${result.outcome} (${github.totalCalls} GitHub calls)`;
  },
  [JOB_KINDS.entry]: (job, deps) => handleEntryJob(job, deps),
  [JOB_KINDS.entryDeadline]: (job, deps) => handleEntryDeadlineJob(job, deps),
  [JOB_KINDS.dashboard]: (job, deps) => handleDashboardJob(job, deps),
  [JOB_KINDS.pullRequestEntries]: (job, deps) => runPullRequestEntriesJob(job, deps),
  [JOB_KINDS.repositoryLabels]: async (job, deps) => {
    const { github } = await adapterFor(deps, job.repository, job.installation);
    const result = await ensureRepositoryLabels(github);
    const calls = `(${github.totalCalls} GitHub calls: ${callList(github)})`;
    if (!result.config) {
      return `${job.repository} labels after ${cause(job.trigger)}: no ${CONFIG_PATH} on the default branch, none made; agate makes each the first time it needs it ${calls}`;
    }
    return `${job.repository} labels after ${cause(job.trigger)}: ${result.created.length} created, ${result.styled.length} restyled ${calls}`;
  },
};

/** Every job kind the App handles; the router may enqueue only these (a test holds it to that). */
export const HANDLED_KINDS = Object.keys(GATE_HANDLERS) as JobKind[];

/** Parses a job's payload with its kind's schema and runs its handler; returns its log line. */
export async function runGateJob(kind: string, payload: unknown, deps: GateDeps): Promise<string> {
  if (!(kind in GATE_HANDLERS)) throw new Error(`no gate handler for job kind ${kind}`);
  const k = kind as JobKind;
  const parsed = JOB_PAYLOADS[k].parse(payload);
  return (GATE_HANDLERS[k] as Handler<typeof k>)(parsed as JobPayload<typeof k>, deps);
}

function callList(github: GitHubAdapter): string {
  return [...github.calls.entries()].map(([op, n]) => (n > 1 ? `${op}×${n}` : op)).join(", ");
}

/** The gate's job handlers, given the running App (its Probot for installation tokens). */
export function gateJobHandlers(runtime: Runtime): Record<JobKind, JobHandler> {
  const intervalMs = runtime.settings.reconcileIntervalMs;
  let slug: Promise<string> | undefined;
  const appSlug = () => {
    slug ??= deps.appOctokit().then((octokit) => new AppAdapter(octokit).slug());
    slug.catch(() => {
      slug = undefined;
    });
    return slug;
  };
  const deps: GateDeps = {
    store: runtime.store,
    now: () => new Date(),
    octokitFor: async (id) => (await runtime.probot.auth(id)) as GitHubClient,
    appOctokit: async () => (await runtime.probot.auth()) as GitHubClient,
    appSlug,
    reads: new ImmutableReads(),
    evidence: new EvidenceCache(),
    traceReports: new TraceReportCache(),
    setup: new RequiredCheckReader({
      app: async () => ({ id: runtime.settings.appId, slug: await appSlug() }),
      now: () => new Date(),
    }),
    evaluator: runtime.settings.evaluator,
  };
  // One pass queued at all times: the first soon after start, then one per interval. No
  // concurrency key: a keyed job waits behind older ones of its key, and the next pass is always
  // queued in the future. The dedupe key (held while queued, by the database) makes it one
  // queued pass for the whole fleet, however many replicas schedule it.
  const scheduleReconcile = async (at: Date) => {
    await runtime.store.enqueue(
      { kind: RECONCILE, payload: null, run_at: at.toISOString() },
      { dedupeKey: RECONCILE, until: "started" },
    );
  };
  // The first pass is queued at start; a database that does not answer yet is tried again.
  keepTrying(
    () => scheduleReconcile(new Date(Date.now() + Math.min(intervalMs, 5_000))),
    (error, retryInMs) =>
      runtime.log.error(
        { err: error },
        `reconcile: could not queue the first pass; again in ${retryInMs / 1000} s`,
      ),
    { firstDelayMs: 5_000, maxDelayMs: 300_000 },
  );

  const handlers = {} as Record<JobKind, JobHandler>;
  for (const kind of HANDLED_KINDS) {
    handlers[kind] = async (job, context) => {
      // The next pass is queued first, so a failing pass (retried with backoff) never ends them.
      if (kind === RECONCILE) await scheduleReconcile(new Date(Date.now() + intervalMs));
      const line = await runGateJob(kind, job.payload, {
        ...deps,
        retried: context.attempt > 1,
        jobId: job.id,
        log: (text) => runtime.log.info({ job: job.id }, text),
      });
      runtime.log.info({ job: job.id }, line);
    };
  }
  return handlers;
}
