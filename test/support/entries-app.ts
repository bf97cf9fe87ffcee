/**
 * Tests only: the agate App as it runs in production (startAgate with its real handlers, over
 * HTTP), in this process, against a simulator; and the environment an agent's CLI gets there.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agate } from "../../app/runtime/server.js";
import { type GitHubSimulator, startGitHubSimulator } from "../github/index.js";
import { startSimulatorApp } from "./simulator-env.js";

export async function startEntriesApp(
  sim: GitHubSimulator,
  secret: string,
): Promise<{ agate: Agate; dir: string; close(): Promise<void> }> {
  const temp = mkdtempSync(join(tmpdir(), "agate-entries-app-"));
  const agate = await startSimulatorApp(sim, {
    WEBHOOK_SECRET: secret,
    AGATE_DATABASE_URL: `file:${join(temp, "agate.db")}`,
  });
  return {
    agate,
    dir: temp,
    close: async () => {
      await agate.close();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}

/**
 * A simulator signing its webhooks with `secret` and the App against it; `close` stops both, the
 * App first.
 */
export async function startEntriesWorld(secret: string): Promise<{
  sim: GitHubSimulator;
  app: Awaited<ReturnType<typeof startEntriesApp>>;
  close(): Promise<void>;
}> {
  const sim = await startGitHubSimulator({ webhookSecret: secret });
  const app = await startEntriesApp(sim, secret);
  return {
    sim,
    app,
    close: async () => {
      await app.close();
      await sim.close();
    },
  };
}

/** What an agent's CLI needs: a token acting as `login`, the API, the repository, the App. */
export function agentEnv(
  sim: GitHubSimulator,
  login: string,
  repo: string,
): Record<string, string> {
  return {
    GITHUB_TOKEN: sim.createToken({
      actor: login,
      permissions: { issues: "write", metadata: "read" },
    }),
    GITHUB_API_URL: sim.apiUrl,
    GITHUB_REPOSITORY: `${sim.owner}/${repo}`,
    AGATE_APP_LOGIN: `${sim.appSlug}[bot]`,
    AGATE_ENTRY_POLL_MS: "100",
  };
}
