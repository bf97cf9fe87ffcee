/**
 * The App process: settings, store, the intake behind the intake guard (bounded bodies, the
 * signature checked before anything reads the payload), Probot for GitHub, workers, the
 * delivery retention timer, and an HTTP server (`POST /api/github/webhooks`, `GET /healthz` for
 * liveness, `GET /readyz` for readiness).
 */

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hostname } from "node:os";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import { commandSandboxProblem } from "../evaluator/sandbox.js";
import type { GitHubClient } from "../github/adapter.js";
import { ImmutableReads } from "../github/reads.js";
import type { EnvFile, Environment } from "../kit/env.js";
import { openStore, parseDatabaseUrl } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import { HEALTH_PATH, probes, READY_PATH } from "./health.js";
import { intakeHandler } from "./intake.js";
import { answer } from "./intake-body.js";
import {
  createIntakeGuard,
  type IntakeGuard,
  type IntakeLimits,
  type IntakeStats,
  intakeLimits,
} from "./intake-guard.js";
import { appSlugOnce, type JobRegistry, type JobServices, workerHandlers } from "./jobs.js";
import { listenOn } from "./listen.js";
import { type DeliveryRetention, startDeliveryRetention } from "./retention.js";
import type { Observe, Route } from "./routing.js";
import { loadSettings, type Settings } from "./settings.js";
import { type JobHandler, type RuntimeLog, startWorkers, type Workers } from "./worker.js";

export const WEBHOOKS_PATH = "/api/github/webhooks";

/** The running App, for what makes its jobs: Probot (`probot.auth(installationId)`), the store. */
export interface Runtime {
  probot: Probot;
  store: Store;
  settings: Settings;
  log: RuntimeLog;
  /** What every registered job shares (its clients, the App's slug, the reads by SHA). */
  services: JobServices;
}

export type Handlers =
  | Readonly<Record<string, JobHandler>>
  | ((runtime: Runtime) => Readonly<Record<string, JobHandler>>);

export interface StartAgateOptions {
  /**
   * The environment, from the program's entry point (app/main.ts: process.env and .env); read
   * once, by `loadSettings`, and by nothing else.
   */
  env: Environment;
  /** The .env file some of `env` came from, named in the errors about them. */
  envFile?: EnvFile;
  /** Relative paths in the settings resolve against it. */
  cwd?: string;
  /** An open store to use (and leave open on close); by default AGATE_DATABASE_URL is opened. */
  store?: Store;
  /**
   * The domains' job kinds (app/compose.ts), run by the workers: each payload parsed with its
   * kind's schema, periodic kinds kept queued.
   */
  jobs?: JobRegistry | ((runtime: Runtime) => JobRegistry);
  /** Raw worker handlers by kind instead of `jobs` (tests of the runtime itself). */
  handlers?: Handlers;
  /** Which jobs a delivery enqueues (app/compose.ts composes the domains'). */
  route: Route;
  /** The heads and bases a delivery names, recorded with it; none when absent. */
  observe?: Observe;
  now?: () => Date;
  /** Names this process in job leases; default host:pid:random. */
  workerId?: string;
  pollMs?: number;
  /** agate's own log lines (intake, workers); a child of Probot's logger by default. */
  log?: RuntimeLog;
  /** The intake guard's limits (tests make them small); GitHub's 25 MB cap and more by default. */
  intakeLimits?: Partial<IntakeLimits>;
  /** How often stored payloads are pruned (the first pass after at most a minute); 1 h by default. */
  pruneIntervalMs?: number;
  /**
   * Pace GitHub calls as GitHub's secondary rate limits ask (a second between writes); on by
   * default. Off only against a local simulator (tests, the demo), which has no such limits.
   */
  githubThrottle?: boolean;
}

export interface Agate {
  /** http://host:port, with the port actually bound (PORT=0 picks one). */
  url: string;
  port: number;
  probot: Probot;
  store: Store;
  workers: Workers;
  /** Job kinds that have a handler in this process. */
  kinds: readonly string[];
  log: RuntimeLog;
  /** What the intake guard let through and refused so far, and what it holds now. */
  intake(): IntakeStats;
  /** A retention pass now (the timer runs one every hour); resolves with payloads pruned. */
  pruneDeliveries(): Promise<number>;
  /** Stops accepting requests, stops the workers gracefully, closes the store it opened. */
  close(): Promise<void>;
}

/**
 * Probot's client without the pacing of writes. A function default is needed: Probot merges its
 * own throttle options over an object default, and ProbotOctokit turns `enabled` back on.
 */
export const UnthrottledOctokit = ProbotOctokit.defaults(
  (options: ConstructorParameters<typeof ProbotOctokit>[0] = {}) => ({
    ...options,
    throttle: { ...options.throttle, enabled: false },
  }),
);

export async function startAgate(options: StartAgateOptions): Promise<Agate> {
  const settings = loadSettings(options.env, { cwd: options.cwd, envFile: options.envFile });
  const limits = intakeLimits(options.intakeLimits);
  const now = options.now ?? (() => new Date());
  const ownsStore = options.store === undefined;
  const store =
    options.store ??
    (await openStore({
      url: settings.databaseUrl,
      poolSize: settings.databasePoolSize,
      statementTimeoutMs: settings.databaseStatementTimeoutMs,
      now,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    }));
  try {
    const probot = await startProbot(settings, options.githubThrottle);
    const log: RuntimeLog = options.log ?? probot.log.child({ name: "agate" });
    const handlers = jobHandlers(options, { probot, store, settings, log, now });
    const workers = startWorkers({
      store,
      handlers,
      workerId: options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      concurrency: settings.workers,
      leaseMs: settings.leaseMs,
      now,
      log,
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    });
    const intake = intakeHandler({
      store,
      now,
      route: options.route,
      ...(options.observe ? { observe: options.observe } : {}),
      onEnqueued: () => workers.poke(),
      log,
    });
    const guard = createIntakeGuard({
      secret: settings.webhookSecret,
      path: WEBHOOKS_PATH,
      limits,
      log,
    });
    const server = await agateServer({ probot, store, settings, limits, guard, intake, now });
    const retention: DeliveryRetention = startDeliveryRetention({
      store,
      retentionMs: settings.deliveryRetentionMs,
      log,
      ...(options.pruneIntervalMs ? { intervalMs: options.pruneIntervalMs } : {}),
    });
    const bound = await listenOn(server, settings.port, settings.host).catch(async (error) => {
      await retention.stop();
      await workers.stop();
      throw error;
    });
    const kinds = Object.keys(handlers);
    logListening(log, bound, settings, limits, kinds);
    await warnWithoutSandbox(settings, log);

    let closing: Promise<void> | undefined;
    return {
      url: bound.url,
      port: bound.port,
      probot,
      store,
      workers,
      kinds,
      log,
      intake: () => guard.stats(),
      pruneDeliveries: () => retention.runOnce(),
      close: () => {
        closing ??= (async () => {
          await closeServer(server);
          await retention.stop();
          await workers.stop();
          if (ownsStore) await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    if (ownsStore) await store.close();
    throw error;
  }
}

/** Probot for GitHub: the App's credentials, its log, and the pacing of writes unless off. */
async function startProbot(settings: Settings, throttle: boolean | undefined): Promise<Probot> {
  const probot = new Probot({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    baseUrl: settings.baseUrl,
    logLevel: settings.logLevel === "silent" ? "fatal" : settings.logLevel,
    logFormat: settings.logFormat,
    ...(throttle === false ? { Octokit: UnthrottledOctokit } : {}),
  });
  await probot.ready();
  if (settings.logLevel === "silent") probot.log.level = "silent";
  return probot;
}

/**
 * The HTTP server: the probes (app/runtime/health.ts), a webhook through the intake guard to the
 * intake, anything else to Probot's middleware.
 */
async function agateServer(parts: {
  probot: Probot;
  store: Store;
  settings: Settings;
  limits: IntakeLimits;
  guard: IntakeGuard;
  intake: Parameters<IntakeGuard["handle"]>[2];
  now: () => Date;
}): Promise<Server> {
  const { probot, store, settings, limits, guard, intake } = parts;
  // A verified webhook goes from the guard straight to the intake (see intake.ts); Probot's
  // middleware answers every other request as it always has (404s), with no handler of ours.
  const middleware = await createNodeMiddleware(() => {}, {
    probot,
    webhooksPath: WEBHOOKS_PATH,
  });
  const probotMiddleware = (req: IncomingMessage, res: ServerResponse) =>
    void middleware(req, res, () => {
      answer(req, res, 404, { error: `not found: ${req.method} ${req.url}` }, {}, limits.lingerMs);
    });
  // The backend's name, as the store opener reads the same URL ("sqlite-memory" is SQLite too).
  const storeKind = parseDatabaseUrl(settings.databaseUrl).kind.replace("-memory", "");
  const probe = probes(store, storeKind, probot, parts.now);
  const server = createServer((req, res) => {
    if (probe(req, res)) return;
    // A webhook request reaches the intake only through the guard, with its body read and
    // verified; anything else goes to Probot's middleware, which reads no body for it.
    if (guard.handle(req, res, intake)) return;
    probotMiddleware(req, res);
  });
  // Slow headers hold a socket and nothing else; still, nothing legitimate takes this long.
  server.headersTimeout = 20_000;
  server.requestTimeout = limits.waitMs + limits.bodyTimeoutMs + 20_000;
  return server;
}

function logListening(
  log: RuntimeLog,
  bound: { address: string; port: number; where: string },
  settings: Settings,
  limits: IntakeLimits,
  kinds: readonly string[],
): void {
  log.info(
    {
      address: bound.address,
      port: bound.port,
      database: settings.databaseUrl,
      workers: settings.workers,
      kinds,
      delivery_retention_ms: settings.deliveryRetentionMs,
      max_body_bytes: limits.maxBodyBytes,
    },
    `agate is listening on ${bound.where}: webhooks at ${WEBHOOKS_PATH}, liveness at ${HEALTH_PATH}, readiness at ${READY_PATH}; job handlers: ${kinds.length > 0 ? kinds.join(", ") : "none (deliveries are recorded and queued, not worked)"}`,
  );
}

/**
 * A `command` evaluator the operator allows needs the sandbox: say at start when there is none,
 * rather than at the first pull request that asks for it.
 */
async function warnWithoutSandbox(settings: Settings, log: RuntimeLog): Promise<void> {
  if (settings.evaluator.policy.commands.length === 0) return;
  const sandbox = await commandSandboxProblem(settings.evaluator.judgeOptions.sandbox);
  if (sandbox) {
    log.warn(
      { sandbox: sandbox.error },
      `AGATE_EVALUATOR_COMMANDS is set, but command evaluators cannot run here: ${sandbox.error}. Fix: ${sandbox.fix}`,
    );
  }
}

/** The workers' handlers: the registry's (each job with its context), or raw ones, or none. */
function jobHandlers(
  options: Pick<StartAgateOptions, "jobs" | "handlers">,
  app: Omit<Runtime, "services"> & { now: () => Date },
): Readonly<Record<string, JobHandler>> {
  if (options.jobs && options.handlers) {
    throw new Error("startAgate takes `jobs` (the registry) or `handlers` (raw), not both");
  }
  const services = probotServices(app.probot, app.store, app.now);
  const runtime: Runtime = { ...app, services };
  if (options.jobs) {
    const registry = typeof options.jobs === "function" ? options.jobs(runtime) : options.jobs;
    return workerHandlers(registry, services, app.log);
  }
  return typeof options.handlers === "function"
    ? options.handlers(runtime)
    : (options.handlers ?? {});
}

/**
 * What every job of the process shares, over Probot: its installation and App clients, the
 * App's slug asked once, one cache of reads by SHA.
 */
export function probotServices(probot: Probot, store: Store, now: () => Date): JobServices {
  const appOctokit = async () => (await probot.auth()) as GitHubClient;
  return {
    store,
    now,
    octokitFor: async (id) => (await probot.auth(id)) as GitHubClient,
    appOctokit,
    appSlug: appSlugOnce(appOctokit),
    reads: new ImmutableReads(),
  };
}

/** Stops accepting; requests in flight (a delivery being recorded) finish first. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
