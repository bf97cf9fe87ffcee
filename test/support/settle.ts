import type { Agate } from "../../app/runtime/server.js";
import type { GitHubSimulator } from "../github/index.js";

/**
 * Waits until every webhook the simulator sent was answered and every job the App enqueued was
 * worked, including what that work caused in turn (jobs due later do not count). Throws after
 * `limitMs`.
 */
export async function settle(sim: GitHubSimulator, agate: Agate, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  // Jobs due later (a deadline) are not work in flight.
  const open = async () => {
    const due = (await agate.store.listJobs({ status: "queued" })).filter(
      (job) => Date.parse(job.run_at) <= Date.now(),
    );
    return due.length + (await agate.store.listJobs({ status: "running" })).length;
  };
  while (Date.now() < deadline) {
    await sim.flushWebhooks();
    if ((await open()) === 0) {
      await sim.flushWebhooks();
      if ((await open()) === 0) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the App did not settle within ${limitMs} ms`);
}
