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
import { noAnswer, noAnswerText } from "../../checks/github-answers.js";
import { commandSandboxProblem } from "../evaluator/sandbox.js";
import type { GitHubClient } from "../github/adapter.js";
import { ImmutableReads } from "../github/reads.js";
import { openStore, parseDatabaseUrl } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import { intakeHandler } from "./intake.js";
import { answer } from "./intake-body.js";
import {
  createIntakeGuard,
  type IntakeLimits,
  type IntakeStats,
  intakeLimits,
} from "./intake-guard.js";
import { appSlugOnce, type JobRegistry, type JobServices, workerHandlers } from "./jobs.js";
import { listenOn } from "./listen.js";
import { type DeliveryRetention, startDeliveryRetention } from "./retention.js";
import type { Observe, Route } from "./routing.js";
import { type EnvFile, type Environment, loadSettings, type Settings } from "./settings.js";
import { type JobHandler, type RuntimeLog, startWorkers, type Workers } from "./worker.js";

export const WEBHOOKS_PATH = "/api/github/webhooks";
export const HEALTH_PATH = "/healthz";
export const READY_PATH = "/readyz";
/** How long a readiness answer is reused: probes come every few seconds, GitHub is asked less. */
const READY_CACHE_MS = 10_000;
const READY_GITHUB_TIMEOUT_MS = 5_000;

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
    const probot = new Probot({
      appId: settings.appId,
      privateKey: settings.privateKey,
      secret: settings.webhookSecret,
      baseUrl: settings.baseUrl,
      logLevel: settings.logLevel === "silent" ? "fatal" : settings.logLevel,
      logFormat: settings.logFormat,
      ...(options.githubThrottle === false ? { Octokit: UnthrottledOctokit } : {}),
    });
    await probot.ready();
    if (settings.logLevel === "silent") probot.log.level = "silent";
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
    // A verified webhook goes from the guard straight to the intake (see intake.ts); Probot's
    // middleware answers every other request as it always has (404s), with no handler of ours.
    const middleware = await createNodeMiddleware(() => {}, {
      probot,
      webhooksPath: WEBHOOKS_PATH,
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
    const probotMiddleware = (req: IncomingMessage, res: ServerResponse) =>
      void middleware(req, res, () => {
        answer(
          req,
          res,
          404,
          { error: `not found: ${req.method} ${req.url}` },
          {},
          limits.lingerMs,
        );
      });
    // The backend's name, as the store opener reads the same URL ("sqlite-memory" is SQLite too).
    const storeKind = parseDatabaseUrl(settings.databaseUrl).kind.replace("-memory", "");
    const readiness = readinessCheck(store, storeKind, probot, now);
    const server = createServer((req, res) => {
      if (req.method === "GET" && req.url === HEALTH_PATH) {
        void health(store, storeKind, res);
        return;
      }
      if (req.method === "GET" && req.url === READY_PATH) {
        void readiness().then((ready) => {
          res.writeHead(ready.ok ? 200 : 503, { "content-type": "application/json" });
          res.end(JSON.stringify(ready));
        });
        return;
      }
      // A webhook request reaches the intake only through the guard, with its body read and
      // verified; anything else goes to Probot's middleware, which reads no body for it.
      if (guard.handle(req, res, intake)) return;
      probotMiddleware(req, res);
    });
    // Slow headers hold a socket and nothing else; still, nothing legitimate takes this long.
    server.headersTimeout = 20_000;
    server.requestTimeout = limits.waitMs + limits.bodyTimeoutMs + 20_000;
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
    const { port, url, where } = bound;
    const kinds = Object.keys(handlers);
    log.info(
      {
        address: bound.address,
        port,
        database: settings.databaseUrl,
        workers: settings.workers,
        kinds,
        delivery_retention_ms: settings.deliveryRetentionMs,
        max_body_bytes: limits.maxBodyBytes,
      },
      `agate is listening on ${where}: webhooks at ${WEBHOOKS_PATH}, liveness at ${HEALTH_PATH}, readiness at ${READY_PATH}; job handlers: ${kinds.length > 0 ? kinds.join(", ") : "none (deliveries are recorded and queued, not worked)"}`,
    );

    // A `command` evaluator the operator allows needs the sandbox: say at start when there is none,
    // rather than at the first pull request that asks for it.
    if (settings.evaluator.policy.commands.length > 0) {
      const sandbox = await commandSandboxProblem(settings.evaluator.judgeOptions.sandbox);
      if (sandbox) {
        log.warn(
          { sandbox: sandbox.error },
          `AGATE_EVALUATOR_COMMANDS is set, but command evaluators cannot run here: ${sandbox.error}. Fix: ${sandbox.fix}`,
        );
      }
    }

    let closing: Promise<void> | undefined;
    return {
      url,
      port,
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

/**
 * Liveness: the process answers and its store answers (a worker that cannot reach its store is
 * stuck). It asks GitHub nothing, so a GitHub outage never restarts the App.
 */
async function health(
  store: Store,
  kind: string,
  res: ServerResponse<IncomingMessage>,
): Promise<void> {
  try {
    const queued = await store.countJobs({ status: "queued" });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, store: kind, queued }));
  } catch (error) {
    res.writeHead(503, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: false, store: kind, error: (error as Error).message }));
  }
}

export interface Readiness {
  ok: boolean;
  store: { ok: boolean; kind: string; error?: string };
  /** The App's own credentials against GitHub (`GET /app`): the key, the id and the host. */
  github: { ok: boolean; app?: string; error?: string };
  checked_at: string;
}

/**
 * Readiness: this App can do its work, so a load balancer may send it webhooks. The store answers,
 * and GitHub accepts the App's credentials. The answer is reused for a few seconds.
 */
function readinessCheck(
  store: Store,
  kind: string,
  probot: Probot,
  now: () => Date,
): () => Promise<Readiness> {
  let last: { at: number; answer: Promise<Readiness> } | undefined;
  const check = async (): Promise<Readiness> => {
    const [storeState, github] = await Promise.all([
      store.countJobs({ status: "queued" }).then(
        () => ({ ok: true, kind }),
        (error: Error) => ({ ok: false, kind, error: error.message }),
      ),
      probot
        .auth()
        // A probe must answer in seconds: no retries, and a deadline.
        .then((octokit) =>
          octokit.rest.apps.getAuthenticated({
            request: { retries: 0, signal: AbortSignal.timeout(READY_GITHUB_TIMEOUT_MS) },
          }),
        )
        .then(
          ({ data }) => ({ ok: true, app: data?.slug ?? String(data?.id ?? "") }),
          (error: Error & { status?: number }) => {
            // No answer at all (DNS, a refused connection, a timeout) is not GitHub's HTTP 500.
            const unreached = noAnswer(error);
            return {
              ok: false,
              error: unreached
                ? `${noAnswerText(unreached)}; check GHE_HOST and GHE_PROTOCOL, and that this host can reach GitHub (DNS, a firewall or proxy on the way)`
                : error.status !== undefined && error.status >= 500
                  ? `GitHub answered HTTP ${error.status}: ${error.message}; it may be down (try again later), or GHE_HOST is not a GitHub`
                  : `GitHub refused the App's credentials${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}; check APP_ID, the private key, and GHE_HOST`,
            };
          },
        ),
    ]);
    return {
      ok: storeState.ok && github.ok,
      store: storeState,
      github,
      checked_at: now().toISOString(),
    };
  };
  return () => {
    const at = Date.now();
    if (!last || at - last.at >= READY_CACHE_MS) last = { at, answer: check() };
    return last.answer;
  };
}

/** Stops accepting; requests in flight (a delivery being recorded) finish first. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
