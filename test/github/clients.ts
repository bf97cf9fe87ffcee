// Octokit clients against a simulator, authenticated the way agate's App and Action are.
import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import type { GitHubSimulator } from "./simulator.js";

/** Octokit logs failed requests with console.error; tests assert on errors instead. */
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export function appClient(sim: GitHubSimulator): Octokit {
  return new Octokit({
    baseUrl: sim.apiUrl,
    authStrategy: createAppAuth,
    auth: { appId: sim.appId, privateKey: sim.privateKey },
    log: quiet,
  });
}

export function installationClient(
  sim: GitHubSimulator,
  installationId = sim.installationId,
): Octokit {
  return new Octokit({
    baseUrl: sim.apiUrl,
    authStrategy: createAppAuth,
    auth: { appId: sim.appId, privateKey: sim.privateKey, installationId },
    log: quiet,
  });
}

export function tokenClient(sim: GitHubSimulator, token: string | undefined): Octokit {
  return new Octokit({ baseUrl: sim.apiUrl, log: quiet, ...(token ? { auth: token } : {}) });
}

/**
 * `client` creates a check run named `agate` on `head` in the simulator's `repo` (`extra` adds
 * fields, such as a status); GitHub's answer.
 */
export function createAgateCheck(
  client: Octokit,
  sim: GitHubSimulator,
  repo: string,
  head: string,
  extra: Partial<Parameters<Octokit["rest"]["checks"]["create"]>[0]> = {},
) {
  return client.rest.checks.create({
    owner: sim.owner,
    repo,
    name: "agate",
    head_sha: head,
    ...extra,
  });
}
