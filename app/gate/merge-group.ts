/**
 * The merge queue: on `merge_group` `checks_requested`, a deadline job is enqueued and the
 * `agate` check on the group head decided, so every checks request gets an explicit conclusion
 * within `merge_queue.record_timeout` (a queue left waiting blocks the repository). A group goes
 * through the same pipeline as a pull request: gather (gather/merge-group.ts) → decide
 * (checks/gate/merge-group.ts's `decideMergeGroupPass`: the decision and its effects) → apply
 * (apply.ts's `applyEffects`, which reads nothing).
 */
import {
  decideMergeGroupPass,
  mergeGroupDeadline,
  requestedBase,
} from "../../checks/gate/merge-group.js";
import type { PhasedEffects } from "../../schemas/effects.js";
import type { MergeGroupDeadlineJob, MergeGroupJob } from "../../schemas/jobs/gate.js";
import type { MergeGroupRefFact } from "../../schemas/merge-group.js";
import type { AgateCheckRun } from "../../schemas/store.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { applyEffects } from "./apply.js";
import { AgateChecks } from "./check-runs.js";
import { gatherMergeGroup } from "./gather/merge-group.js";
import type { GateDeps } from "./jobs.js";

/** One pass over a merge group: gather, decide, apply; the decision's title, for the log. */
async function mergeGroupPass(
  github: GitHubAdapter,
  deps: GateDeps,
  checks: AgateChecks,
  group: MergeGroupRefFact,
  options: { existing: AgateCheckRun | null; deadlineReached: boolean },
): Promise<string> {
  const facts = await gatherMergeGroup(github, deps, group);
  const { decision, effects } = decideMergeGroupPass(facts, {
    existing: options.existing,
    at: deps.now().toISOString(),
    deadline_reached: options.deadlineReached,
    job_id: deps.jobId ?? null,
  });
  await apply(github, deps, checks, effects);
  return decision.title;
}

function apply(github: GitHubAdapter, deps: GateDeps, checks: AgateChecks, effects: PhasedEffects) {
  return applyEffects(
    { github, checks, store: deps.store, jobId: deps.jobId, retried: false },
    effects,
  );
}

const fullRef = (ref: string) => (ref.startsWith("refs/") ? ref : `refs/heads/${ref}`);

/**
 * The `gate.merge_group` job: a checks request (its deadline is queued first, then the check is
 * decided), or an event on a queue branch's head (evidence arriving, a person's re-run), which
 * counts only for a group the queue asked about: our own check on it names its base.
 */
export async function runMergeGroupJob(job: MergeGroupJob, deps: GateDeps): Promise<string> {
  const short = job.head_sha.slice(0, 7);
  if (job.only_if_app !== null && job.only_if_app !== (await deps.appSlug()))
    return `a check run of ${job.only_if_app}; nothing to do`;
  const github = await deps.github(job.repository, job.installation);
  const checks = new AgateChecks(github, deps.store, deps.now);
  const group = {
    repository: job.repository,
    head_sha: job.head_sha,
    head_ref: fullRef(job.head_ref),
  };
  let base = job.base_sha;
  if (base !== null) {
    // The deadline is enqueued before the check is written: whatever fails after, the group
    // still gets its answer. A retried job enqueues a second one, which finds it answered.
    const config = await deps.reads.config(github, base);
    const at = deps.now().toISOString();
    await apply(
      github,
      deps,
      checks,
      mergeGroupDeadline({ ...group, base_sha: base }, config, job.installation, at),
    );
  }
  const existing = await checks.current(job.head_sha);
  // Only a group the queue asked about (our check on it names its base) is evaluated: a branch
  // merely named like a queue branch gets no check from us.
  base ??= requestedBase(existing, job.head_sha);
  if (base === null) {
    return `${job.repository}@${short}: no merge_group checks request seen for it; nothing to do`;
  }
  const title = await mergeGroupPass(
    github,
    deps,
    checks,
    { ...group, base_sha: base },
    {
      existing,
      deadlineReached: false,
    },
  );
  return `${job.repository} merge group ${short} after ${job.trigger.event}${job.trigger.action ? `.${job.trigger.action}` : ""}: ${title}`;
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
  const checks = new AgateChecks(github, deps.store, deps.now);
  const existing = await checks.current(job.head_sha);
  if (existing?.status === "completed") {
    return `${where}: deadline reached, already concluded ${existing.conclusion}`;
  }
  const group = {
    repository: job.repository,
    head_sha: job.head_sha,
    head_ref: job.head_ref,
    base_sha: job.base_sha,
  };
  const title = await mergeGroupPass(github, deps, checks, group, {
    existing,
    deadlineReached: true,
  });
  return `${where}: deadline reached: ${title}`;
}
