/**
 * A job kind as data: its name, the schema of its payload and the keys it is queued under. Each
 * domain lists its own kinds (schemas/jobs/gate.ts, entries.ts, dashboard.ts) and registers what
 * runs them (app/<domain>/jobs.ts); one domain queues another's job through that job's spec here,
 * never through the other domain's code. Payloads are what a webhook said (GitHub's data, parsed
 * once, by the registry, before the job runs); a job reads anything else live.
 */
import { z } from "zod";
import { positiveIntSchema, repositoryFullNameSchema } from "../primitives.js";
import type { NewJob } from "../store.js";

/** What caused a job, for its log line and the stored decision. */
export const triggerSchema = z.strictObject({
  event: z.string(),
  action: z.string().nullable(),
  delivery_id: z.string().nullable(),
});
export type Trigger = z.infer<typeof triggerSchema>;

/** Every job about a repository names it, and the installation that reaches it. */
export const jobTarget = {
  repository: repositoryFullNameSchema,
  installation: positiveIntSchema,
};

/**
 * Held by one job at a time (the database refuses a second while one holds it): what several
 * replicas queue at once is queued once. "started": while queued; "finished": until done.
 */
export interface JobDedupe {
  dedupeKey: string;
  until?: "started" | "finished";
}

export interface JobSpec<S extends z.ZodType = z.ZodType> {
  /** Stored in every queued row: never renamed, since queued jobs outlive a release. */
  readonly kind: string;
  readonly payload: S;
  /** Jobs of one key run one at a time, in the order queued; null: in any order. */
  concurrencyKey(payload: z.input<S>): string | null;
  /** Queued on its own (JobQueue.enqueue), the job holds this key: one pending at a time. */
  dedupe?(payload: z.input<S>): JobDedupe;
}

/** What a spec's maker takes, and what its job runs with (defaults filled in). */
export type JobInput<T extends JobSpec> = z.input<T["payload"]>;
export type JobPayload<T extends JobSpec> = z.output<T["payload"]>;

/** A spec, its payload's type kept for the maker and the job. */
export function jobSpec<S extends z.ZodType>(
  kind: string,
  payload: S,
  concurrencyKey: (payload: z.input<S>) => string | null,
  dedupe?: (payload: z.input<S>) => JobDedupe,
): JobSpec<S> {
  return { kind, payload, concurrencyKey, ...(dedupe ? { dedupe } : {}) };
}

/** A job with no concurrency key: it runs whenever a worker is free. */
export const unkeyed = (): null => null;

/** The job to queue, under its spec's kind and concurrency key. */
export function jobOf<S extends z.ZodType>(
  spec: JobSpec<S>,
  payload: z.input<S>,
  options: { run_at?: string } = {},
): NewJob {
  return {
    kind: spec.kind,
    payload: payload as NewJob["payload"],
    concurrency_key: spec.concurrencyKey(payload),
    ...(options.run_at === undefined ? {} : { run_at: options.run_at }),
  };
}

/**
 * Jobs of one pull request run one at a time, in order, whichever domain queued them (its gate
 * pass, its override, the entries it links).
 */
export const pullRequestKey = (repository: string, number: number) => `${repository}#${number}`;
export const byPullRequest = (p: { repository: string; number: number }) =>
  pullRequestKey(p.repository, p.number);
