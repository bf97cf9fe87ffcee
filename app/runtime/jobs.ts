/**
 * The job registry: each domain (the gate, the entries, the dashboard) registers its job kinds,
 * each with its spec (kind, payload schema and keys, schemas/jobs/<domain>.ts) and what runs it;
 * app/compose.ts hands the registrations to the runtime, which knows none of them. Here a job's
 * payload is parsed once with its kind's schema before it runs, a periodic kind is kept queued,
 * and each job's log line says how many GitHub calls it made.
 */
import type { z } from "zod";
import type { JobDedupe, JobSpec } from "../../schemas/jobs/index.js";
import { jobOf } from "../../schemas/jobs/index.js";
import type { Job } from "../../schemas/store.js";
import { AppAdapter, GitHubAdapter, type GitHubClient } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import { keepTrying } from "../kit/keep-trying.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { Store } from "../store/store.js";
import type { JobHandler, RuntimeLog } from "./worker.js";

/** What every job of a process shares: made once, by the server (or a test), with its caches. */
export interface JobServices {
  store: Store;
  now: () => Date;
  /** An installation-authenticated client (Probot's `auth(installationId)`). */
  octokitFor(installation: number): Promise<GitHubClient>;
  /** Authenticated as the App itself (not an installation): its installations, its slug. */
  appOctokit(): Promise<GitHubClient>;
  /** The App's slug: only its own `agate` check runs are the gate, its `<slug>[bot]` its login. */
  appSlug(): Promise<string>;
  /** What never changes once read (app/github/reads.ts), shared by every job. */
  reads: ImmutableReads;
}

/** Which run of which job this is. */
export interface JobRun {
  /**
   * The job being run: what it writes once (app/runtime/write-once.ts) is keyed by it, so its
   * retry finds what an earlier run of it recorded. Absent when a test runs a job itself.
   */
  jobId?: number;
  /**
   * An earlier run of this job failed or stopped part-way: it may have stored some of its work
   * and not the rest (the jobs it calls for, say), so what is stored is not proof of more.
   */
  retried?: boolean;
  log?: (line: string) => void;
}

/** What a registered job runs with. */
export interface JobContext {
  store: Store;
  now: () => Date;
  reads: ImmutableReads;
  appSlug(): Promise<string>;
  /** The installation's adapter for a repository; its calls go in the job's log line. */
  github(repository: string, installation: number): Promise<GitHubAdapter>;
  /** The App itself: which installation reaches a repository. */
  app(): Promise<AppAdapter>;
  /** A line in the process's log, about this job. */
  log(line: string): void;
  retried: boolean;
  jobId?: number;
}

export function jobContext(services: JobServices, run: JobRun = {}): JobContext {
  return {
    store: services.store,
    now: services.now,
    reads: services.reads,
    appSlug: () => services.appSlug(),
    github: async (repository, installation) => {
      const slug = await services.appSlug();
      return new GitHubAdapter(await services.octokitFor(installation), repository, slug);
    },
    app: async () => new AppAdapter(await services.appOctokit()),
    log: run.log ?? (() => {}),
    retried: run.retried ?? false,
    ...(run.jobId === undefined ? {} : { jobId: run.jobId }),
  };
}

/**
 * The App's slug, asked of GitHub once per process (GET /app) and shared; a failed answer is not
 * kept, so the next job asks again.
 */
export function appSlugOnce(appOctokit: () => Promise<GitHubClient>): () => Promise<string> {
  let slug: Promise<string> | undefined;
  return () => {
    if (!slug) {
      const asking = appOctokit().then((octokit) => new AppAdapter(octokit).slug());
      asking.catch(() => {
        if (slug === asking) slug = undefined;
      });
      slug = asking;
    }
    return slug;
  };
}

export interface JobRegistration<S extends z.ZodType = z.ZodType> {
  spec: JobSpec<S>;
  /** Runs the job (its payload parsed); returns its log line. */
  run(payload: z.output<S>, context: JobContext): Promise<string>;
  /**
   * A kind the runtime keeps queued (its payload is null): the first run soon after start, the
   * next queued every `everyMs` before each run, one queued for the whole fleet.
   */
  everyMs?: number;
}

/** A registration, its payload's type taken from its spec. */
export const registration = <S extends z.ZodType>(
  spec: JobSpec<S>,
  run: (payload: z.output<S>, context: JobContext) => Promise<string>,
  options: { everyMs?: number } = {},
): JobRegistration => ({ spec, run, ...options });

export interface JobRegistry {
  readonly kinds: readonly string[];
  readonly registrations: readonly JobRegistration[];
  /** The payload as its kind's schema reads it; throws for an unknown kind or a bad payload. */
  parse(kind: string, payload: unknown): unknown;
  /** Parses the payload and runs the job; its log line, with the GitHub calls it made. */
  run(job: Pick<Job, "kind" | "payload">, context: JobContext): Promise<string>;
}

export function jobRegistry(registrations: readonly JobRegistration[]): JobRegistry {
  const byKind = new Map<string, JobRegistration>();
  for (const r of registrations) {
    if (byKind.has(r.spec.kind)) {
      throw new Error(
        `job kind ${r.spec.kind} is registered twice: each kind belongs to one domain; rename the new one`,
      );
    }
    if (r.everyMs !== undefined && !r.spec.payload.safeParse(null).success) {
      throw new Error(`job kind ${r.spec.kind} is periodic, so its payload must be null`);
    }
    byKind.set(r.spec.kind, r);
  }
  const registered = (kind: string): JobRegistration => {
    const found = byKind.get(kind);
    if (!found) {
      throw new Error(
        `no job registered for kind ${kind}: register it in its domain's jobs.ts (app/compose.ts lists the domains)`,
      );
    }
    return found;
  };
  return {
    kinds: [...byKind.keys()],
    registrations: [...byKind.values()],
    parse: (kind, payload) => registered(kind).spec.payload.parse(payload),
    async run(job, context) {
      const found = registered(job.kind);
      const payload = found.spec.payload.parse(job.payload);
      const adapters: GitHubAdapter[] = [];
      const line = await found.run(payload, {
        ...context,
        github: async (repository, installation) => {
          const adapter = await context.github(repository, installation);
          adapters.push(adapter);
          return adapter;
        },
      });
      return adapters.length === 0 ? line : `${line} (${callsOf(adapters)})`;
    },
  };
}

/** "N GitHub calls: op, op×2", over every adapter the job made. */
function callsOf(adapters: readonly GitHubAdapter[]): string {
  const calls = new Map<string, number>();
  for (const adapter of adapters) {
    for (const [op, n] of adapter.calls) calls.set(op, (calls.get(op) ?? 0) + n);
  }
  const total = [...calls.values()].reduce((sum, n) => sum + n, 0);
  const list = [...calls.entries()].map(([op, n]) => (n > 1 ? `${op}×${n}` : op)).join(", ");
  return `${total} GitHub calls: ${list}`;
}

/**
 * Queues a job by its spec, due at `run_at` (now by default), holding its spec's dedupe key
 * unless `dedupe` names another.
 */
export function queueJob<S extends z.ZodType>(
  queue: Pick<JobQueue, "enqueue">,
  spec: JobSpec<S>,
  payload: z.input<S>,
  options: { run_at?: string; dedupe?: JobDedupe } = {},
): Promise<Job> {
  const dedupe = options.dedupe ?? spec.dedupe?.(payload);
  return queue.enqueue(
    jobOf(spec, payload, options.run_at === undefined ? {} : { run_at: options.run_at }),
    dedupe,
  );
}

/**
 * The worker's handler of every registered kind: each run gets its context from `services`, and
 * its log line goes to the process log. A periodic kind's first run is queued now (a database that
 * does not answer yet is tried again), and each run queues the next before it starts, so a
 * failing run (retried with backoff) never ends them. Its kind is its dedupe key, held while
 * queued: one queued run for the whole fleet, however many replicas schedule it.
 */
export function workerHandlers(
  registry: JobRegistry,
  services: JobServices,
  log: RuntimeLog,
): Record<string, JobHandler> {
  const handlers: Record<string, JobHandler> = {};
  for (const r of registry.registrations) {
    const { everyMs } = r;
    const schedule = (at: Date) =>
      services.store.enqueue(
        { ...jobOf(r.spec, null), run_at: at.toISOString() },
        { dedupeKey: r.spec.kind, until: "started" },
      );
    if (everyMs !== undefined) {
      keepTrying(
        async () => void (await schedule(new Date(Date.now() + Math.min(everyMs, 5_000)))),
        (error, retryInMs) =>
          log.error(
            { err: error },
            `${r.spec.kind}: could not queue the first run; again in ${retryInMs / 1000} s`,
          ),
        { firstDelayMs: 5_000, maxDelayMs: 300_000 },
      );
    }
    handlers[r.spec.kind] = async (job, attempt) => {
      if (everyMs !== undefined) await schedule(new Date(Date.now() + everyMs));
      const context = jobContext(services, {
        jobId: job.id,
        retried: attempt.attempt > 1,
        log: (text) => log.info({ job: job.id }, text),
      });
      log.info({ job: job.id }, await registry.run(job, context));
    };
  }
  return handlers;
}
