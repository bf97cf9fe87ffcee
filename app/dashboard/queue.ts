/**
 * The dashboard's refresh as a job: one key per repository, so refreshes run one at a time and
 * in order, and a refresh with a newer one queued behind it does nothing (app/dashboard/job.ts).
 * Whatever changes what the dashboard lists queues one: an entry's transition, a gate decision.
 */
import {
  dashboardKey,
  JOB_KINDS,
  type JobPayloadInput,
  type Trigger,
} from "../../schemas/jobs/gate.js";
import type { NewJob } from "../../schemas/store.js";
import type { JobQueue } from "../store/ports/job-queue.js";

export function dashboardJob(repository: string, installation: number, trigger: Trigger): NewJob {
  const payload: JobPayloadInput<"entries.dashboard"> = { repository, installation, trigger };
  return {
    kind: JOB_KINDS.dashboard,
    payload: payload as NewJob["payload"],
    concurrency_key: dashboardKey(repository),
  };
}

/**
 * Queues a refresh unless one is already queued for the repository (a refresh reads everything
 * when it starts, so one queued is enough however many changes arrive before it).
 */
export async function queueDashboardRefresh(
  queue: Pick<JobQueue, "enqueue">,
  repository: string,
  installation: number,
  trigger: Trigger,
): Promise<void> {
  await queue.enqueue(dashboardJob(repository, installation, trigger), {
    dedupeKey: dashboardKey(repository),
    until: "started",
  });
}
