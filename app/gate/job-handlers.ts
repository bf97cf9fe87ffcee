import type { GitHubClient } from "../github/adapter.js";
import type { Runtime } from "../runtime/server.js";
import type { JobHandler } from "../runtime/worker.js";
import { ConfigCache } from "./gather.js";
import { handleGateDelivery } from "./handle-delivery.js";

/** The gate's job handlers, given the running App (its Probot for installation tokens). */
export function gateJobHandlers(runtime: Runtime): Record<string, JobHandler> {
  const configs = new ConfigCache();
  let slug: Promise<string> | undefined;
  const appSlug = () => {
    slug ??= runtime.probot.auth().then(async (octokit) => {
      const { data } = await octokit.rest.apps.getAuthenticated();
      if (!data?.slug) throw new Error("GitHub did not say this App's slug; is APP_ID right?");
      return data.slug;
    });
    slug.catch(() => {
      slug = undefined;
    });
    return slug;
  };
  return {
    "gate.delivery": async (job, { delivery }) => {
      if (!delivery) throw new Error(`job ${job.id} names no stored delivery`);
      await handleGateDelivery(delivery, {
        store: runtime.store,
        now: () => new Date(),
        octokitFor: async (id) => (await runtime.probot.auth(id)) as GitHubClient,
        appSlug,
        configs,
        log: (line) => runtime.log.info({ job: job.id }, line),
      });
    },
  };
}
