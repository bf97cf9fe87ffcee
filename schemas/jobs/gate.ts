/**
 * Every job the gate runs, by kind, with the schema of its payload. The route (app/gate/route.ts)
 * makes them from a delivery, one per target; the handler table (app/gate/job-handlers.ts) has
 * one handler per kind, and a test fails when a routed kind has none. Payloads are what the
 * webhook said (GitHub's data, parsed once); handlers read anything else live.
 */
import { z } from "zod";
import type { Config } from "../config.js";
import { evidenceJobSchema, pullRequestViewSchema } from "../gate.js";
import { mergeGroupDeadlineJobSchema } from "../merge-group.js";
import { gitShaSchema, positiveIntSchema, repositoryFullNameSchema } from "../primitives.js";

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

/** What caused a job, for its log line and the stored decision. */
export const triggerSchema = z.strictObject({
  event: z.string(),
  action: z.string().nullable(),
  delivery_id: z.string().nullable(),
});

const target = {
  repository: repositoryFullNameSchema,
  installation: positiveIntSchema,
};

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

/** Ask the evaluator about one tree; the verdict is stored and a gate pass queued. */
export const evaluatorJobSchema = z.strictObject({
  ...target,
  number: positiveIntSchema,
  head_sha: gitShaSchema,
  tree_sha: gitShaSchema,
  config_digest: z.string(),
  /** A person asked again: a stored verdict does not stop the call (budgets still do). */
  rerun: z.boolean().default(false),
});

/**
 * One handoff entry's pass (app/entries/): its issue read live, new commands in its comments
 * handled in order, due deadlines applied, replies posted, labels and open/closed projected.
 */
export const entryJobSchema = z.strictObject({
  ...target,
  issue_number: positiveIntSchema,
  trigger: triggerSchema,
  /** A label agate owns changed by this login: put back, with a comment, unless it was agate. */
  label_change: z
    .strictObject({
      label: z.string(),
      action: z.enum(["labeled", "unlabeled"]),
      by: z.string(),
    })
    .nullable()
    .default(null),
  /** The issue was closed or reopened by this login: put back when the state says otherwise. */
  state_change: z
    .strictObject({ action: z.enum(["closed", "reopened"]), by: z.string() })
    .nullable()
    .default(null),
});

/**
 * An entry's timer, due at its deadline (run_at). No concurrency key: a key would hold the
 * entry's other jobs behind it until then. When it fires it queues the entry's pass, which
 * applies the deadline only if it is still the entry's and has passed.
 */
export const entryDeadlineJobSchema = z.strictObject({
  ...target,
  issue_number: positiveIntSchema,
  deadline_at: z.iso.datetime({ offset: true }),
});

/**
 * A repository's triage dashboard (app/dashboard/): the App's one issue listing what needs a
 * maintainer and what is parked, rendered again and written only when it differs. Queued by
 * every transition under the repository's key, so concurrent transitions coalesce.
 */
export const dashboardJobSchema = z.strictObject({ ...target, trigger: triggerSchema });

/**
 * A pull request closed or reopened: the entries linked to it (their form's "Blocking pull
 * request" names it, or its description mentions them) derive their priority partly from
 * whether it is open, so each unresolved one gets a pass (app/entries/pull-request-entries.ts).
 */
export const pullRequestEntriesJobSchema = z.strictObject({
  ...target,
  number: positiveIntSchema,
  trigger: triggerSchema,
});

/**
 * The App was installed on a repository (or the repository added to its installation): when the
 * repository has agate's config on its default branch, every label agate owns is created there
 * with its look, before any pull request needs one; without it, nothing beyond that one read
 * (app/gate/repository-labels.ts).
 */
export const repositoryLabelsJobSchema = z.strictObject({ ...target, trigger: triggerSchema });

export const JOB_KINDS = {
  pullRequest: "gate.pull_request",
  head: "gate.head",
  mergeGroup: "gate.merge_group",
  mergeGroupDeadline: "gate.merge_group_deadline",
  override: "gate.override",
  reconcile: "gate.reconcile",
  evaluator: "gate.evaluator",
  entry: "entries.entry",
  entryDeadline: "entries.deadline",
  dashboard: "entries.dashboard",
  pullRequestEntries: "entries.pull_request",
  repositoryLabels: "gate.repository_labels",
} as const;

/** The payload schema of each job kind. */
export const JOB_PAYLOADS = {
  [JOB_KINDS.pullRequest]: pullRequestJobSchema,
  [JOB_KINDS.head]: headJobSchema,
  [JOB_KINDS.mergeGroup]: mergeGroupJobSchema,
  [JOB_KINDS.mergeGroupDeadline]: mergeGroupDeadlineJobSchema,
  [JOB_KINDS.override]: overrideJobSchema,
  [JOB_KINDS.reconcile]: z.null(),
  [JOB_KINDS.evaluator]: evaluatorJobSchema,
  [JOB_KINDS.entry]: entryJobSchema,
  [JOB_KINDS.entryDeadline]: entryDeadlineJobSchema,
  [JOB_KINDS.dashboard]: dashboardJobSchema,
  [JOB_KINDS.pullRequestEntries]: pullRequestEntriesJobSchema,
  [JOB_KINDS.repositoryLabels]: repositoryLabelsJobSchema,
} as const;

export type JobKind = keyof typeof JOB_PAYLOADS;
export type JobPayload<K extends JobKind> = z.output<(typeof JOB_PAYLOADS)[K]>;
export type JobPayloadInput<K extends JobKind> = z.input<(typeof JOB_PAYLOADS)[K]>;
export type Trigger = z.infer<typeof triggerSchema>;
export type PullRequestJob = z.output<typeof pullRequestJobSchema>;
export type EvaluatorJob = z.output<typeof evaluatorJobSchema>;
export type EntryJob = z.output<typeof entryJobSchema>;
export type EntryDeadlineJob = z.output<typeof entryDeadlineJobSchema>;
export type DashboardJob = z.output<typeof dashboardJobSchema>;
export type PullRequestEntriesJob = z.output<typeof pullRequestEntriesJobSchema>;

/** Whether a workflow event can carry evidence under this base config. */
export function evidenceEventMatters(
  event: z.infer<typeof evidenceEventSchema>,
): (config: Config) => boolean {
  return (config) =>
    (event.workflow === null || event.workflow === config.evidence.workflow) &&
    (event.job === null || event.job === config.evidence.job);
}

/** Jobs of one pull request run one at a time, in order. */
export const pullRequestKey = (repository: string, number: number) => `${repository}#${number}`;
/** A commit's jobs (a merge group, a head not yet tied to a pull request). */
export const headKey = (repository: string, sha: string) => `${repository}@${sha}`;
/** The evaluator of a pull request: one call at a time, beside (not in front of) its gate. */
export const evaluatorKey = (repository: string, number: number) =>
  `${repository}#${number}:evaluator`;
/** One handoff entry's jobs run one at a time, in order (issue and pull numbers never share one). */
export const entryKey = (repository: string, issue: number) => `${repository}#${issue}:entry`;
/** A repository's labels: created once, however many installation events name it at once. */
export const labelsKey = (repository: string) => `${repository}:labels`;
/** A repository's dashboard: one refresh at a time, a queued one makes a running one's result moot. */
export const dashboardKey = (repository: string) => `${repository}:dashboard`;
