/**
 * The merge queue: on `merge_group` `checks_requested`, the `agate` check on the group head is
 * put in progress and a deadline job is enqueued, so every checks request gets an explicit
 * conclusion within `merge_queue.record_timeout` (a queue left waiting blocks the repository).
 */
import { COMPARE_FILES_LIMIT, judgeListing } from "../../checks/gate/listing.js";
import { decideMergeGroup, renderMergeGroupSummary } from "../../checks/gate/merge-group.js";
import { checkChanges } from "../../checks/gate/plan.js";
import type { BaseConfigFact } from "../../schemas/gate.js";
import {
  GATE_JOBS,
  type MergeGroupDeadlineJob,
  type MergeGroupJob,
} from "../../schemas/jobs/gate.js";
import type {
  MergeGroupDecision,
  MergeGroupFacts,
  MergeGroupRefFact,
} from "../../schemas/merge-group.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import { queueJob } from "../runtime/jobs.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { CheckRunLedger } from "../store/ports/check-run-ledger.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import { AgateChecks } from "./check-runs.js";
import { collectEvidence, EvidenceCache } from "./evidence.js";
import type { GateDeps } from "./jobs.js";

/** What `merge_queue.record_timeout` defaults to, for a base whose config cannot be read. */
const DEFAULT_RECORD_TIMEOUT_MS = 30 * 60_000;

/**
 * The check's external id names the group's base: a later check_run / workflow_run event on the
 * group head carries no base, and our own check run is GitHub data only this App can write.
 */
const externalIdOf = (group: MergeGroupRefFact) =>
  `agate:merge_group:${group.repository}@${group.head_sha}:base=${group.base_sha}`;
const BASE_IN_EXTERNAL_ID = /^agate:merge_group:[^@]+@([0-9a-f]{40}):base=([0-9a-f]{40})$/;

export interface MergeGroupEvaluation {
  decision: MergeGroupDecision;
  wroteCheck: boolean;
}

/** Evaluates one merge group's head from live facts and writes its `agate` check run. */
async function evaluateMergeGroup(options: {
  github: GitHubAdapter;
  store: AuditLog & CheckRunLedger;
  reads: ImmutableReads;
  group: MergeGroupRefFact;
  /** The deadline job is running: no verified record by now means failure. */
  deadlineReached: boolean;
  now: () => Date;
  agateVersion?: string;
  evidence?: EvidenceCache;
  /** The job: its decision's audit entry is appended once, whichever run of it gets there. */
  jobId?: number;
}): Promise<MergeGroupEvaluation> {
  const { github, group, now } = options;
  const checks = new AgateChecks(github, options.store, now);
  const [existing, config] = await Promise.all([
    checks.current(group.head_sha),
    options.reads.config(github, group.base_sha),
  ]);
  const facts: MergeGroupFacts = {
    merge_group: group,
    config,
    changed_files: [],
    changed_files_listing: { complete: true, reason: null },
    evidence_source: null,
    evidence_run: null,
    evidence: [],
    deadline_passed: false,
    agate_version: options.agateVersion ?? AGATE_VERSION,
  };
  if (config.status === "ok") {
    // Read by SHA, so nothing can move under it; but compare stops at 300 files.
    const comparison = await options.reads.compare(github, group.base_sha, group.head_sha);
    facts.changed_files = comparison.files.map(({ filename, previous_filename, status }) => ({
      filename,
      previous_filename,
      status,
    }));
    facts.changed_files_listing = judgeListing({
      source: "GitHub's compare of the merge group",
      count: facts.changed_files.length,
      limit: COMPARE_FILES_LIMIT,
      expected: null,
    });
    const collected = await collectEvidence(github, options.evidence ?? new EvidenceCache(), {
      target: { kind: "merge_group", headSha: group.head_sha },
      repository: group.repository,
      config: config.config,
      configDigest: config.digest,
      baseSha: group.base_sha,
      changedFiles: facts.changed_files,
      listing: facts.changed_files_listing,
    });
    facts.evidence_source = collected.source;
    facts.evidence_run = collected.run;
    facts.evidence = collected.evidence;
    // A re-evaluation after the deadline (a late event) must not put the check back in
    // progress: the check run's own start is when the checks request was answered.
    const started = existing?.startedAt ? Date.parse(existing.startedAt) : Number.NaN;
    facts.deadline_passed =
      options.deadlineReached ||
      now().getTime() - started >= config.config.merge_queue.record_timeout;
  }
  const decision = decideMergeGroup(facts);
  const summary = renderMergeGroupSummary(decision, facts);
  const view = {
    conclusion: decision.conclusion,
    title: decision.title,
    summary,
    rerunEvaluator: false,
  };
  const wrote = checkChanges(existing, view);
  if (wrote) {
    // Before the write: a run retried after the check was written finds it unchanged and
    // writes nothing, so the entry would be lost; with the job's key it is appended once.
    await options.store.appendAudit(
      {
        kind: "gate.merge_group.decision",
        subject: `${group.repository}@${group.head_sha}`,
        decision: JSON.parse(JSON.stringify(decision)),
        facts: JSON.parse(JSON.stringify(facts)),
        at: now().toISOString(),
      },
      options.jobId === undefined
        ? {}
        : { dedupeKey: `job:${options.jobId}:merge-group@${group.head_sha}:${decision.state}` },
    );
    await checks.write(group.head_sha, existing, {
      ...view,
      externalId: externalIdOf(group),
    });
  }
  return { decision, wroteCheck: wrote };
}

const fullRef = (ref: string) => (ref.startsWith("refs/") ? ref : `refs/heads/${ref}`);

/**
 * The `gate.merge_group` job: a checks request (its check goes in progress and a deadline is
 * queued), or an event on a queue branch's head (evidence arriving, a person's re-run), which
 * counts only for a group the queue asked about: our own check on it names its base.
 */
export async function runMergeGroupJob(job: MergeGroupJob, deps: GateDeps): Promise<string> {
  const short = job.head_sha.slice(0, 7);
  if (job.only_if_app !== null && job.only_if_app !== (await deps.appSlug()))
    return `a check run of ${job.only_if_app}; nothing to do`;
  const github = await deps.github(job.repository, job.installation);
  const { reads } = deps;
  let base = job.base_sha;
  if (base !== null) {
    // The deadline is enqueued before the check is written: whatever fails after, the group
    // still gets its answer. A retried job enqueues a second one, which finds it answered.
    const config = await reads.config(github, base);
    if (config.status === "ok") {
      await enqueueDeadline(
        deps.store,
        deps.now,
        job.installation,
        { ...job, base_sha: base },
        config,
      );
    }
  } else {
    // Only a group the queue asked about (our check on it names its base) is evaluated: a branch
    // merely named like a queue branch gets no check from us.
    const existing = await new AgateChecks(github, deps.store, deps.now).current(job.head_sha);
    const match = BASE_IN_EXTERNAL_ID.exec(existing?.externalId ?? "");
    if (!match?.[2] || match[1] !== job.head_sha) {
      return `${job.repository}@${short}: no merge_group checks request seen for it; nothing to do`;
    }
    base = match[2];
  }
  const result = await evaluateMergeGroup({
    github,
    store: deps.store,
    reads,
    group: {
      repository: job.repository,
      head_sha: job.head_sha,
      head_ref: fullRef(job.head_ref),
      base_sha: base,
    },
    deadlineReached: false,
    now: deps.now,
    evidence: deps.evidence,
    ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
  });
  return `${job.repository} merge group ${short} after ${job.trigger.event}${job.trigger.action ? `.${job.trigger.action}` : ""}: ${result.decision.title}`;
}

async function enqueueDeadline(
  queue: Pick<JobQueue, "enqueue">,
  now: () => Date,
  installation: number,
  group: MergeGroupRefFact,
  config: Extract<BaseConfigFact, { status: "ok" }>,
): Promise<void> {
  const timeout = config.config.merge_queue.record_timeout ?? DEFAULT_RECORD_TIMEOUT_MS;
  await queueJob(
    queue,
    GATE_JOBS.mergeGroupDeadline,
    {
      repository: group.repository,
      installation,
      head_sha: group.head_sha,
      head_ref: group.head_ref,
      base_sha: group.base_sha,
    },
    { run_at: new Date(now().getTime() + timeout).toISOString() },
  );
}

/**
 * The `gate.merge_group_deadline` job: when the group's `agate` check is still not completed,
 * it is concluded now (failure, unless verified evidence arrived without an event).
 */
export async function runMergeGroupDeadlineJob(
  job: MergeGroupDeadlineJob,
  deps: GateDeps,
): Promise<string> {
  const where = `${job.repository} merge group ${job.head_sha.slice(0, 7)}`;
  const github = await deps.github(job.repository, job.installation);
  const existing = await new AgateChecks(github, deps.store, deps.now).current(job.head_sha);
  if (existing?.status === "completed") {
    return `${where}: deadline reached, already concluded ${existing.conclusion}`;
  }
  const result = await evaluateMergeGroup({
    github,
    store: deps.store,
    reads: deps.reads,
    group: {
      repository: job.repository,
      head_sha: job.head_sha,
      head_ref: job.head_ref,
      base_sha: job.base_sha,
    },
    deadlineReached: true,
    now: deps.now,
    ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
  });
  return `${where}: deadline reached: ${result.decision.title}`;
}
