import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GITHUB_TEXT_LIMIT } from "../../checks/markdown.js";
import { extractRecord } from "../../checks/record-embedding.js";
import { COMMANDS_CHECK_NAME } from "../../schemas/command-record.js";
import {
  type GitHubSimulator,
  type Receiver,
  startGitHubSimulator,
  startReceiver,
} from "../github/index.js";
import { runActionBundle } from "../support/action-runner.js";
import { GIT_ENV } from "../support/git-repo.js";

/**
 * The Action bundle against the GitHub simulator: a real bare repository, a pull request opened
 * through the simulator (whose webhook payload becomes the job's event file), a real merge
 * checkout, and the check run the bundle creates, validated against GitHub's OpenAPI description.
 */
let sim: GitHubSimulator;
let receiver: Receiver;
const dirs: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  sim = await startGitHubSimulator({ webhookUrl: receiver.url });
});
afterAll(async () => {
  await sim?.close();
  await receiver?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  sim.reset();
  receiver.received.length = 0;
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();

const config = (commands: Record<string, string>) =>
  `version: 1\ncommands:\n${Object.entries(commands)
    .map(([name, run]) => `  - name: ${name}\n    run: ${JSON.stringify(run)}\n`)
    .join("")}`;

/** Repository, agent branch and pull request in the simulator; the pull_request event GitHub sent. */
async function agentPullRequest(baseConfig: string, headFiles: Record<string, string | null>) {
  const repo = `widgets-${Math.random().toString(36).slice(2, 8)}`;
  await sim.createRepository({
    repo,
    files: { ".github/agate.yml": baseConfig, "src/a.txt": "1\n" },
  });
  const head = await sim.pushCommit({
    repo,
    branch: "codex/task",
    files: headFiles,
    author: "codex[bot]",
  });
  await sim.openPullRequest({ repo, head: "codex/task", title: "Do the task", user: "codex[bot]" });
  await sim.flushWebhooks();
  const opened = receiver.received
    .map((r) => ({ event: r.headers["x-github-event"], body: JSON.parse(r.body) }))
    .find((d) => d.event === "pull_request" && d.body.action === "opened");
  if (!opened) throw new Error("the simulator sent no pull_request.opened");
  return { repo, head, event: opened.body, full: `${sim.owner}/${repo}` };
}

/** actions/checkout on pull_request: the merge of head into base, detached. */
function mergeCheckout(repo: string, options: { shallowHeadOnly?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "agate-checkout-"));
  dirs.push(dir);
  const bare = sim.gitDir({ repo });
  if (options.shallowHeadOnly) {
    git(dir, "clone", "--quiet", "--depth=1", "--branch", "codex/task", `file://${bare}`, ".");
    // No credentials persisted: fetching the base from origin fails, so the API must be asked.
    git(dir, "remote", "set-url", "origin", join(dir, "no-such-remote"));
    return dir;
  }
  git(dir, "clone", "--quiet", bare, ".");
  git(dir, "merge", "--quiet", "--no-ff", "-m", "Merge", "origin/codex/task");
  git(dir, "checkout", "--quiet", "--detach");
  return dir;
}

describe("the Action publishes its record to GitHub (simulated)", () => {
  it("creates agate/commands on the head SHA with a record the App can read back", async () => {
    const pr = await agentPullRequest(config({ unit: "cat src/a.txt", lint: "true" }), {
      "src/a.txt": "2\n",
      ".github/agate.yml": config({ unit: "echo only-this" }),
    });
    const cwd = mergeCheckout(pr.repo);
    const token = sim.createToken({ permissions: { checks: "write", contents: "read" } });
    const run = await runActionBundle({
      cwd,
      eventName: "pull_request",
      event: pr.event,
      repository: pr.full,
      inputs: { token },
      env: { GITHUB_API_URL: sim.apiUrl },
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/published the command record as check run \d+/);

    const checks = sim.checkRuns({ repo: pr.repo });
    expect(checks.map((c) => [c.name, c.headSha, c.status, c.conclusion])).toEqual([
      [COMMANDS_CHECK_NAME, pr.head, "completed", "success"],
    ]);
    const extracted = extractRecord(checks[0]?.output?.text);
    if (!extracted.ok) throw new Error(extracted.reason);
    const record = extracted.record;
    expect(record.commands.map((c) => [c.name, c.exit_code, c.output.tail])).toEqual([
      ["unit", 0, "2\n"],
      ["lint", 0, ""],
    ]);
    expect(record.tested.tree_sha).toBe(git(cwd, "rev-parse", "HEAD^{tree}"));
    expect(record.tested.parents[1]).toBe(pr.head);
    expect(record.pull_request?.head_sha).toBe(pr.head);
    expect(record.repository).toBe(pr.full);
    expect(record.workflow?.run_id).toBe(4242);

    const create = sim.callLog.filter((c) => c.operationId === "checks/create");
    expect(create.map((c) => [c.status, c.handledBy])).toEqual([[201, "stateful"]]);
    await sim.flushWebhooks();
    expect(
      receiver.received.some(
        (r) =>
          r.headers["x-github-event"] === "check_run" &&
          JSON.parse(r.body).check_run.name === COMMANDS_CHECK_NAME,
      ),
    ).toBe(true);
  });

  it("a failing command gives a failure check run; huge output is cut to fit and says so", async () => {
    const noisy =
      'for i in $(seq 1 30000); do echo "noise line $i of a very chatty failing test"; done; exit 1';
    const pr = await agentPullRequest(config({ noisy, also: "seq 1 20000; exit 2" }), {
      "src/a.txt": "2\n",
    });
    const cwd = mergeCheckout(pr.repo);
    const token = sim.createToken({ permissions: { checks: "write", contents: "read" } });
    const run = await runActionBundle({
      cwd,
      eventName: "pull_request",
      event: pr.event,
      repository: pr.full,
      inputs: { token },
      env: { GITHUB_API_URL: sim.apiUrl },
    });
    expect(run.status).toBe(1);
    const [check] = sim.checkRuns({ repo: pr.repo });
    expect(check?.conclusion).toBe("failure");
    expect(check?.output?.title).toMatch(/^2 of 2 required commands failed on [0-9a-f]{7}$/);
    expect(check?.output?.text?.length).toBeLessThanOrEqual(GITHUB_TEXT_LIMIT);
    const extracted = extractRecord(check?.output?.text);
    if (!extracted.ok) throw new Error(extracted.reason);
    expect(extracted.record.cut).toEqual(["commands[0].output.tail", "commands[1].output.tail"]);
    expect(
      extracted.record.commands[0]?.output.tail.endsWith(
        "noise line 30000 of a very chatty failing test\n",
      ),
    ).toBe(true);
    expect(extracted.record.commands[1]?.output.tail.endsWith("20000\n")).toBe(true);
  });

  it("reads the base config through the contents API when git cannot fetch the base", async () => {
    const pr = await agentPullRequest(config({ "from-base": "echo base-config" }), {
      ".github/agate.yml": config({ "from-head": "echo head-config" }),
    });
    const cwd = mergeCheckout(pr.repo, { shallowHeadOnly: true });
    const token = sim.createToken({ permissions: { checks: "write", contents: "read" } });
    const run = await runActionBundle({
      cwd,
      eventName: "pull_request",
      event: pr.event,
      repository: pr.full,
      inputs: { token },
      env: { GITHUB_API_URL: sim.apiUrl },
    });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toContain("(read with api)");
    expect(sim.callLog.some((c) => c.operationId === "repos/get-content" && c.status === 200)).toBe(
      true,
    );
    const extracted = extractRecord(sim.checkRuns({ repo: pr.repo })[0]?.output?.text);
    if (!extracted.ok) throw new Error(extracted.reason);
    expect(extracted.record.commands.map((c) => c.name)).toEqual(["from-base"]);
  });

  it("a token that may not create check runs (a fork) warns and never crashes", async () => {
    const pr = await agentPullRequest(config({ ok: "true" }), { "src/a.txt": "2\n" });
    const cwd = mergeCheckout(pr.repo);
    const token = sim.createToken({ permissions: { contents: "read" } });
    const run = await runActionBundle({
      cwd,
      eventName: "pull_request",
      event: pr.event,
      repository: pr.full,
      inputs: { token },
      env: { GITHUB_API_URL: sim.apiUrl },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      "::warning::agate: could not publish the command record as a check run: the token may not create check runs",
    );
    expect(run.outputs.passed).toBe("true");
    expect(sim.checkRuns({ repo: pr.repo })).toEqual([]);
  });
});
