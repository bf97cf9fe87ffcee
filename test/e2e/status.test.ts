/**
 * `agate-gate status` against the GitHub simulator (every request and response checked against
 * GitHub's OpenAPI description): the App's `agate` check run on the live head, read as data, for
 * every state; the trust rule (only the agate App's check run counts); what a token lacking a
 * permission is told; two calls per look; --wait across a rate limit.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { statusMain } from "../../action/cli/status.js";
import { decideGate } from "../../checks/gate/decide.js";
import { gateStatus } from "../../checks/gate/status.js";
import { statusBlock } from "../../checks/gate/status-block.js";
import type { GateFacts } from "../../schemas/gate.js";
import { type StatusReport, statusReportSchema } from "../../schemas/gate-status.js";
import { agentPull, useSimulator } from "../github/use-simulator.js";
import { appCheck, galleryFacts } from "../support/agate-checks.js";
import { galleryEntries } from "../support/summary-gallery.js";

const { sim } = useSimulator();
const REPO = "widgets";
const temp = mkdtempSync(join(tmpdir(), "agate-status-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The published JSON Schema, as a script that reads `status --json` would use it. */
const validate = new Ajv2020({ strict: false }).compile(
  JSON.parse(
    readFileSync(new URL("../../schemas/agate-status.schema.json", import.meta.url), "utf8"),
  ),
);

const READ = { checks: "read", pull_requests: "read", metadata: "read" } as const;

function envFor(permissions: Record<string, "read" | "write"> | null = READ) {
  return {
    ...(permissions ? { GITHUB_TOKEN: sim.createToken({ permissions }) } : {}),
    GITHUB_API_URL: sim.apiUrl,
    GITHUB_REPOSITORY: `${sim.owner}/${REPO}`,
    AGATE_APP_SLUG: sim.appSlug,
    AGATE_STATUS_POLL_MS: "50",
  };
}

async function status(
  args: string[],
  env: Record<string, string> = envFor(),
  cwd = temp,
): Promise<{ code: number; stdout: string; stderr: string; report: StatusReport | null }> {
  let stdout = "";
  let stderr = "";
  const code = await statusMain(
    args,
    { env, cwd },
    {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
    },
  );
  const json = args.includes("--json") && stdout.trim() !== "" ? JSON.parse(stdout) : null;
  if (json !== null) expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
  const report = json === null ? null : statusReportSchema.parse(json);
  return { code, stdout, stderr, report };
}

const appCheckOn = (pull: { number: number; head: string }, facts: GateFacts) =>
  appCheck(sim, REPO, pull, facts);

async function pullRequest() {
  await sim.createRepository({ repo: REPO, files: { "README.md": "widgets\n" } });
  const opened = await agentPull(sim, { repo: REPO, branch: "agent/answer" });
  return { number: opened.number, head: opened.head };
}

const EXIT: Record<string, number> = { done: 0, work: 1, person: 3, spent: 4, wait: 5, none: 6 };

describe("agate-gate status against the simulator", { timeout: 60_000 }, () => {
  it.each(
    galleryEntries()
      .filter((e) => e.facts)
      .map((e) => [e.heading, e] as const),
  )("%s: --json is schema-valid, with the App's verdict and its exit code", async (_, entry) => {
    const pull = await pullRequest();
    const gate = await appCheckOn(pull, entry.facts as GateFacts);
    sim.clearCalls();
    const { code, report } = await status([String(pull.number), "--json"]);
    expect(report).toMatchObject({
      pull_request: pull.number,
      head_sha: pull.head,
      state: gate.state,
      action: gate.action,
      stale: false,
      gate,
      check: { app: sim.appSlug },
    });
    expect(code).toBe(EXIT[gate.action]);
    // One look, two reads: the pull request, then the check runs on its head.
    expect(sim.callLog.map((c) => c.operationId)).toEqual(["pulls/get", "checks/list-for-ref"]);
  });

  it("no check yet: waiting (exit 5); the current branch's pull request is found in one call", async () => {
    const pull = await pullRequest();
    const work = join(mkdtempSync(join(temp, "clone-")), "w");
    execFileSync("git", ["clone", "-q", "-b", "agent/answer", sim.gitDir({ repo: REPO }), work]);
    sim.clearCalls();
    const { code, report } = await status(["--json"], envFor(), work);
    expect(code).toBe(5);
    expect(report).toMatchObject({
      state: "waiting",
      action: "wait",
      pull_request: pull.number,
      local: { sha: pull.head, branch: "agent/answer", uncommitted: false, relation: "same" },
      check: null,
      gate: null,
    });
    expect(sim.callLog.map((c) => c.operationId)).toEqual(["pulls/list", "checks/list-for-ref"]);
  });

  it("stale: HEAD has a commit the pull request's head lacks, whatever the App said of the head", async () => {
    const pull = await pullRequest();
    await appCheckOn(pull, galleryFacts("Accepted"));
    const work = join(mkdtempSync(join(temp, "clone-")), "w");
    execFileSync("git", ["clone", "-q", "-b", "agent/answer", sim.gitDir({ repo: REPO }), work]);
    writeFileSync(join(work, "b.txt"), "b\n");
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=a", "-c", "user.email=a@b", ...args], { cwd: work });
    git("add", "b.txt");
    git("commit", "-qm", "more");
    const { code, report } = await status(["--json"], envFor(), work);
    expect(code).toBe(1);
    expect(report).toMatchObject({ state: "stale", action: "work", stale: true });
    expect(report?.local?.relation).toBe("ahead");
    expect(report?.next[0]).toMatch(/^Push your commits/);
    // Uncommitted work is said too; the verdict stays the head's.
    writeFileSync(join(work, "c.txt"), "c\n");
    git("reset", "-q", "--hard", pull.head);
    writeFileSync(join(work, "c.txt"), "c\n");
    const dirty = await status(["--json"], envFor(), work);
    expect(dirty.report).toMatchObject({ state: "accepted", stale: false });
    expect(dirty.report?.next[0]).toMatch(/^Commit your uncommitted changes/);
  });

  it("a check run named agate from anyone but the agate App is never believed", async () => {
    // Attack: the pull request's workflow (GitHub Actions' app, checks: write) makes a check run
    // named agate whose summary ends in a block saying accepted.
    const pull = await pullRequest();
    const accepted = galleryFacts("Accepted");
    const forged = {
      ...gateStatus(decideGate(accepted), accepted),
      repository: `${sim.owner}/${REPO}`,
      pull_request: pull.number,
      head_sha: pull.head,
    };
    await sim.createCheckRun({
      repo: REPO,
      name: "agate",
      headSha: pull.head,
      app: "github-actions",
      status: "completed",
      conclusion: "success",
      output: { title: "Accepted", summary: `Accepted.\n${statusBlock(forged)}` },
    });
    const alone = await status([String(pull.number), "--json"]);
    expect(alone.code).toBe(5);
    expect(alone.report).toMatchObject({ state: "waiting", check: null, gate: null });
    expect(alone.report?.line).toContain("github-actions are not agate's and mean nothing");
    // Beside the App's own rejection, the App's is the verdict.
    await appCheckOn(pull, galleryFacts("Rejected: a command failed"));
    const both = await status([String(pull.number), "--json"]);
    expect(both.report).toMatchObject({ state: "rejected", check: { app: sim.appSlug } });
    expect(both.code).toBe(1);
  });

  it("a token without checks or pull requests: read is told which permission it lacks", async () => {
    const pull = await pullRequest();
    const noChecks = await status([String(pull.number)], envFor({ pull_requests: "read" }));
    expect(noChecks.code).toBe(2);
    expect(noChecks.stderr).toMatch(/403.*it needs checks: read/);
    const noPulls = await status([String(pull.number)], envFor({ checks: "read" }));
    expect(noPulls.code).toBe(2);
    expect(noPulls.stderr).toMatch(/403.*it needs pull requests: read/);
    const none = await status([String(pull.number)], envFor(null));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no token");
    expect(none.stderr).toContain("Checks: read and Pull requests: read");
  });

  it("--wait: waits while the App evaluates, then returns its verdict", async () => {
    const pull = await pullRequest();
    await sim.createCheckRun({
      repo: REPO,
      name: "agate",
      headSha: pull.head,
      app: "agate",
      status: "in_progress",
      output: { title: "agate is evaluating", summary: "**Not decided.**\n" },
    });
    setTimeout(() => void appCheckOn(pull, galleryFacts("Accepted")), 300);
    const waited = await status([String(pull.number), "--wait", "20s", "--json"]);
    expect(waited.report).toMatchObject({ state: "accepted", action: "done" });
    expect(waited.code).toBe(0);
    const once = await status([String(pull.number), "--wait", "1s"]);
    expect(once.stdout).toMatch(/^agate: accepted on [0-9a-f]{7} \(#\d+\): Accepted on/);
  });
});

/** A front for the simulator that answers the first `count` check-run reads with a rate limit. */
async function rateLimitedFront(
  target: string,
  count: number,
  limit: (res: import("node:http").ServerResponse) => void,
): Promise<{ url: string; server: Server; limited: number[]; passed: number[] }> {
  const seen = { limited: [] as number[], passed: [] as number[] };
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    if (req.url?.includes("/check-runs") && seen.limited.length < count) {
      seen.limited.push(Date.now());
      limit(res);
      return;
    }
    if (req.url?.includes("/check-runs")) seen.passed.push(Date.now());
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${upstream.pathname.replace(/\/$/, "")}${req.url}`,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, ...seen };
}

describe("agate-gate status within GitHub's rate limits", { timeout: 60_000 }, () => {
  it("--wait sleeps out a primary limit until its reset, and a secondary one for its retry-after", async () => {
    const pull = await pullRequest();
    await appCheckOn(pull, galleryFacts("Accepted"));
    const primary = await rateLimitedFront(sim.apiUrl, 1, (res) => {
      res.writeHead(403, {
        "content-type": "application/json",
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.ceil(Date.now() / 1_000) + 1),
      });
      res.end(JSON.stringify({ message: "API rate limit exceeded for user ID 1." }));
    });
    try {
      const env = { ...envFor(), GITHUB_API_URL: primary.url };
      const once = await status([String(pull.number)], env);
      expect(once.code).toBe(5);
      expect(once.stderr).toMatch(/rate limit for this token is reached .*allows more in \d+ s/);
      primary.limited.length = 0;
      const waited = await status([String(pull.number), "--wait", "30s", "--json"], env);
      expect(waited.report?.state).toBe("accepted");
      const [limitedAt] = primary.limited;
      const [passedAt] = primary.passed.slice(-1);
      // Not a request before the reset GitHub named (at least the next whole second).
      expect((passedAt ?? 0) - (limitedAt ?? 0)).toBeGreaterThanOrEqual(900);
    } finally {
      primary.server.close();
    }
    const secondary = await rateLimitedFront(sim.apiUrl, 1, (res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "2" });
      res.end(JSON.stringify({ message: "You have exceeded a secondary rate limit." }));
    });
    try {
      const env = { ...envFor(), GITHUB_API_URL: secondary.url };
      const waited = await status([String(pull.number), "--wait", "30s", "--json"], env);
      expect(waited.report?.state).toBe("accepted");
      expect((secondary.passed[0] ?? 0) - (secondary.limited[0] ?? 0)).toBeGreaterThanOrEqual(
        1_900,
      );
      // A limit that outlasts the wait is said, not slept through.
      secondary.limited.length = 0;
      const short = await status([String(pull.number), "--wait", "1s"], env);
      expect(short.code).toBe(5);
    } finally {
      secondary.server.close();
    }
  });
});
