import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { pullRequestKey } from "../../schemas/jobs/index.js";
import type { JobContext } from "../runtime/jobs.js";
import { queueJob } from "../runtime/jobs.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";

export interface ReconcileDeps extends Pick<JobContext, "app" | "github"> {
  store: Pick<RecordStore, "listRepositories"> & Pick<JobQueue, "enqueue">;
}

/**
 * Webhooks get lost. This pass lists every open pull request of every repository agate has heard
 * of and queues a gate pass of each, under the pull request's own concurrency key so it runs in
 * order with the webhook jobs. A pass writes only what differs from the live state, so a check
 * or label a dropped delivery left behind is repaired and the rest costs reads only.
 */
export async function reconcileOnce(
  deps: ReconcileDeps,
): Promise<{ repositories: number; queued: number }> {
  const app = await deps.app();
  let repositories = 0;
  let queued = 0;
  for (const repository of await deps.store.listRepositories()) {
    const installation = await app.installationOf(repository);
    if (installation === null) continue;
    repositories++;
    const github = await deps.github(repository, installation);
    for (const { number } of await github.openPullRequests()) {
      // A pass this or another replica's reconcile queued that has not started yet is enough:
      // the key is released when a pass starts, so a later one always reads fresh state.
      await queueJob(
        deps.store,
        GATE_JOBS.pullRequest,
        {
          repository,
          installation,
          number,
          trigger: { event: GATE_JOBS.reconcile.kind, action: null, delivery_id: null },
        },
        {
          dedupe: {
            dedupeKey: `reconcile:${pullRequestKey(repository, number)}`,
            until: "started",
          },
        },
      );
      queued++;
    }
  }
  return { repositories, queued };
}
