/**
 * The dashboard's refresh as a job: one key per repository, so refreshes run one at a time and
 * in order, and a refresh with a newer one queued behind it does nothing (app/dashboard/job.ts).
 * Whatever changes what the dashboard lists queues one: an entry's transition, a gate decision.
 */
import { dashboardKey, JOB_KINDS, type JobPayloadInput, type Trigger } from "../../schemas/jobs.js";
import type { NewJob } from "../../schemas/store.js";

export function dashboardJob(repository: string, installation: number, trigger: Trigger): NewJob {
  const payload: JobPayloadInput<"entries.dashboard"> = { repository, installation, trigger };
  return {
    kind: JOB_KINDS.dashboard,
    payload: payload as NewJob["payload"],
    concurrency_key: dashboardKey(repository),
  };
}
