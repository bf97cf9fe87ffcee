/** The dashboard's job kind (its spec in schemas/jobs/dashboard.ts), registered by app/compose.ts. */
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { type JobRegistration, registration } from "../runtime/jobs.js";
import { type AgentWaits, runDashboardJob } from "./job.js";

/** `agentWaits`: the entries' rule of who waits on an entry (app/entries/waiting.ts). */
export function dashboardJobs(agentWaits: AgentWaits): JobRegistration[] {
  return [
    registration(DASHBOARD_JOBS.refresh, async (job, context) =>
      runDashboardJob(job, {
        github: await context.github(job.repository, job.installation),
        store: context.store,
        appLogin: `${await context.appSlug()}[bot]`,
        now: context.now,
        agentWaits,
      }),
    ),
  ];
}
