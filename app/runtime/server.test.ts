import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventually, recordingLog } from "../../test/support/recording-log.js";
import { webhookExample } from "../../test/support/webhook-examples.js";
import { type Agate, type Runtime, startAgate } from "./server.js";
import type { JobHandler } from "./worker.js";

/** A fresh directory per test; call the returned cleanup in afterEach. */
function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "agate-server-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const PEM = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
const SECRET = "server-test-secret";

let dir: string;
let cleanup: () => void;
let agate: Agate | undefined;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(async () => {
  await agate?.close();
  agate = undefined;
  cleanup();
});

function env(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    APP_ID: "42",
    PRIVATE_KEY: PEM,
    WEBHOOK_SECRET: SECRET,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    AGATE_DATABASE_URL: `file:${join(dir, "agate.db")}`,
    ...overrides,
  };
}

async function post(url: string, event: string, id: string, body: string) {
  return fetch(`${url}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": await sign(SECRET, body),
    },
    body,
  });
}

describe("startAgate", () => {
  it("refuses to start on a missing or invalid setting, with the message, before opening the store", async () => {
    const { APP_ID: _, ...withoutAppId } = env({ AGATE_WORKERS: "many" });
    await expect(startAgate({ env: withoutAppId, handlers: {} })).rejects.toThrow(
      "agate cannot start: 2 settings are missing or invalid (environment variables):\n" +
        "  - APP_ID is missing: set it to your GitHub App's id (Settings → Developer settings → GitHub Apps → your App → App ID)\n" +
        '  - AGATE_WORKERS is "many": set it to how many jobs run at once',
    );
    expect(existsSync(join(dir, "agate.db"))).toBe(false);
  });

  it("checks the evaluator's commands at start and hands job handlers its typed settings", async () => {
    await expect(
      startAgate({ env: env({ AGATE_EVALUATOR_COMMANDS: "./judge --json" }), handlers: {} }),
    ).rejects.toThrow(
      'agate cannot start: a setting is missing or invalid (environment variables):\n  - AGATE_EVALUATOR_COMMANDS lists "./judge --json", whose program ./judge is a relative path',
    );
    expect(existsSync(join(dir, "agate.db"))).toBe(false);

    const log = recordingLog();
    let seen: Runtime["settings"]["evaluator"] | undefined;
    agate = await startAgate({
      env: env({
        AGATE_EVALUATOR_COMMANDS: "bash -c 'echo {}'",
        AGATE_EVALUATOR_BWRAP: "/nonexistent/bin/bwrap",
        OPENAI_API_KEY: "sk-openai",
      }),
      log,
      handlers: (runtime) => {
        seen = runtime.settings.evaluator;
        return {};
      },
    });
    expect(seen?.policy.commands).toEqual(["bash -c 'echo {}'"]);
    expect(seen?.judgeOptions.apiKeys).toEqual({ OPENAI_API_KEY: "sk-openai" });
    // The sandbox cannot be had here: said at start, from the settings, not at the first pull request.
    expect(log.entries).toContainEqual(
      expect.objectContaining({
        level: "warn",
        message: expect.stringContaining(
          "AGATE_EVALUATOR_COMMANDS is set, but command evaluators cannot run here: the command evaluator runs only in a sandbox, and there is none on the App's host: AGATE_EVALUATOR_BWRAP is /nonexistent/bin/bwrap",
        ),
      }),
    );
  });

  it("serves /healthz with the store and its queue", async () => {
    agate = await startAgate({ env: env(), handlers: {} });
    const response = await fetch(`${agate.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, store: "sqlite", queued: 0 });
    const missing = await fetch(`${agate.url}/nope`);
    expect(missing.status).toBe(404);
  });

  it("records a signed delivery, counts it as queued without handlers, and runs it with one", async () => {
    const body = JSON.stringify(webhookExample("pull_request", "opened"));
    agate = await startAgate({ env: env(), handlers: {} });
    expect((await post(agate.url, "pull_request", "d-1", body)).status).toBe(200);
    expect(await (await fetch(`${agate.url}/healthz`)).json()).toMatchObject({ queued: 1 });
    await agate.close();

    const log = recordingLog();
    const ran: string[] = [];
    let probotSeen = false;
    agate = await startAgate({
      env: env(),
      log,
      handlers: (runtime) => {
        probotSeen = typeof runtime.probot.auth === "function";
        const handler: JobHandler = async (job, { delivery }) => {
          ran.push(`${job.kind} ${delivery?.id}`);
        };
        return { "gate.pull_request": handler };
      },
    });
    expect(probotSeen).toBe(true);
    expect(agate.kinds).toEqual(["gate.pull_request"]);
    await eventually("the queued job to run", () => ran.length > 0);
    expect(ran).toEqual(["gate.pull_request d-1"]);
  });

  it("closes: stops listening, stops the workers, closes the store it opened", async () => {
    agate = await startAgate({ env: env(), handlers: {} });
    const { url, store } = agate;
    await agate.close();
    agate = undefined;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    await expect(store.listJobs()).rejects.toThrow();
  });

  it("says so when the port is taken", async () => {
    agate = await startAgate({ env: env(), handlers: {} });
    await expect(
      startAgate({
        env: env({ PORT: String(agate.port), AGATE_DATABASE_URL: `file:${join(dir, "b.db")}` }),
        handlers: {},
      }),
    ).rejects.toThrow(`PORT ${agate.port} is in use by another process`);
  });
});
