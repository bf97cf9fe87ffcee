import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Probot } from "probot";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { handleGateDelivery } from "../../app/gate/handle-delivery.js";
import { handleMergeGroupDeadline, MERGE_GROUP_DEADLINE } from "../../app/gate/merge-group.js";
import { openStore } from "../../app/store/open-store.js";
import type { Store } from "../../app/store/store.js";
import {
  type GitHubSimulator,
  type Receiver,
  startGitHubSimulator,
  startReceiver,
} from "../github/index.js";
import { simulatedCi } from "../support/simulated-ci.js";

/**
 * The merge queue against the simulator: a `merge_group` checks request, the real Action bundle
 * run on merge_group for the group head, real workflow-run data, and the gate's job code reading
 * it over HTTP. Deliveries and the deadline job are handed to their handlers directly.
 */
let sim: GitHubSimulator;
let receiver: Receiver;
let store: Store;
let probot: Probot;
const temp = mkdtempSync(join(tmpdir(), "agate-merge-group-"));
let handled = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  sim = await startGitHubSimulator({ webhookUrl: receiver.url });
});
afterAll(async () => {
  await sim?.close();
  await receiver?.close();
  await store?.close();
  rmSync(temp, { recursive: true, force: true });
});
beforeEach(async () => {
  sim.reset();
  probot = new Probot({
    appId: sim.appId,
    privateKey: sim.privateKey,
    baseUrl: sim.apiUrl,
    logLevel: "fatal",
  });
  await store?.close();
  store = await openStore({ url: `file:${join(temp, `mq-${Date.now()}-${Math.random()}.db`)}` });
  handled = sim.deliveries.length;
});

const log: string[] = [];
const deps = () => ({
  store,
  now: () => new Date(),
  octokitFor: (id: number) => probot.auth(id) as never,
  appSlug: async () => sim.appSlug,
  log: (line: string) => log.push(line),
});

async function processDeliveries() {
  await sim.flushWebhooks();
  while (handled < sim.deliveries.length) {
    const d = sim.deliveries[handled++];
    if (!d) continue;
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
    await sim.flushWebhooks();
  }
}

const config = (answer: string, timeout: string) =>
  `version: 1\ncommands:\n  - name: answer\n    run: test "$(cat answer.txt)" = ${answer}\nmerge_queue:\n  record_timeout: ${timeout}\n`;

function gateCheck(repo: string, sha: string) {
  return sim
    .checkRuns({ repo })
    .filter((c) => c.name === "agate" && c.headSha === sha)
    .at(-1);
}

/** A repository with the config on main, and a merge group head built on main's tip. */
async function queuedGroup(repo: string, answer = "42", timeout = "10m") {
  const { headSha: base } = await sim.createRepository({
    repo,
    files: {
      ".github/agate.yml": config(answer, timeout),
      "answer.txt": "0\n",
      ".github/workflows/ci.yml": "on: [pull_request, merge_group]\n",
    },
  });
  const headRef = `gh-readonly-queue/main/pr-1-${base}`;
  const head = await sim.pushCommit({
    repo,
    branch: headRef,
    files: { "answer.txt": "42\n" },
    message: "Merge pull request #1 from codex/answer",
  });
  await sim.requestMergeGroupChecks({ repo, headSha: head, headRef });
  await processDeliveries();
  return { head, base, headRef };
}

describe("the merge queue, end to end against the simulator", () => {
  it("request → in progress → verified passing record on the group head → success", async () => {
    const repo = "queue";
    const { head } = await queuedGroup(repo);
    expect(gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    expect(gateCheck(repo, head)?.output?.title).toContain(
      `Waiting on merge group ${head.slice(0, 7)}: waiting for the command record for the merge group`,
    );
    const deadline = (await store.listJobs({ status: "queued" })).filter(
      (j) => j.kind === MERGE_GROUP_DEADLINE,
    );
    expect(deadline).toHaveLength(1);
    // Due record_timeout (10m here) after the request.
    const due = Date.parse(deadline[0]?.run_at ?? "") - Date.now();
    expect(due).toBeGreaterThan(9 * 60_000);
    expect(due).toBeLessThanOrEqual(10 * 60_000);

    const run = await simulatedCi({
      sim,
      repo,
      branch: "unused",
      head,
      temp,
      settle: processDeliveries,
      mergeGroup: true,
    });
    expect(run.status, run.stderr).toBe(0);
    const check = gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "success" });
    expect(check?.output?.title).toBe(
      `Accepted merge group ${head.slice(0, 7)}: the required commands passed on the group head`,
    );
    expect(check?.output?.summary).toContain("not escalated in the merge queue");

    // The deadline then finds the group answered and leaves it be.
    await handleMergeGroupDeadline(deadline[0]?.payload, deps());
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    const audit = await store.listAudit({ kind: "gate.merge_group.decision" });
    // Waiting on the request, waiting while the run was still going, then accepted; never failed.
    expect(audit.map((a) => (a.decision as { state: string }).state)).toEqual([
      "pending",
      "pending",
      "accepted",
    ]);
  });

  it("a failing command on the group head fails the group with the command's name", async () => {
    const repo = "queue-red";
    const { head } = await queuedGroup(repo, "41");
    await simulatedCi({
      sim,
      repo,
      branch: "unused",
      head,
      temp,
      settle: processDeliveries,
      mergeGroup: true,
    });
    const check = gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check?.output?.title).toBe(
      `Rejected merge group ${head.slice(0, 7)}: 1 of 1 required commands failed (answer)`,
    );
  });

  it("a merge_group request with no record gets a failure in bounded time", async () => {
    const repo = "queue-silent";
    const { head } = await queuedGroup(repo, "42", "1s");
    expect(gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    const [job] = (await store.listJobs({ status: "queued" })).filter(
      (j) => j.kind === MERGE_GROUP_DEADLINE,
    );
    if (!job) throw new Error("no deadline job was enqueued");
    // record_timeout is 1s: wait until the job is due, then run it as a worker would.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(job.run_at) - Date.now())),
    );
    await handleMergeGroupDeadline(job.payload, deps());
    await processDeliveries();
    const check = gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check?.output?.title).toBe(
      `Rejected merge group ${head.slice(0, 7)}: no command record for the merge group head ${head.slice(0, 7)} within 1s (merge_queue.record_timeout): is the agate Action in a workflow that runs on merge_group?`,
    );
  });

  it("evidence is per group head: a new group on top of an accepted one waits for its own", async () => {
    const repo = "queue-next";
    const { head, headRef } = await queuedGroup(repo);
    const first = await simulatedCi({
      sim,
      repo,
      branch: "unused",
      head,
      temp,
      settle: processDeliveries,
      mergeGroup: true,
    });
    expect(first.status).toBe(0);
    expect(gateCheck(repo, head)?.conclusion).toBe("success");
    const next = await sim.pushCommit({
      repo,
      branch: `gh-readonly-queue/main/pr-2-${head}`,
      files: { "b.txt": "b\n" },
      from: headRef,
    });
    await sim.requestMergeGroupChecks({
      repo,
      headSha: next,
      headRef: `gh-readonly-queue/main/pr-2-${head}`,
    });
    await processDeliveries();
    expect(gateCheck(repo, next)).toMatchObject({ status: "in_progress" });
  });
});
