// The simulator against the real @octokit/rest client: authentication, validation, call counts.
import { generateKeyPairSync } from "node:crypto";
import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import { describe, expect, it } from "vitest";
import { appClient, installationClient, tokenClient } from "./clients.js";
import { startGitHubSimulator } from "./simulator.js";
import { useSimulator } from "./use-simulator.js";

const { sim } = useSimulator({
  seed: (sim) => sim.createRepository({ repo: "demo", files: { "README.md": "hello\n" } }),
});

function statusOf(error: unknown): number | undefined {
  return (error as { status?: number }).status;
}

describe("the real @octokit/rest client", () => {
  it("authenticates as the App with a JWT and as the installation with a fresh token", async () => {
    const app = await appClient(sim).rest.apps.getAuthenticated();
    expect(app.data?.id).toBe(sim.appId);
    expect(app.data?.slug).toBe(sim.appSlug);

    const installation = await appClient(sim).rest.apps.getRepoInstallation({
      owner: sim.owner,
      repo: "demo",
    });
    expect(installation.data.id).toBe(sim.installationId);

    const repo = await installationClient(sim).rest.repos.get({ owner: sim.owner, repo: "demo" });
    expect(repo.data.full_name).toBe(`${sim.owner}/demo`);
    expect(repo.data.default_branch).toBe("main");
    expect(sim.calls["apps/create-installation-access-token"]).toBe(1);
  });

  it("returns the token fields auth-app reads, validated against the schema", async () => {
    const { data } = await appClient(sim).rest.apps.createInstallationAccessToken({
      installation_id: sim.installationId,
    });
    expect(data.token).toMatch(/^ghs_/);
    expect(Date.parse(data.expires_at)).toBeGreaterThan(Date.now());
    expect(data.permissions?.checks).toBe("write");
    expect(data.repository_selection).toBe("all");
  });

  it("serves the same API at the root and under /api/v3", async () => {
    const token = sim.createToken();
    const root = new Octokit({ baseUrl: sim.url, auth: token });
    const ghe = new Octokit({ baseUrl: sim.apiUrl, auth: token });
    const [a, b] = await Promise.all([
      root.rest.repos.get({ owner: sim.owner, repo: "demo" }),
      ghe.rest.repos.get({ owner: sim.owner, repo: "demo" }),
    ]);
    expect(a.data.id).toBe(b.data.id);
    expect(sim.callLog.map((call) => call.path)).toEqual([
      `/repos/${sim.owner}/demo`,
      `/api/v3/repos/${sim.owner}/demo`,
    ]);
  });
});

describe("as strict as GitHub", () => {
  it("rejects a check run without a name with 400, as the OpenAPI description requires", async () => {
    const octokit = installationClient(sim);
    const head = sim.branchSha({ repo: "demo", branch: "main" }) ?? "";
    // Octokit's types already forbid this; send it anyway, as untyped code could.
    const malformed = { owner: sim.owner, repo: "demo", head_sha: head } as unknown as {
      owner: string;
      repo: string;
      name: string;
      head_sha: string;
    };
    const error = await octokit
      .request("POST /repos/{owner}/{repo}/check-runs", malformed)
      .catch((caught: unknown) => caught);
    expect(statusOf(error)).toBe(400);
    expect(JSON.stringify((error as { response: { data: unknown } }).response.data)).toContain(
      "name",
    );
    expect(sim.checkRuns({ repo: "demo" })).toHaveLength(0);
    const rejected = sim.callLog.find((call) => call.status === 400);
    expect(rejected).toMatchObject({ operationId: "checks/create", handledBy: "rejected" });
  });

  it("answers 401 without a token, with an unknown token, and with a JWT of another key", async () => {
    const none = await tokenClient(sim, undefined)
      .rest.repos.get({ owner: sim.owner, repo: "demo" })
      .catch((caught: unknown) => caught);
    expect(statusOf(none)).toBe(401);

    const unknown = await tokenClient(sim, "ghs_notatokenthesimulatorissued000000000")
      .rest.repos.get({ owner: sim.owner, repo: "demo" })
      .catch((caught: unknown) => caught);
    expect(statusOf(unknown)).toBe(401);

    const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const forged = new Octokit({
      baseUrl: sim.apiUrl,
      authStrategy: createAppAuth,
      auth: { appId: sim.appId, privateKey: otherKey },
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    const forgedError = await forged.rest.apps
      .getAuthenticated()
      .catch((caught: unknown) => caught);
    expect(statusOf(forgedError)).toBe(401);
    expect(sim.callLog.every((call) => call.handledBy === "unauthenticated")).toBe(true);
  });

  it("keeps JWTs and tokens apart: a token on an app endpoint is 401", async () => {
    const error = await tokenClient(sim, sim.createToken())
      .rest.apps.getAuthenticated()
      .catch((caught: unknown) => caught);
    expect(statusOf(error)).toBe(401);
  });

  it("enforces token permissions: the installation may not write contents", async () => {
    const head = sim.branchSha({ repo: "demo", branch: "main" }) ?? "";
    const error = await installationClient(sim)
      .rest.git.createRef({ owner: sim.owner, repo: "demo", ref: "refs/heads/x", sha: head })
      .catch((caught: unknown) => caught);
    expect(statusOf(error)).toBe(403);
    expect(sim.branchSha({ repo: "demo", branch: "x" })).toBeUndefined();
  });

  it("hides repositories of accounts the installation is not on (404)", async () => {
    await sim.createRepository({ owner: "someone-else", repo: "private", installApp: false });
    const error = await installationClient(sim)
      .rest.repos.get({ owner: "someone-else", repo: "private" })
      .catch((caught: unknown) => caught);
    expect(statusOf(error)).toBe(404);
  });
});

describe("call counts and the log of who answered", () => {
  it("counts calls by operation id", async () => {
    const octokit = tokenClient(sim, sim.createToken());
    await octokit.rest.repos.get({ owner: sim.owner, repo: "demo" });
    await octokit.rest.repos.get({ owner: sim.owner, repo: "demo" });
    await octokit.rest.issues.listLabelsForRepo({ owner: sim.owner, repo: "demo" });
    expect(sim.calls).toEqual({ "repos/get": 2, "issues/list-labels-for-repo": 1 });
    expect(sim.callLog.every((call) => call.handledBy === "stateful" && call.status === 200)).toBe(
      true,
    );
  });

  it("lists the writes that reached a handler with their parameters and body, not reads", async () => {
    const octokit = installationClient(sim);
    await octokit.rest.repos.get({ owner: sim.owner, repo: "demo" });
    await octokit.rest.issues.createLabel({ owner: sim.owner, repo: "demo", name: "x" });
    const refused = await octokit.rest.issues
      .createLabel({ owner: sim.owner, repo: "demo", name: "x" })
      .catch((caught: unknown) => caught);
    expect(statusOf(refused)).toBe(422);
    // Rejected by the OpenAPI description before any handler: no write was asked of GitHub.
    const nameless = { owner: sim.owner, repo: "demo" } as {
      owner: string;
      repo: string;
      name: string;
    };
    const rejected = await octokit.rest.issues
      .createLabel(nameless)
      .catch((caught: unknown) => caught);
    expect(statusOf(rejected)).toBe(400);
    const labelWrite = {
      operationId: "issues/create-label",
      method: "POST",
      write: { params: { owner: sim.owner, repo: "demo" }, body: { name: "x" } },
    };
    expect(sim.writes).toEqual([
      expect.objectContaining({ operationId: "apps/create-installation-access-token" }),
      expect.objectContaining({ ...labelWrite, status: 201 }),
      expect.objectContaining({ ...labelWrite, status: 422 }),
    ]);
    expect(sim.callLog.filter((call) => call.write)).toEqual(sim.writes);
    sim.clearCalls();
    expect(sim.writes).toEqual([]);
  });

  it("makes an operation without a stateful handler fail loudly and visibly (501)", async () => {
    const error = await tokenClient(sim, sim.createToken())
      .rest.repos.listForOrg({ org: sim.owner })
      .catch((caught: unknown) => caught);
    expect(statusOf(error)).toBe(501);
    expect(sim.callLog).toEqual([
      expect.objectContaining({
        operationId: "repos/list-for-org",
        handledBy: "unhandled",
        status: 501,
      }),
    ]);
  });

  it("without strict mode answers with the spec's example and says so in the log", async () => {
    const loose = await startGitHubSimulator({ strict: false });
    try {
      const { status } = await tokenClient(loose, loose.createToken()).rest.repos.listForOrg({
        org: "x",
      });
      expect(status).toBe(200);
      expect(loose.callLog[0]).toMatchObject({
        operationId: "repos/list-for-org",
        handledBy: "example",
      });
    } finally {
      await loose.close();
    }
  });

  it("logs a route GitHub does not have as not-found", async () => {
    const response = await fetch(`${sim.apiUrl}/no/such/route`, {
      headers: { authorization: `token ${sim.createToken()}` },
    });
    expect(response.status).toBe(404);
    expect(sim.callLog[0]).toMatchObject({ operationId: undefined, handledBy: "not-found" });
  });
});
