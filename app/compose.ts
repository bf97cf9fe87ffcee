/**
 * The composition root: every domain's job kinds and routes, handed to the runtime, which knows
 * none of them. To add a job kind: its spec in schemas/jobs/<domain>.ts, its registration in
 * app/<domain>/jobs.ts, its route if a delivery makes it (app/compose.test.ts checks that every
 * kind a route makes is registered).
 */
import { dashboardJobs } from "./dashboard/jobs.js";
import { entryJobs } from "./entries/jobs.js";
import { entryRoutes } from "./entries/route.js";
import { agentWaits } from "./entries/waiting.js";
import { eventBases } from "./gate/event-bases.js";
import { type GateJobsOptions, gateJobs } from "./gate/jobs.js";
import { RequiredCheckReader } from "./gate/required-check.js";
import { gateRoutes } from "./gate/route.js";
import { type JobRegistry, jobRegistry } from "./runtime/jobs.js";
import { composeRoutes, type Observe, type Route } from "./runtime/routing.js";
import type { Runtime, StartAgateOptions } from "./runtime/server.js";

/**
 * Which jobs a delivery makes. The entries' route goes first: jobs of one key run in the order
 * queued, so a reopened pull request's entries pass runs before its gate pass.
 */
export const agateRoute: Route = composeRoutes([entryRoutes, gateRoutes]);

/** The heads and bases a delivery names, stored with it: the gate's (app/gate/event-bases.ts). */
export const agateObserve: Observe = eventBases;

/** Every job kind the App runs. */
export function agateJobs(options: GateJobsOptions = {}): JobRegistry {
  return jobRegistry([...gateJobs(options), ...entryJobs(), ...dashboardJobs(agentWaits)]);
}

/** The App's jobs from its settings: the evaluator, the reconcile interval, its id. */
function appJobs(runtime: Runtime): JobRegistry {
  const { settings, services } = runtime;
  return agateJobs({
    evaluator: settings.evaluator,
    reconcileEveryMs: settings.reconcileIntervalMs,
    requiredChecks: new RequiredCheckReader({
      app: async () => ({ id: settings.appId, slug: await services.appSlug() }),
      now: services.now,
    }),
  });
}

/** What startAgate takes from the domains. */
export const agateDomains: Pick<StartAgateOptions, "jobs" | "route" | "observe"> = {
  jobs: appJobs,
  route: agateRoute,
  observe: agateObserve,
};
