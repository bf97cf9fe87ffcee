/**
 * Tests and scripts: the environment of an agate App against a GitHub simulator, and the App
 * itself as production runs it (startAgate with every domain, over HTTP) in this process. No
 * test runner here: the demo and the benchmarks load it too.
 */
import { agateDomains } from "../../app/compose.js";
import { type Agate, type StartAgateOptions, startAgate } from "../../app/runtime/server.js";
import type { GitHubSimulator } from "../github/index.js";

/**
 * The simulator's App credentials, on 127.0.0.1 and a port the OS picks (PORT=0), silent;
 * `overrides` add or replace variables (the database, the secret, a louder log).
 */
export function simulatorAppEnv(
  sim: GitHubSimulator,
  overrides: Record<string, string>,
): Record<string, string> {
  return { ...sim.probotEnv(), PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", ...overrides };
}

/** The App in this process, its webhooks delivered by the simulator, its workers polling often. */
export async function startSimulatorApp(
  sim: GitHubSimulator,
  env: Record<string, string>,
  options: Pick<StartAgateOptions, "log"> = {},
): Promise<Agate> {
  const agate = await startAgate({
    // The simulator has no secondary rate limits to pace writes for.
    githubThrottle: false,
    env: simulatorAppEnv(sim, env),
    ...options,
    pollMs: 20,
    ...agateDomains,
  });
  sim.setWebhookUrl(`${agate.url}/api/github/webhooks`);
  return agate;
}
