import { evaluateJobSchema } from "../../schemas/jobs.js";
import { type AppAdapter, GitHubAdapter, type GitHubClient } from "../github/adapter.js";
import type { Store } from "../store/store.js";

/** Re-evaluates one pull request from live facts; queued by the reconcile pass. */
export const EVALUATE = "gate.evaluate";

export interface ReconcileDeps {
  store: Store;
  app: AppAdapter;
  octokitFor(installationId: number): Promise<GitHubClient>;
  appSlug(): Promise<string>;
  log?: (line: string) => void;
}

/**
 * Webhooks get lost. This pass lists every open pull request of every repository agate has heard
 * of and queues a fresh evaluation of each, under the pull request's own concurrency key so it
 * runs in order with the webhook jobs. Evaluation writes only what differs from the live state,
 * so a check or label a dropped delivery left behind is repaired and the rest costs reads only.
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
    for (const number of await github.openPullRequestNumbers()) {
      await deps.store.enqueue({
        kind: EVALUATE,
        payload: evaluateJobSchema.parse({ repository, number, installation }),
        concurrency_key: `${repository}#${number}`,
      });
      queued++;
    }
  }
  deps.log?.(
    `reconcile: queued ${queued} evaluations of open pull requests in ${repositories} repositories`,
  );
  return { repositories, queued };
}
