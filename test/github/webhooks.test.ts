// Webhooks as GitHub sends them: signed, with fresh delivery ids, fired by state changes, and
// shaped like the real payloads in @octokit/webhooks-examples.
import { createRequire } from "node:module";
import { verify } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import { createAgateCheck, installationClient, tokenClient } from "./clients.js";
import { agentPull, useSimulator } from "./use-simulator.js";

const repo = "hooks";
const { sim, receiver } = useSimulator({
  options: { webhookSecret: "s3cret" },
  receiver: true,
  seed: (sim) => sim.createRepository({ repo, files: { "README.md": "# hooks\n" } }),
});

function events(): string[] {
  return receiver.received.map((entry) => {
    const body = JSON.parse(entry.body) as { action?: string };
    return `${String(entry.headers["x-github-event"])}.${body.action}`;
  });
}

const openPull = (labels?: string[]) =>
  agentPull(sim, { repo, branch: "agent/task", ...(labels ? { labels } : {}) });

describe("signatures and headers", () => {
  it("signs each delivery with HMAC SHA-256: it verifies with the secret and fails with another", async () => {
    await openPull();
    const [delivery] = receiver.received;
    if (!delivery) throw new Error("no delivery");
    const signature = String(delivery.headers["x-hub-signature-256"]);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify("s3cret", delivery.body, signature)).toBe(true);
    expect(await verify("another-secret", delivery.body, signature)).toBe(false);
    expect(await verify("s3cret", `${delivery.body} `, signature)).toBe(false);
  });

  it("sends GitHub's headers with a fresh delivery id each time", async () => {
    await openPull();
    await sim.addLabels({ repo, number: 1, labels: ["a", "b"] });
    expect(receiver.received).toHaveLength(3);
    const ids = receiver.received.map((entry) => entry.headers["x-github-delivery"]);
    expect(new Set(ids).size).toBe(3);
    for (const entry of receiver.received) {
      expect(entry.headers["x-github-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(entry.headers["user-agent"]).toMatch(/^GitHub-Hookshot\//);
      expect(entry.headers["content-type"]).toBe("application/json");
      expect(entry.headers["x-github-hook-installation-target-type"]).toBe("integration");
      expect(entry.headers["x-github-hook-installation-target-id"]).toBe(String(sim.appId));
      expect(entry.headers["x-github-hook-id"]).toMatch(/^\d+$/);
    }
    expect(
      sim.deliveries.map((delivery) => [delivery.event, delivery.action, delivery.status]),
    ).toEqual([
      ["pull_request", "opened", 202],
      ["pull_request", "labeled", 202],
      ["pull_request", "labeled", 202],
    ]);
  });
});

describe("state changes fire webhooks", () => {
  it("a push to a pull request's head branch fires synchronize with before and after", async () => {
    const { head } = await openPull();
    const next = await sim.pushCommit({
      repo,
      branch: "agent/task",
      files: { "a.txt": "b\n" },
      author: "codex[bot]",
    });
    const sync = JSON.parse(receiver.received.at(-1)?.body ?? "{}");
    expect(sync).toMatchObject({ action: "synchronize", before: head, after: next, number: 1 });
    expect(sync.pull_request.head.sha).toBe(next);
    expect(sync.installation.id).toBe(sim.installationId);
    expect(sync.sender.login).toBe("codex[bot]");
  });

  it("check run create and update through the API fire created and completed", async () => {
    const { head } = await openPull();
    receiver.received.length = 0;
    const octokit = installationClient(sim);
    const created = await createAgateCheck(octokit, sim, repo, head, { status: "in_progress" });
    await octokit.rest.checks.update({
      owner: sim.owner,
      repo,
      check_run_id: created.data.id,
      output: { title: "Working", summary: "still going" },
    });
    await octokit.rest.checks.update({
      owner: sim.owner,
      repo,
      check_run_id: created.data.id,
      conclusion: "failure",
      output: { title: "Rejected", summary: "npm test exited 1" },
    });
    await sim.flushWebhooks();
    expect(events()).toEqual(["check_run.created", "check_run.completed"]);
    const completed = JSON.parse(receiver.received[1]?.body ?? "{}");
    expect(completed.check_run).toMatchObject({
      id: created.data.id,
      name: "agate",
      status: "completed",
      conclusion: "failure",
      head_sha: head,
      output: { title: "Rejected", summary: "npm test exited 1" },
    });
    expect(completed.check_run.app.id).toBe(sim.appId);
    expect(completed.check_run.pull_requests[0]).toMatchObject({ number: 1 });
    expect(completed.sender.login).toBe(`${sim.appSlug}[bot]`);
  });

  it("only the app that created a check run may update it", async () => {
    const { head } = await openPull();
    const runId = await sim.createCheckRun({
      repo,
      name: "agate",
      headSha: head,
      status: "in_progress",
    });
    const error = await installationClient(sim)
      .rest.checks.update({ owner: sim.owner, repo, check_run_id: runId, conclusion: "success" })
      .catch((caught: { status: number }) => caught.status);
    expect(error).toBe(403);
    expect(sim.checkRuns({ repo }).find((run) => run.id === runId)?.conclusion).toBeNull();
  });

  it("labels on an issue fire issues.labeled once per new label", async () => {
    const number = await sim.createIssue({ repo, title: "Handoff", user: "codex[bot]" });
    // A plain issue takes `issues: write` (the default installation's `pull_requests: write`
    // counts on pull requests only).
    const octokit = tokenClient(sim, sim.createToken({ permissions: { issues: "write" } }));
    await octokit.rest.issues.addLabels({
      owner: sim.owner,
      repo,
      issue_number: number,
      labels: ["agate:open"],
    });
    await octokit.rest.issues.addLabels({
      owner: sim.owner,
      repo,
      issue_number: number,
      labels: ["agate:open", "agate:claimed"],
    });
    await sim.flushWebhooks();
    expect(events()).toEqual(["issues.opened", "issues.labeled", "issues.labeled"]);
    expect(JSON.parse(receiver.received[2]?.body ?? "{}").label.name).toBe("agate:claimed");
    expect(sim.labelsOf({ repo, number })).toEqual(["agate:open", "agate:claimed"]);
  });

  it("labels given when a pull request opens fire opened, then labeled", async () => {
    await openPull(["agent"]);
    expect(events()).toEqual(["pull_request.opened", "pull_request.labeled"]);
  });

  it("a comment fires issue_comment.created and a review fires pull_request_review.submitted", async () => {
    const { head } = await openPull();
    sim.setPermission({ repo, user: "maintainer", permission: "maintain" });
    await sim.addIssueComment({ repo, number: 1, body: "please fix", user: "maintainer" });
    await sim.submitReview({
      repo,
      number: 1,
      state: "APPROVED",
      user: "maintainer",
      commitId: head,
    });
    expect(events().slice(-2)).toEqual(["issue_comment.created", "pull_request_review.submitted"]);
    const review = JSON.parse(receiver.received.at(-1)?.body ?? "{}");
    expect(review.review).toMatchObject({ state: "approved".toUpperCase(), commit_id: head });
    expect(review.review.author_association).toBe("MEMBER");
  });
});

describe("merge queue", () => {
  it("requestMergeGroupChecks sends merge_group.checks_requested for the group head on the base tip", async () => {
    const base = sim.branchSha({ repo, branch: "main" }) ?? "";
    const ref = "gh-readonly-queue/main/pr-7-abc";
    const head = await sim.pushCommit({ repo, branch: ref, files: { "q.txt": "q\n" } });
    const { baseSha } = await sim.requestMergeGroupChecks({ repo, headSha: head, headRef: ref });
    expect(baseSha).toBe(base);
    const body = JSON.parse(receiver.received.at(-1)?.body ?? "{}");
    expect(String(receiver.received.at(-1)?.headers["x-github-event"])).toBe("merge_group");
    expect(body).toMatchObject({
      action: "checks_requested",
      merge_group: {
        head_sha: head,
        head_ref: `refs/heads/${ref}`,
        base_sha: base,
        base_ref: "refs/heads/main",
        head_commit: { id: head },
      },
    });
    expect(body.installation.id).toBe(sim.installationId);
  });
});

describe("payload shapes match @octokit/webhooks-examples", () => {
  interface Example {
    name: string;
    examples: Record<string, unknown>[];
  }
  const require = createRequire(import.meta.url);
  const catalog = require("@octokit/webhooks-examples/api.github.com/index.json") as Example[];

  /** Actions without an example of their own are compared with a sibling of the same event. */
  const SIBLING: Record<string, string> = {
    "workflow_run.in_progress": "requested",
    "pull_request.edited": "opened",
  };
  function exampleOf(event: string, action: string): Record<string, unknown> {
    const wanted = SIBLING[`${event}.${action}`] ?? action;
    const found = catalog
      .find((entry) => entry.name === event)
      ?.examples.find((item) => item.action === wanted);
    if (!found) throw new Error(`no example for ${event}.${action}`);
    return found;
  }

  /**
   * Keys of the example that the simulator's payload lacks. Not expected: `enterprise` (only on
   * enterprise accounts) and `deployment` (only on check runs a deployment created).
   */
  const OPTIONAL = new Set(["enterprise", "deployment"]);
  function missingKeys(example: unknown, actual: unknown): string[] {
    const a = Object.keys(example as object).filter((key) => !OPTIONAL.has(key));
    return a.filter((key) => !(key in (actual as object)));
  }

  it("has every key the examples have, at the top and in the nested objects agate reads", async () => {
    const { head } = await openPull();
    await sim.pushCommit({
      repo,
      branch: "agent/task",
      files: { "b.txt": "b\n" },
      author: "codex[bot]",
    });
    await sim.addLabels({ repo, number: 1, labels: ["agent"] });
    await sim.addIssueComment({ repo, number: 1, body: "hi", user: "octocat" });
    sim.setPermission({ repo, user: "maintainer", permission: "write" });
    await sim.submitReview({ repo, number: 1, state: "COMMENTED", body: "ok", user: "maintainer" });
    await sim.createIssue({ repo, title: "Entry", user: "codex[bot]", labels: ["agate:open"] });
    const octokit = installationClient(sim);
    const run = await createAgateCheck(octokit, sim, repo, head);
    await octokit.rest.checks.update({
      owner: sim.owner,
      repo,
      check_run_id: run.data.id,
      conclusion: "success",
    });
    const workflow = sim.addWorkflowRun({
      repo,
      headSha: head,
      path: ".github/workflows/ci.yml",
      conclusion: null,
      jobs: [{ name: "gate" }],
    });
    await sim.completeWorkflowRun({ repo, runId: workflow.id, conclusion: "success" });
    // A job's life: workflow_run requested / in_progress / completed, workflow_job queued /
    // in_progress / completed.
    const agateRun = await sim.createWorkflowRun({
      repo,
      path: ".github/workflows/agate.yml",
      event: "pull_request",
      headSha: head,
      jobs: [{ name: "agate", steps: ["agate"] }],
    });
    await sim.startJob({ repo, runId: agateRun.id, job: "agate" });
    await sim.completeJob({ repo, runId: agateRun.id, job: "agate", conclusion: "success" });
    await sim.pushCommit({ repo, branch: "release", files: { "r.txt": "r\n" } });
    await sim.retargetPullRequest({ repo, number: 1, base: "release" });
    const group = await sim.pushCommit({
      repo,
      branch: "gh-readonly-queue/main/pr-1-queued",
      files: { "a.txt": "a\n" },
      author: "octocat",
    });
    await sim.requestMergeGroupChecks({
      repo,
      headSha: group,
      headRef: "gh-readonly-queue/main/pr-1-queued",
    });
    await sim.flushWebhooks();

    const nested: Record<string, string[]> = {
      pull_request: ["pull_request", "repository", "sender"],
      issues: ["issue", "repository", "sender"],
      issue_comment: ["issue", "comment", "repository"],
      pull_request_review: ["review", "pull_request"],
      check_run: ["check_run", "repository"],
      workflow_run: ["workflow_run", "workflow", "repository"],
      workflow_job: ["workflow_job", "repository"],
      merge_group: ["merge_group", "repository"],
    };
    const seen = new Set<string>();
    for (const delivery of sim.deliveries) {
      const action = delivery.action ?? "";
      seen.add(`${delivery.event}.${action}`);
      const example = exampleOf(delivery.event, action);
      expect(missingKeys(example, delivery.payload), `${delivery.event}.${action}`).toEqual([]);
      for (const key of nested[delivery.event] ?? []) {
        expect(
          missingKeys(example[key], delivery.payload[key]),
          `${delivery.event}.${action}.${key}`,
        ).toEqual([]);
      }
    }
    expect([...seen].sort()).toEqual([
      "check_run.completed",
      "check_run.created",
      "issue_comment.created",
      "issues.labeled",
      "issues.opened",
      "merge_group.checks_requested",
      "pull_request.edited",
      "pull_request.labeled",
      "pull_request.opened",
      "pull_request.synchronize",
      "pull_request_review.submitted",
      "workflow_job.completed",
      "workflow_job.in_progress",
      "workflow_job.queued",
      "workflow_run.completed",
      "workflow_run.in_progress",
      "workflow_run.requested",
    ]);
  });
});
