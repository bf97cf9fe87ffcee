import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Probot } from "probot";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { handleGateDelivery } from "../../app/gate/handle-delivery.js";
import { openStore } from "../../app/store/open-store.js";
import type { Store } from "../../app/store/store.js";
import { embedRecord } from "../../checks/record-embedding.js";
import {
  type GitHubSimulator,
  type Receiver,
  startGitHubSimulator,
  startReceiver,
  tokenClient,
} from "../github/index.js";
import { commandRecord, TREE } from "../support/gate-facts.js";
import { simulatedCi } from "../support/simulated-ci.js";

/**
 * The gate against the simulator: real git, the real Action bundle publishing its record, real
 * workflow-run data, and the App's gate code reading it all over HTTP with an installation
 * token. Deliveries are handed to the gate job directly; the runtime has its own tests.
 */
let sim: GitHubSimulator;
let receiver: Receiver;
let store: Store;
let probot: Probot;
const temp = mkdtempSync(join(tmpdir(), "agate-gate-"));
let handled = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  sim = await startGitHubSimulator({ webhookUrl: receiver.url });
  probot = new Probot({
    appId: sim.appId,
    privateKey: sim.privateKey,
    baseUrl: sim.apiUrl,
    logLevel: "fatal",
  });
});
afterAll(async () => {
  await sim?.close();
  await receiver?.close();
  await store?.close();
  rmSync(temp, { recursive: true, force: true });
});
beforeEach(async () => {
  sim.reset();
  // A fresh Probot per test: no token or state cached from another test.
  probot = new Probot({
    appId: sim.appId,
    privateKey: sim.privateKey,
    baseUrl: sim.apiUrl,
    logLevel: "fatal",
  });
  await store?.close();
  store = await openStore({ url: `file:${join(temp, `gate-${Date.now()}-${Math.random()}.db`)}` });
  handled = sim.deliveries.length;
});

const deps = () => ({
  store,
  now: () => new Date(),
  octokitFor: (id: number) => probot.auth(id) as never,
  appSlug: async () => sim.appSlug,
});

/** Hands every delivery since the last call to the gate job, in order, like the workers would. */
async function processDeliveries() {
  await sim.flushWebhooks();
  while (handled < sim.deliveries.length) {
    const d = sim.deliveries[handled++];
    if (!d) continue;
    const payload = JSON.stringify(d.payload);
    await handleGateDelivery(
      {
        id: d.id,
        event: d.event,
        action: d.action ?? null,
        payload,
        payload_sha256: "0".repeat(64),
        received_at: new Date().toISOString(),
      },
      deps(),
    );
    await sim.flushWebhooks();
  }
}

const CONFIG = 'version: 1\ncommands:\n  - name: answer\n    run: test "$(cat answer.txt)" = 42\n';

function gateCheck(repo: string, sha: string) {
  return sim
    .checkRuns({ repo })
    .filter((c) => c.name === "agate" && c.headSha === sha)
    .at(-1);
}

async function agentPullRequest(
  repo: string,
  files: Record<string, string | null>,
  options: { labels?: string[]; branch?: string; config?: string } = {},
) {
  await sim.createRepository({
    repo,
    files: {
      ".github/agate.yml": options.config ?? CONFIG,
      "answer.txt": "0\n",
      ".github/workflows/ci.yml": "on: pull_request\n",
    },
  });
  const branch = options.branch ?? "codex/answer";
  const head = await sim.pushCommit({ repo, branch, files, author: "codex[bot]" });
  const { number } = await sim.openPullRequest({
    repo,
    head: branch,
    title: "Answer",
    user: "codex[bot]",
    labels: options.labels ?? [],
  });
  await processDeliveries();
  return { head, number, branch };
}

const ci = (repo: string, branch: string, head: string, stepConclusion?: "success" | "failure") =>
  simulatedCi({
    sim,
    repo,
    branch,
    head,
    temp,
    settle: processDeliveries,
    ...(stepConclusion ? { stepConclusion } : {}),
  });

describe("the agate gate, end to end against the simulator", () => {
  it("opened → waiting; commands pass → accepted; a push → the old record stale, the new head graded afresh", async () => {
    const repo = "story";
    const { head, number, branch } = await agentPullRequest(repo, { "answer.txt": "42\n" });
    expect(gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    expect(gateCheck(repo, head)?.output?.title).toBe(
      `Waiting on ${head.slice(0, 7)}: waiting for the command record (the agate Action publishes agate/commands)`,
    );
    expect(sim.labelsOf({ repo, number })).toContain("agate:pending");

    await ci(repo, branch, head);
    expect(gateCheck(repo, head)).toMatchObject({ status: "completed", conclusion: "success" });
    expect(sim.labelsOf({ repo, number })).toEqual(expect.arrayContaining(["agate:accepted"]));
    expect(sim.labelsOf({ repo, number })).not.toContain("agate:pending");

    const next = await sim.pushCommit({
      repo,
      branch,
      files: { "answer.txt": "41\n" },
      author: "codex[bot]",
    });
    await processDeliveries();
    expect(gateCheck(repo, next)).toMatchObject({ status: "in_progress" });
    const records = await store.listRecords({
      repository: `${sim.owner}/${repo}`,
      pullNumber: number,
    });
    const old = records.filter((r) => r.head_sha === head);
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((r) => r.stale?.superseded_by === next)).toBe(true);
    expect(old.some((r) => r.decision.state === "accepted")).toBe(true);

    await ci(repo, branch, next);
    const rejected = gateCheck(repo, next);
    expect(rejected).toMatchObject({ conclusion: "failure" });
    expect(rejected?.output?.title).toBe(
      `Rejected on ${next.slice(0, 7)}: 1 of 1 required commands failed (answer)`,
    );
    expect(rejected?.output?.summary).toContain("### History");
    // The accepted check on the old head is left as history, never changed by the new head.
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  });

  it("a record that says passed while the runner says the step failed is refused as tampering", async () => {
    const repo = "tamper";
    const { head, branch } = await agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { labels: ["agent"] },
    );
    await ci(repo, branch, head, "failure");
    const check = gateCheck(repo, head);
    expect(check?.status).toBe("in_progress");
    expect(check?.output?.summary).toContain(
      'command record refused: it says passed, the runner says the step "Run agate" failure',
    );
  });

  it("a check run named agate/commands from any app but GitHub Actions is refused", async () => {
    const repo = "forged";
    const { head } = await agentPullRequest(repo, { "answer.txt": "42\n" });
    await sim.createCheckRun({
      repo,
      name: "agate/commands",
      headSha: head,
      app: "agate",
      status: "completed",
      conclusion: "success",
      output: { title: "passed", summary: "trust me", text: "```json\n{}\n```" },
    });
    await processDeliveries();
    await sim.createCheckRun({
      repo,
      name: "agate/commands",
      headSha: head,
      status: "completed",
      conclusion: "success",
      output: { title: "passed", summary: "from a workflow", text: "all commands passed" },
    });
    await processDeliveries();
    const summary = gateCheck(repo, head)?.output?.summary ?? "";
    expect(summary).toContain(
      `command record refused: agate/commands was created by ${sim.appSlug}, not by a GitHub Actions workflow`,
    );
    expect(summary).toContain(
      "command record refused: the check run's text is not an embedded agate command record",
    );
    expect(gateCheck(repo, head)?.status).toBe("in_progress");
  });

  it("a workflow edit escalates until a maintainer approves this exact head", async () => {
    const repo = "protected";
    const { head, number, branch } = await agentPullRequest(repo, {
      "answer.txt": "42\n",
      ".github/workflows/lint.yml": "on: push\n",
    });
    await ci(repo, branch, head);
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "action_required" });
    expect(sim.labelsOf({ repo, number })).toContain("agate:escalated");

    sim.setPermission({ repo, user: "maintainer", permission: "write" });
    await sim.submitReview({ repo, number, state: "APPROVED", user: "maintainer", commitId: head });
    await processDeliveries();
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(gateCheck(repo, head)?.output?.summary).toContain(
      `approved by maintainer on ${head.slice(0, 7)}`,
    );
  });

  it("not gated: neutral with one line; removing the agent label later does not ungate", async () => {
    const repo = "selection";
    const { head } = await agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { branch: "feature/human" },
    );
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "neutral" });
    expect(gateCheck(repo, head)?.output?.title).toMatch(
      /^Not gated: author codex\[bot\] is not in gate\.authors/,
    );

    const gated = await sim.pushCommit({
      repo,
      branch: "feature/other",
      files: { "answer.txt": "42\n" },
      author: "codex[bot]",
    });
    const { number } = await sim.openPullRequest({
      repo,
      head: "feature/other",
      title: "Other",
      user: "codex[bot]",
      labels: ["agent"],
    });
    await processDeliveries();
    expect(gateCheck(repo, gated)).toMatchObject({ status: "in_progress" });
    await sim.removeLabel({ repo, number, label: "agent" });
    const later = await sim.pushCommit({
      repo,
      branch: "feature/other",
      files: { "b.txt": "b\n" },
      author: "codex[bot]",
    });
    await processDeliveries();
    expect(gateCheck(repo, later)).toMatchObject({ status: "in_progress" });
    expect(gateCheck(repo, later)?.output?.summary).toContain("Waiting");
  });

  it("a malformed config on the base fails the check with the file, line and fix", async () => {
    const repo = "broken";
    const { head } = await agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { config: "version: 1\ncommands:\n  - name: t\n    run: x\n    timeout: 10x\n" },
    );
    const check = gateCheck(repo, head);
    expect(check).toMatchObject({ conclusion: "failure" });
    expect(check?.output?.summary).toContain(
      'commands[0].timeout at line 5, column 14: \\"10x\\" is not a duration'.replace(/\\"/g, '"'),
    );
  });

  it("a synchronize that arrives before the opened event: only the live head is graded", async () => {
    const repo = "order";
    await sim.createRepository({
      repo,
      files: { ".github/agate.yml": CONFIG, "answer.txt": "42\n" },
    });
    const first = await sim.pushCommit({
      repo,
      branch: "codex/x",
      files: { "a.txt": "a\n" },
      author: "codex[bot]",
    });
    const { number } = await sim.openPullRequest({
      repo,
      head: "codex/x",
      title: "X",
      user: "codex[bot]",
    });
    const second = await sim.pushCommit({
      repo,
      branch: "codex/x",
      files: { "b.txt": "b\n" },
      author: "codex[bot]",
    });
    await sim.flushWebhooks();
    const pending = sim.deliveries.slice(handled);
    handled = sim.deliveries.length;
    const opened = pending.find((d) => d.action === "opened");
    const synchronize = pending.find((d) => d.action === "synchronize");
    if (!opened || !synchronize) throw new Error("expected opened and synchronize deliveries");
    for (const d of [synchronize, opened]) {
      await handleGateDelivery(
        {
          id: d.id,
          event: d.event,
          action: d.action ?? null,
          payload: JSON.stringify(d.payload),
          payload_sha256: "0".repeat(64),
          received_at: new Date().toISOString(),
        },
        deps(),
      );
    }
    expect(gateCheck(repo, second)).toMatchObject({ status: "in_progress" });
    expect(gateCheck(repo, first)).toBeUndefined();
    const records = await store.listRecords({
      repository: `${sim.owner}/${repo}`,
      pullNumber: number,
    });
    expect(new Set(records.map((r) => r.head_sha))).toEqual(new Set([second]));
  });

  it("a command record for an old SHA after a newer push never changes the new head's check", async () => {
    const repo = "late";
    const { head: old, branch } = await agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { labels: ["agent"] },
    );
    const current = await sim.pushCommit({
      repo,
      branch,
      files: { "answer.txt": "41\n" },
      author: "codex[bot]",
    });
    await processDeliveries();
    expect(gateCheck(repo, current)).toMatchObject({ status: "in_progress" });
    // CI for the old head finishes late, and passes.
    const run = sim.addWorkflowRun({
      repo,
      headSha: old,
      path: ".github/workflows/ci.yml",
      conclusion: null,
      jobs: [{ name: "gate" }],
    });
    const token = sim.createToken({ permissions: { checks: "write" } });
    const record = commandRecord([0], {
      repository: `${sim.owner}/${repo}`,
      tested: { sha: old, tree_sha: TREE, parents: [], clean: true, dirty_digest: null },
      pull_request: { number: 1, head_sha: old, base_sha: old },
      workflow: {
        run_id: run.id,
        run_attempt: 1,
        workflow_ref: "x",
        job: "gate",
        event_name: "pull_request",
      },
    });
    await tokenClient(sim, token).rest.checks.create({
      owner: sim.owner,
      repo,
      name: "agate/commands",
      head_sha: old,
      status: "completed",
      conclusion: "success",
      output: { title: "passed", summary: "late", text: embedRecord(record, 65_535) },
    });
    await sim.completeWorkflowRun({ repo, runId: run.id, conclusion: "success" });
    await processDeliveries();
    expect(gateCheck(repo, current)).toMatchObject({ status: "in_progress" });
    expect(gateCheck(repo, current)?.output?.title).toContain("waiting for the command record");
    // The late evidence is kept as history: its deliveries are what was received.
    expect(
      sim.deliveries.some(
        (d) =>
          d.event === "check_run" && (d.payload.check_run as { head_sha: string }).head_sha === old,
      ),
    ).toBe(true);
  });

  it("an evaluation that errors never leaves an earlier green standing", async () => {
    const repo = "erroring";
    const { head, branch } = await agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { labels: ["agent"] },
    );
    await ci(repo, branch, head);
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "success" });

    // GitHub failing one call cannot be made to happen in the simulator: break that one call.
    const failing = {
      ...deps(),
      octokitFor: async (id: number) => {
        const real = (await probot.auth(id)) as unknown as {
          rest: { git: Record<string, unknown> };
        };
        const git = {
          ...real.rest.git,
          getCommit: async () => {
            throw new Error("GitHub answered 502 Bad Gateway");
          },
        };
        return new Proxy(real, {
          get: (target, key) =>
            key === "rest"
              ? new Proxy(target.rest, {
                  get: (rest, name) => (name === "git" ? git : Reflect.get(rest, name)),
                })
              : Reflect.get(target, key),
        }) as never;
      },
    };
    const last = sim.deliveries
      .filter((d) => d.event === "pull_request" && d.action === "opened")
      .at(-1);
    if (!last) throw new Error("no pull_request delivery");
    await expect(
      handleGateDelivery(
        {
          id: "again",
          event: last.event,
          action: last.action ?? null,
          payload: JSON.stringify(last.payload),
          payload_sha256: "0".repeat(64),
          received_at: new Date().toISOString(),
        },
        failing,
      ),
    ).rejects.toThrow("GitHub answered 502 Bad Gateway");
    const held = gateCheck(repo, head);
    expect(held).toMatchObject({ status: "in_progress", conclusion: null });
    expect(held?.output?.title).toBe(
      "agate could not finish evaluating this commit; it will retry",
    );
    expect(held?.output?.summary).toContain("GitHub answered 502 Bad Gateway");

    // The retry, with GitHub answering again, decides afresh.
    await handleGateDelivery(
      {
        id: "retry",
        event: last.event,
        action: last.action ?? null,
        payload: JSON.stringify(last.payload),
        payload_sha256: "0".repeat(64),
        received_at: new Date().toISOString(),
      },
      deps(),
    );
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  });
});
