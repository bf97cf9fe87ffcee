/**
 * Tests only: the GitHub simulator for a test file, and the App against it as the harnesses run
 * its jobs in-process (test/support/gate-harness.ts, entries-harness.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Probot } from "probot";
import { afterAll, beforeAll } from "vitest";
import { ImmutableReads } from "../../app/github/reads.js";
import type { JobServices } from "../../app/runtime/jobs.js";
import { UnthrottledOctokit } from "../../app/runtime/server.js";
import type { Store } from "../../app/store/store.js";
import {
  type GitHubSimulator,
  type Receiver,
  type SimulatorOptions,
  startGitHubSimulator,
  startReceiver,
} from "../github/index.js";

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

/**
 * A simulator for the file's tests, its webhooks sent to a receiver of its own: started before
 * them, closed after. The returned function gives it, in a test or a hook.
 */
export function useSimulator(
  options: Omit<SimulatorOptions, "webhookUrl"> = {},
): () => GitHubSimulator {
  let receiver: Receiver | undefined;
  let sim: GitHubSimulator | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
    sim = await startGitHubSimulator({ ...options, webhookUrl: receiver.url });
  });
  afterAll(async () => {
    await sim?.close();
    await receiver?.close();
  });
  return () => {
    if (!sim) throw new Error("useSimulator's simulator is only there in a test or a hook");
    return sim;
  };
}

/**
 * What a harness keeps for its file's tests: a temp dir, removed after them with the store the
 * harness holds then closed; and `need`, which says what a test asked for before the harness had
 * it ("the gate harness has no store yet").
 */
export function useHarnessTemp(
  name: string,
  store: () => { close(): Promise<void> } | undefined,
): { temp: string; need: <T>(value: T | undefined, what: string) => T } {
  const temp = mkdtempSync(join(tmpdir(), `agate-${name}-`));
  afterAll(async () => {
    await store()?.close();
    rmSync(temp, { recursive: true, force: true });
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${name} harness has no ${what} yet`);
    return value;
  };
  return { temp, need };
}
