/**
 * The handoff entries' job kinds (app/entries/jobs.ts runs them): an entry's pass, its timer,
 * and the entries a pull request links when it closes or reopens.
 */
import { z } from "zod";
import { positiveIntSchema } from "../primitives.js";
import {
  byPullRequest,
  type JobPayload,
  jobSpec,
  jobTarget,
  triggerSchema,
  unkeyed,
} from "./index.js";

/**
 * One handoff entry's pass (app/entries/): its issue read live, new commands in its comments
 * handled in order, due deadlines applied, replies posted, labels and open/closed projected.
 */
export const entryJobSchema = z.strictObject({
  ...jobTarget,
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
 * An entry's timer, due at its deadline (run_at). When it fires it queues the entry's pass, which
 * applies the deadline only if it is still the entry's and has passed.
 */
export const entryDeadlineJobSchema = z.strictObject({
  ...jobTarget,
  issue_number: positiveIntSchema,
  deadline_at: z.iso.datetime({ offset: true }),
  /** `deadline`: the entry's own deadline; `wait`: its author's declared wait runs out. */
  timer: z.enum(["deadline", "wait"]).default("deadline"),
});

/**
 * A pull request closed or reopened: the entries linked to it (their form's "Blocking pull
 * request" names it, or its description mentions them) derive their priority partly from
 * whether it is open, so each unresolved one gets a pass (app/entries/pull-request-entries.ts).
 */
export const pullRequestEntriesJobSchema = z.strictObject({
  ...jobTarget,
  number: positiveIntSchema,
  trigger: triggerSchema,
});

/** One handoff entry's jobs run one at a time, in order (issue and pull numbers never share one). */
const entryKey = (repository: string, issue: number) => `${repository}#${issue}:entry`;

export const ENTRY_JOBS = {
  entry: jobSpec("entries.entry", entryJobSchema, (p) => entryKey(p.repository, p.issue_number)),
  // No concurrency key: a key would hold the entry's other jobs behind it until it is due.
  deadline: jobSpec("entries.deadline", entryDeadlineJobSchema, unkeyed),
  /** Under the pull request's key, so it runs in order with the pull request's gate passes. */
  pullRequestEntries: jobSpec("entries.pull_request", pullRequestEntriesJobSchema, byPullRequest),
};

export type EntryJob = JobPayload<typeof ENTRY_JOBS.entry>;
export type EntryDeadlineJob = JobPayload<typeof ENTRY_JOBS.deadline>;
export type PullRequestEntriesJob = JobPayload<typeof ENTRY_JOBS.pullRequestEntries>;
