import { JOB_KINDS, type JobPayloadInput, pullRequestKey } from "../../schemas/jobs/gate.js";
import { type AppAdapter, GitHubAdapter, type GitHubClient } from "../github/adapter.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";

export interface ReconcileDeps {
  store: Pick<RecordStore, "listRepositories"> & Pick<JobQueue, "enqueue">;
  app: AppAdapter;
  octokitFor(installationId: number): Promise<GitHubClient>;
  appSlug(): Promise<string>;
  log?: (line: string) => void;
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
  const slug = await deps.appSlug();
  let repositories = 0;
  let queued = 0;
  for (const repository of await deps.store.listRepositories()) {
    const installation = await deps.app.installationOf(repository);
    if (installation === null) continue;
    repositories++;
    const github = new GitHubAdapter(await deps.octokitFor(installation), repository, slug);
    for (const { number } of await github.openPullRequests()) {
      const payload: JobPayloadInput<"gate.pull_request"> = {
        repository,
        installation,
        number,
        trigger: { event: JOB_KINDS.reconcile, action: null, delivery_id: null },
      };
      // A pass this or another replica's reconcile queued that has not started yet is enough:
      // the key is released when a pass starts, so a later one always reads fresh state.
      await deps.store.enqueue(
        {
          kind: JOB_KINDS.pullRequest,
          payload,
          concurrency_key: pullRequestKey(repository, number),
        },
        { dedupeKey: `reconcile:${pullRequestKey(repository, number)}`, until: "started" },
      );
      queued++;
    }
  }
  deps.log?.(
    `reconcile: queued gate passes for ${queued} open pull requests in ${repositories} repositories (a pass already waiting counts)`,
  );
  return { repositories, queued };
}
