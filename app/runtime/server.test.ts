import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closedPort } from "../../test/support/closed-port.js";
import { postDelivery } from "../../test/support/local-app.js";
import { eventually, recordingLog } from "../../test/support/recording-log.js";
import { useLocalApp } from "../../test/support/use-local-app.js";
import { webhookExample } from "../../test/support/webhook-examples.js";
import type { Readiness } from "./health.js";
import type { Runtime } from "./server.js";
import type { JobHandler } from "./worker.js";

const SECRET = "server-test-secret";
const ROOT = join(import.meta.dirname, "..", "..");

const app = useLocalApp(SECRET);

describe("startAgate", () => {
  it("refuses to start on a missing or invalid setting, with the message, before opening the store", async () => {
    const { APP_ID: _, ...withoutAppId } = app.env({ AGATE_WORKERS: "many" });
    await expect(app.start({ env: withoutAppId })).rejects.toThrow(
      "agate cannot start: 2 settings are missing or invalid (environment variables):\n" +
        "  - APP_ID is missing: set it to your GitHub App's id (Settings → Developer settings → GitHub Apps → your App → App ID)\n" +
        '  - AGATE_WORKERS is "many": set it to how many jobs run at once',
    );
    expect(existsSync(join(app.dir, "agate.db"))).toBe(false);
  });

  it("checks the evaluator's commands at start and hands job handlers its typed settings", async () => {
    await expect(
      app.start({ env: app.env({ AGATE_EVALUATOR_COMMANDS: "./judge --json" }) }),
    ).rejects.toThrow(
      'agate cannot start: a setting is missing or invalid (environment variables):\n  - AGATE_EVALUATOR_COMMANDS lists "./judge --json", whose program ./judge is a relative path',
    );
    expect(existsSync(join(app.dir, "agate.db"))).toBe(false);

    const log = recordingLog();
    let seen: Runtime["settings"]["evaluator"] | undefined;
    await app.start({
      env: app.env({
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
    const agate = await app.start();
    const response = await fetch(`${agate.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, store: "sqlite", queued: 0 });
    const missing = await fetch(`${agate.url}/nope`);
    expect(missing.status).toBe(404);
  });

  it("serves /readyz: not ready while GitHub cannot be reached, and says which part failed and why", async () => {
    // This App's GitHub is an address where nothing listens: the store is fine, GitHub is not.
    const closed = await closedPort();
    const agate = await app.start({
      env: app.env({ GHE_HOST: `127.0.0.1:${closed}`, GHE_PROTOCOL: "http" }),
    });
    const response = await fetch(`${agate.url}/readyz`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as Readiness;
    expect(body.ok).toBe(false);
    expect(body.store).toEqual({ ok: true, kind: "sqlite" });
    expect(body.github.ok).toBe(false);
    // No HTTP answer came: said as what it is, not as GitHub's "HTTP 500".
    expect(body.github.error).toBe(
      `cannot reach 127.0.0.1:${closed}: connect ECONNREFUSED 127.0.0.1:${closed}; check GHE_HOST and GHE_PROTOCOL, and that this host can reach GitHub (DNS, a firewall or proxy on the way)`,
    );
    // Liveness does not ask GitHub: the process and its store are fine.
    expect((await fetch(`${agate.url}/healthz`)).status).toBe(200);

    // A name that does not resolve (.invalid never does): the resolver's words, no HTTP status.
    const nowhere = await app.start({
      env: app.env({ GHE_HOST: "agate-test.invalid", GHE_PROTOCOL: "http" }),
    });
    const unresolved = (await (await fetch(`${nowhere.url}/readyz`)).json()) as Readiness;
    expect(unresolved.github.error).toMatch(/^cannot reach agate-test\.invalid: /);
    expect(unresolved.github.error).not.toContain("HTTP");
  });

  it("serves /readyz: a GitHub that answers HTTP 500 or 401 is said so, with what to check", async () => {
    let status = 500;
    const github = createServer((_req, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: status === 500 ? "Server Error" : "Bad credentials" }));
    });
    await new Promise<void>((done) => github.listen(0, "127.0.0.1", done));
    try {
      const { port } = github.address() as AddressInfo;
      const env = { GHE_HOST: `127.0.0.1:${port}`, GHE_PROTOCOL: "http" };
      const failing = await app.start({ env: app.env(env) });
      const body = (await (await fetch(`${failing.url}/readyz`)).json()) as Readiness;
      expect(body.github.error).toMatch(
        /^GitHub answered HTTP 500: Server Error.*; it may be down/,
      );
      status = 401;
      const refusing = await app.start({ env: app.env(env) });
      const refused = (await (await fetch(`${refusing.url}/readyz`)).json()) as Readiness;
      expect(refused.github.error).toMatch(
        /^GitHub refused the App's credentials \(HTTP 401\): Bad credentials.*; check APP_ID, the private key, and GHE_HOST$/,
      );
    } finally {
      await new Promise((done) => github.close(done));
    }
  });

  it("logs the address it really listens on: every interface when HOST is unset", async () => {
    const log = recordingLog();
    const { HOST: _, ...everywhere } = app.env();
    const agate = await app.start({ env: everywhere, log });
    const line = log.entries.find((e) => e.message.startsWith("agate is listening on"));
    expect(line?.message).toMatch(
      new RegExp(
        `^agate is listening on every interface \\((::|0\\.0\\.0\\.0)\\), port ${agate.port}: webhooks at /api/github/webhooks, liveness at /healthz, readiness at /readyz`,
      ),
    );
    expect((await fetch(`${agate.url}/healthz`)).status).toBe(200);
    const local = recordingLog();
    const loopback = await app.start({ log: local });
    expect(
      local.entries.find((e) => e.message.startsWith("agate is listening on"))?.message,
    ).toContain(`agate is listening on 127.0.0.1:${loopback.port}:`);
  });

  it("npm start runs the committed bundle dist/app/index.js: no TypeScript at start; it listens, is alive, and drains on SIGTERM", async () => {
    const child = spawn(process.execPath, [join(ROOT, "dist", "app", "index.js")], {
      cwd: app.dir,
      env: { PATH: process.env.PATH ?? "", ...app.env({ LOG_LEVEL: "info", LOG_FORMAT: "json" }) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    const port = await new Promise<number>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`no listening line in 20 s:\n${output}`)),
        20_000,
      );
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        const listening = /agate is listening on 127\.0\.0\.1:(\d+):/.exec(output);
        if (listening?.[1]) {
          clearTimeout(timer);
          done(Number(listening[1]));
        }
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
    });
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    // The App queues its own first reconcile pass at start.
    expect(await health.json()).toEqual({ ok: true, store: "sqlite", queued: 1 });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("no new requests; waiting for running jobs, then exiting");
  });

  it("npm start names the .env file a wrong setting came from, so the fix goes there", async () => {
    writeFileSync(join(app.dir, ".env"), "APP_ID=my-app\nWEBHOOK_SECRET=s\nPRIVATE_KEY=x\n");
    const child = spawn(process.execPath, [join(ROOT, "dist", "app", "index.js")], {
      cwd: app.dir,
      env: { PATH: process.env.PATH ?? "", WEBHOOK_SECRET: "from-the-environment" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await new Promise((done) => child.on("exit", done))).toBe(1);
    const file = join(app.dir, ".env");
    expect(stderr).toContain(`(environment variables and ${file}, where a variable set`);
    expect(stderr).toMatch(new RegExp(`- APP_ID is "my-app", .*\\[set in ${file}\\]`));
    expect(stderr).toMatch(/- PRIVATE_KEY is not a PEM private key: .*\[set in /);
  });

  it("records a signed delivery, counts it as queued without handlers, and runs it with one", async () => {
    const body = JSON.stringify(webhookExample("pull_request", "opened"));
    const first = await app.start();
    expect(await postDelivery(first.url, { event: "pull_request", id: "d-1", body }, SECRET)).toBe(
      200,
    );
    expect(await (await fetch(`${first.url}/healthz`)).json()).toMatchObject({ queued: 1 });
    await first.close();

    const log = recordingLog();
    const ran: string[] = [];
    let probotSeen = false;
    const agate = await app.start({
      log,
      handlers: (runtime) => {
        probotSeen = typeof runtime.probot.auth === "function";
        const handler: JobHandler = async (job) => {
          ran.push(`${job.kind} ${job.delivery_id}`);
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
    const { url, store, close } = await app.start();
    await close();
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    await expect(store.listJobs()).rejects.toThrow();
  });

  it("says so when the port is taken", async () => {
    const agate = await app.start();
    await expect(
      app.start({
        env: app.env({
          PORT: String(agate.port),
          AGATE_DATABASE_URL: `file:${join(app.dir, "b.db")}`,
        }),
      }),
    ).rejects.toThrow(`PORT ${agate.port} is in use by another process`);
  });
});
