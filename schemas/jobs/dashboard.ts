/**
 * The triage dashboard's job kind (app/dashboard/jobs.ts runs it). Its kind keeps the name it was
 * stored under when the dashboard was part of the entries.
 */
import { z } from "zod";
import { type JobPayload, jobSpec, jobTarget as target, triggerSchema } from "./index.js";

/**
 * A repository's triage dashboard (app/dashboard/): the App's one issue listing what needs a
 * maintainer and what is parked, rendered again and written only when it differs. Queued by
 * every transition under the repository's key, so concurrent transitions coalesce.
 */
export const dashboardJobSchema = z.strictObject({ ...target, trigger: triggerSchema });

/** A repository's dashboard: one refresh at a time, a queued one makes a running one's result moot. */
export const dashboardKey = (repository: string) => `${repository}:dashboard`;

export const DASHBOARD_JOBS = {
  /**
   * Queued on its own, a refresh is not queued again while one is queued for the repository: it
   * reads everything when it starts, so one queued is enough however many changes come first.
   */
  refresh: jobSpec(
    "entries.dashboard",
    dashboardJobSchema,
    (p) => dashboardKey(p.repository),
    (p) => ({ dedupeKey: dashboardKey(p.repository), until: "started" }),
  ),
};

export type DashboardJob = JobPayload<typeof DASHBOARD_JOBS.refresh>;
