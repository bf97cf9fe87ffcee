/**
 * Tests only: the App against the GitHub simulator, as the harnesses run its jobs in-process
 * (test/support/gate-harness.ts, entries-harness.ts).
 */
import { Probot } from "probot";
import { ImmutableReads } from "../../app/github/reads.js";
import type { JobServices } from "../../app/runtime/jobs.js";
import { UnthrottledOctokit } from "../../app/runtime/server.js";
import type { Store } from "../../app/store/store.js";
import type { GitHubSimulator } from "../github/index.js";

/**
 * A fresh Probot for the simulator's App: no token or state cached from another test, and no
 * pacing of writes (the simulator has no secondary rate limits: startAgate's githubThrottle).
 */
export function simulatorProbot(sim: GitHubSimulator): Probot {
  return new Probot({
    appId: sim.appId,
    privateKey: sim.privateKey,
    baseUrl: sim.apiUrl,
    logLevel: "fatal",
    Octokit: UnthrottledOctokit,
  });
}

/** What every job shares, over that Probot; the App's slug is the simulator's, not asked. */
export function simulatorServices(
  sim: GitHubSimulator,
  probot: Probot,
  shared: { store: Store; now: () => Date; reads?: ImmutableReads },
): JobServices {
  return {
    store: shared.store,
    now: shared.now,
    octokitFor: (id: number) => probot.auth(id) as never,
    appOctokit: () => probot.auth() as never,
    appSlug: async () => sim.appSlug,
    reads: shared.reads ?? new ImmutableReads(),
  };
}
