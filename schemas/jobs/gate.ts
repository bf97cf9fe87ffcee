/**
 * The gate's job kinds (app/gate/jobs.ts runs them): a pull request's pass, a head's, a merge
 * group's and its deadline, an override, the reconcile pass, the evaluator, an installation's
 * labels. The route (app/gate/route.ts) makes most of them from a delivery, one per target.
 */
import { z } from "zod";
import type { Config } from "../config.js";
import { bundleCommandSchema, bundleTraceSchema } from "../evaluation.js";
import { evidenceJobSchema, pullRequestViewSchema } from "../gate.js";
import { gitShaSchema, positiveIntSchema } from "../primitives.js";
import {
  byPullRequest,
  type JobPayload,
  jobSpec,
  jobTarget as target,
  triggerSchema,
  unkeyed,
} from "./index.js";

/**
 * A workflow event that is evidence only under some base configs: a run of `workflow`, or a job
 * named `job`. The base config decides, so the check is made when the job has read it.
 */
export const evidenceEventSchema = z.strictObject({
  workflow: z.string().nullable(),
  job: z.string().nullable(),
});

/** A workflow run's attempt, as its completion event named it. */
const runReadSchema = z.strictObject({
  id: positiveIntSchema,
  attempt: positiveIntSchema,
  /**
   * The completed job as its `workflow_job` event showed it (signed by GitHub; a completed job
   * of an attempt never changes): it stands in for listing the run's jobs while the run's newest
   * attempt is the job's.
   */
  job: evidenceJobSchema.nullable().default(null),
});

/** One pull request's gate pass: gather at exact SHAs, decide, plan, apply. */
export const pullRequestJobSchema = z.strictObject({
  ...target,
  number: positiveIntSchema,
  /** The head the event was about; the pass confirms it is still the head before deciding. */
  head_sha: gitShaSchema.nullable().default(null),
  /** The base the event named; with the head, what is read by SHA is read before the live pull request. */
  base_sha: gitShaSchema.nullable().default(null),
  /**
   * The whole pull request as the event showed it (its test merge commit left out: the event's
   * may be an older head's). Used instead of a fresh read only when no newer view was acted on.
   */
  seen: pullRequestViewSchema.nullable().default(null),
  trigger: triggerSchema,
  /** Evaluate only when the event is evidence under the base config; null: always. */
  only_if: evidenceEventSchema.nullable().default(null),
  /** The base changed (pull_request.edited): the check goes back in progress first. */
  retarget: z.strictObject({ from: z.string(), to: z.string() }).nullable().default(null),
  /** A person chose "Re-run evaluator" on the check. */
  rerun_evaluator: z.boolean().default(false),
  /** The run whose completion (or its job's) caused this: a pass that already read it is skipped. */
  run: runReadSchema.nullable().default(null),
  /**
   * The event counts only if it is not the App's own doing: an `agate:` label changed by this
   * login, or a check run of this app slug. Checked by the handler, which knows the App's slug.
   */
  unless_sender: z.string().nullable().default(null),
  only_if_app: z.string().nullable().default(null),
});

/** A workflow or check event that names only a commit: its open pull requests are found. */
export const headJobSchema = z.strictObject({
  ...target,
  head_sha: gitShaSchema,
  trigger: triggerSchema,
  only_if: evidenceEventSchema.nullable().default(null),
  only_if_app: z.string().nullable().default(null),
  run: runReadSchema.nullable().default(null),
});

/** A merge-group head: a `merge_group` checks request, or evidence for a queue branch. */
export const mergeGroupJobSchema = z.strictObject({
  ...target,
  head_sha: gitShaSchema,
  head_ref: z.string(),
  /** Named by the checks request; null for a later event, which finds it on our own check. */
  base_sha: gitShaSchema.nullable(),
  trigger: triggerSchema,
  only_if_app: z.string().nullable().default(null),
});

/** A new comment on a pull request that may be a maintainer's `/agate accept`. */
export const overrideJobSchema = z.strictObject({
  ...target,
  number: positiveIntSchema,
  comment: z.strictObject({
    body: z.string(),
    html_url: z.string().nullable(),
    /** Its author as the event showed it: GitHub's account type decides who is a person. */
    user: z.strictObject({ login: z.string(), type: z.string().nullable() }),
  }),
  trigger: triggerSchema,
});

/**
 * What the evaluator is shown beyond what the job reads by SHA (the compare, the base's
 * instruction files, the handoff file) and the issues the text names, as the pass that asked read
 * and verified it (checks/evaluator/inputs.ts): the job reads the pull request no more, and
 * believes nothing that pass did not. Bounded: GitHub keeps a title to 256 characters and a body
 * to 65,536, and lists at most 3,000 changed files; output tails and trace reports are cut as the
 * bundle would cut them.
 */
export const evaluatorInputsSchema = z.strictObject({
  base_sha: gitShaSchema,
  base_ref: z.string(),
  title: z.string(),
  body: z.string(),
  /** The believed record's commands on the head (none when it carried a pass over). */
  commands: z.array(bundleCommandSchema),
  trace: bundleTraceSchema.nullable(),
  /**
   * The commit the pass read the handoff file at (its facts' `read_at_sha`): the job reads it
   * there; null: the pass read none, and the evaluator is shown none.
   */
  handoff_sha: gitShaSchema.nullable(),
  /** The pull request's changed files; those past the compare's 300 are named to the evaluator. */
  changed_files: z.array(z.strictObject({ filename: z.string(), status: z.string() })),
});

/** The inputs of an earlier agate (`handoff_at`, a rule of its own): read as none. */
const legacyEvaluatorInputsSchema = z
  .looseObject({ handoff_at: z.enum(["head", "merge_base"]) })
  .transform(() => null);

/** Ask the evaluator about one tree; the verdict is stored and a gate pass queued. */
export const evaluatorJobSchema = z.strictObject({
  ...target,
  number: positiveIntSchema,
  head_sha: gitShaSchema,
  tree_sha: gitShaSchema,
  config_digest: z.string(),
  /** A person asked again: a stored verdict does not stop the call (budgets still do). */
  rerun: z.boolean().default(false),
  /**
   * null: queued by an agate before issue 30, which read the pull request again, or by one whose
   * inputs said where to read the handoff file by rule (`handoff_at`), not where the pass read it;
   * a pass is queued, which queues a job that carries them.
   */
  inputs: z.union([evaluatorInputsSchema, legacyEvaluatorInputsSchema]).nullable().default(null),
});

/**
 * The App was installed on a repository (or the repository added to its installation): when the
 * repository has agate's config on its default branch, every label agate owns is created there
 * with its look, before any pull request needs one; without it, nothing beyond that one read
 * (app/gate/repository-labels.ts).
 */
export const repositoryLabelsJobSchema = z.strictObject({ ...target, trigger: triggerSchema });

const mergeGroupDeadlineFields = {
  head_sha: gitShaSchema,
  head_ref: z.string(),
  base_sha: gitShaSchema,
};

/**
 * After `merge_queue.record_timeout`, the group must have an answer. Before issue 30 this payload
 * named its installation `installation_id` (every other says `installation`); such jobs may still
 * be queued in a running database, so that name is read too.
 */
export const mergeGroupDeadlineJobSchema = z.union([
  z.strictObject({ ...target, ...mergeGroupDeadlineFields }),
  z
    .strictObject({
      repository: target.repository,
      installation_id: target.installation,
      ...mergeGroupDeadlineFields,
    })
    .transform(({ installation_id, ...rest }) => ({ ...rest, installation: installation_id })),
]);

/** A commit's jobs (a merge group, a head not yet tied to a pull request). */
export const headKey = (repository: string, sha: string) => `${repository}@${sha}`;
/** The evaluator of a pull request: one call at a time, beside (not in front of) its gate. */
export const evaluatorKey = (repository: string, number: number) =>
  `${repository}#${number}:evaluator`;
/** A repository's labels: created once, however many installation events name it at once. */
export const labelsKey = (repository: string) => `${repository}:labels`;

const byHead = (p: { repository: string; head_sha: string }) => headKey(p.repository, p.head_sha);

export const GATE_JOBS = {
  pullRequest: jobSpec("gate.pull_request", pullRequestJobSchema, byPullRequest),
  head: jobSpec("gate.head", headJobSchema, byHead),
  mergeGroup: jobSpec("gate.merge_group", mergeGroupJobSchema, byHead),
  // No concurrency key: a keyed job that is not yet due would hold back every later job of the
  // group's key (`repo@head`), which is the evidence this deadline waits for.
  mergeGroupDeadline: jobSpec(
    "gate.merge_group_deadline",
    mergeGroupDeadlineJobSchema,
    unkeyed,
    (p) => ({ dedupeKey: `gate.merge_group_deadline:${p.repository}@${p.head_sha}` }),
  ),
  override: jobSpec("gate.override", overrideJobSchema, byPullRequest),
  /**
   * Webhooks get lost: every open pull request of every repository agate has heard of gets a
   * pass (app/gate/reconcile.ts). Queued by the runtime on a timer, one queued for the whole
   * fleet; no concurrency key (a keyed job waits behind older ones of its key, and the next pass
   * is always queued in the future).
   */
  reconcile: jobSpec("gate.reconcile", z.null(), unkeyed),
  evaluator: jobSpec("gate.evaluator", evaluatorJobSchema, (p) =>
    evaluatorKey(p.repository, p.number),
  ),
  repositoryLabels: jobSpec("gate.repository_labels", repositoryLabelsJobSchema, (p) =>
    labelsKey(p.repository),
  ),
};

export type PullRequestJob = JobPayload<typeof GATE_JOBS.pullRequest>;
export type HeadJob = JobPayload<typeof GATE_JOBS.head>;
export type MergeGroupJob = JobPayload<typeof GATE_JOBS.mergeGroup>;
export type MergeGroupDeadlineJob = JobPayload<typeof GATE_JOBS.mergeGroupDeadline>;
export type OverrideJob = JobPayload<typeof GATE_JOBS.override>;
export type EvaluatorJob = JobPayload<typeof GATE_JOBS.evaluator>;
export type EvaluatorInputs = z.infer<typeof evaluatorInputsSchema>;
export type RepositoryLabelsJob = JobPayload<typeof GATE_JOBS.repositoryLabels>;

/** Whether a workflow event can carry evidence under this base config. */
export function evidenceEventMatters(
  event: z.infer<typeof evidenceEventSchema>,
): (config: Config) => boolean {
  return (config) =>
    (event.workflow === null || event.workflow === config.evidence.workflow) &&
    (event.job === null || event.job === config.evidence.job);
}
