// A real Probot 14 app against the simulator, configured as agate's App will be in production
// (App id, private key, webhook secret, a GitHub Enterprise base URL): it receives a signed
// webhook, authenticates as the installation through the token flow, and writes a check run.
import { createServer, type Server } from "node:http";
import { createNodeMiddleware, createProbot, Probot } from "probot";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type GitHubSimulator, startGitHubSimulator } from "./simulator.js";

let sim: GitHubSimulator;
let server: Server;
const seen: string[] = [];
const failures: unknown[] = [];

beforeAll(async () => {
  sim = await startGitHubSimulator({ webhookSecret: "probot-secret" });
  const probot = new Probot({
    appId: sim.appId,
    privateKey: sim.privateKey,
    secret: "probot-secret",
    baseUrl: sim.apiUrl,
    logLevel: "fatal",
  });
  const middleware = await createNodeMiddleware(
    (app) => {
      app.on("pull_request.opened", async (context) => {
        seen.push(`${context.name}.${context.payload.action}`);
        try {
          const pr = context.payload.pull_request;
          await context.octokit.rest.checks.create(
            context.repo({
              name: "agate",
              head_sha: pr.head.sha,
              status: "in_progress",
              output: { title: "Evaluating", summary: `Checking #${pr.number}` },
            }),
          );
        } catch (error) {
          // Recorded rather than thrown: Probot would answer the webhook with the error's status.
          failures.push(error);
        }
      });
      app.on("check_run.created", async (context) => {
        seen.push(`${context.name}.${context.payload.action}`);
      });
    },
    { probot, webhooksPath: "/api/github/webhooks" },
  );
  server = createServer((req, res) => {
    void middleware(req, res, () => {
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  sim.setWebhookUrl(`http://127.0.0.1:${address.port}/api/github/webhooks`);
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  await sim.close();
});

beforeEach(() => {
  sim.reset();
  seen.length = 0;
  failures.length = 0;
});

describe("a real Probot 14 app", () => {
  it("receives a webhook, gets an installation token, and creates a check run held in state", async () => {
    await sim.createRepository({ repo: "app", files: { "README.md": "# app\n" } });
    const head = await sim.pushCommit({
      repo: "app",
      branch: "agent/1",
      files: { "x.ts": "x\n" },
      author: "codex[bot]",
    });
    await sim.openPullRequest({
      repo: "app",
      head: "agent/1",
      title: "Agent work",
      user: "codex[bot]",
    });
    await sim.flushWebhooks();

    expect(failures).toEqual([]);
    expect(seen).toEqual(["pull_request.opened", "check_run.created"]);
    const runs = sim.checkRuns({ repo: "app" });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: "agate", headSha: head, status: "in_progress" });
    expect(runs[0]?.app.id).toBe(sim.appId);
    expect(runs[0]?.output.summary).toBe("Checking #1");
    expect(sim.calls).toMatchObject({
      "apps/create-installation-access-token": 1,
      "checks/create": 1,
    });
    expect(sim.callLog.every((call) => call.handledBy === "stateful")).toBe(true);
    expect(sim.deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
  });

  it("answers a delivery signed with another secret with 400 and does not run the handler", async () => {
    await sim.createRepository({ repo: "app" });
    await sim.pushCommit({ repo: "app", branch: "b", files: { "y.ts": "y\n" } });
    sim.setWebhookSecret("wrong-secret");
    await sim.openPullRequest({ repo: "app", head: "b", title: "t", user: "octocat" });
    sim.setWebhookSecret("probot-secret");
    expect(sim.deliveries.at(-1)?.status).toBe(400);
    expect(seen).toEqual([]);
    expect(sim.checkRuns({ repo: "app" })).toEqual([]);
  });

  it("is found through GHE_HOST and GHE_PROTOCOL, as a deployed App is configured", async () => {
    await sim.createRepository({ repo: "ghe" });
    const probot = createProbot({ env: { ...sim.probotEnv(), LOG_LEVEL: "fatal" } });
    const octokit = await probot.auth(sim.installationId);
    const { data } = await octokit.rest.repos.get({ owner: sim.owner, repo: "ghe" });
    expect(data.full_name).toBe(`${sim.owner}/ghe`);
    expect(sim.callLog.map((call) => `${call.operationId} ${call.path}`)).toEqual([
      `apps/create-installation-access-token /api/v3/app/installations/${sim.installationId}/access_tokens`,
      `repos/get /api/v3/repos/${sim.owner}/ghe`,
    ]);
  });
});
