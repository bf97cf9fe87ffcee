import { describe, expect, it } from "vitest";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { EVIDENCE_WORKFLOW_TEXT, useGateHarness } from "../support/gate-harness.js";
import { testConfig } from "../support/runner-users.js";
import { simulatedCi } from "../support/simulated-ci.js";

/**
 * The merge queue against the simulator: a `merge_group` checks request, the real Action bundle
 * run on merge_group for the group head, real workflow-run data, and the gate's job code reading
 * it over HTTP. Deliveries and the deadline job are handed to their handlers directly.
 */
const gate = useGateHarness();
const MERGE_GROUP_DEADLINE = GATE_JOBS.mergeGroupDeadline.kind;
const groupCi = (repo: string, head: string) =>
  simulatedCi({
    sim: gate.sim,
    repo,
    branch: "unused",
    head,
    temp: gate.temp,
    settle: () => gate.processDeliveries(),
    mergeGroup: true,
  });

const config = (answer: string, timeout: string) =>
  `version: 1\ncommands:\n  - name: answer\n    run: test "$(cat answer.txt)" = ${answer}\nmerge_queue:\n  record_timeout: ${timeout}\n`;

/** A repository with the config on main, and a merge group head built on main's tip. */
async function queuedGroup(repo: string, answer = "42", timeout = "10m") {
  const { headSha: base } = await gate.sim.createRepository({
    repo,
    files: {
      ".github/agate.yml": testConfig(config(answer, timeout)),
      "answer.txt": "0\n",
      ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT,
    },
  });
  const headRef = `gh-readonly-queue/main/pr-1-${base}`;
  const head = await gate.sim.pushCommit({
    repo,
    branch: headRef,
    files: { "answer.txt": "42\n" },
    message: "Merge pull request #1 from codex/answer",
  });
  await gate.sim.requestMergeGroupChecks({ repo, headSha: head, headRef });
  await gate.processDeliveries();
  return { head, base, headRef };
}

describe("the merge queue, end to end against the simulator", () => {
  it("request → in progress → verified passing record on the group head → success", async () => {
    const repo = "queue";
    const { head } = await queuedGroup(repo);
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, head)?.output?.title).toBe(
      `Waiting on merge group ${head.slice(0, 7)} (#1): no merge_group record from .github/workflows/agate.yml yet; it fails after 10 min`,
    );
    const deadline = (await gate.store.listJobs({ status: "queued" })).filter(
      (j) => j.kind === MERGE_GROUP_DEADLINE,
    );
    expect(deadline).toHaveLength(1);
    // Due record_timeout (10m here) after the request.
    const due = Date.parse(deadline[0]?.run_at ?? "") - Date.now();
    expect(due).toBeGreaterThan(9 * 60_000);
    expect(due).toBeLessThanOrEqual(10 * 60_000);

    const run = await groupCi(repo, head);
    expect(run.status, run.stderr).toBe(0);
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "success" });
    expect(check?.output?.title).toBe(
      `Accepted merge group ${head.slice(0, 7)} (#1): the required commands passed on the group head`,
    );
    expect(check?.output?.summary).toContain("not escalated in the merge queue");

    // The deadline then finds the group answered and leaves it be.
    const [answered] = deadline;
    if (!answered) throw new Error("no deadline job was enqueued");
    expect(await gate.run(answered)).toContain("deadline reached, already concluded success");
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    const audit = await gate.store.listAudit({ kind: "gate.merge_group.decision" });
    // Waiting on the request and while the run was still going, then accepted; never failed.
    const states = audit.map((a) => (a.decision as { state: string }).state);
    expect(states.at(-1)).toBe("accepted");
    expect(states.slice(0, -1).every((state) => state === "pending")).toBe(true);
    expect(states.length).toBeGreaterThanOrEqual(2);
  });

  it("a failing command on the group head fails the group with the command's name", async () => {
    const repo = "queue-red";
    const { head } = await queuedGroup(repo, "41");
    await groupCi(repo, head);
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check?.output?.title).toBe(
      `Rejected merge group ${head.slice(0, 7)} (#1): 1 of 1 required commands failed (answer)`,
    );
  });

  it("a merge_group request with no record gets a failure in bounded time", async () => {
    const repo = "queue-silent";
    const { head } = await queuedGroup(repo, "42", "1s");
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    const [job] = (await gate.store.listJobs({ status: "queued" })).filter(
      (j) => j.kind === MERGE_GROUP_DEADLINE,
    );
    if (!job) throw new Error("no deadline job was enqueued");
    // record_timeout is 1s: wait until the job is due, then run it as a worker would.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(job.run_at) - Date.now())),
    );
    await gate.run(job);
    await gate.processDeliveries();
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check?.output?.title).toBe(
      `Rejected merge group ${head.slice(0, 7)} (#1): no command record within 1 s (merge_queue.record_timeout): does the evidence…`,
    );
  });

  it("a deadline queued before issue 30, its installation named `installation_id`, still concludes its group", async () => {
    const repo = "queue-legacy";
    const { head, base } = await queuedGroup(repo, "42", "1s");
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    // This release's deadline is taken out of the way unrun, so only the old row can answer.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const claim = () =>
      gate.store.claimJob({
        workerId: "merge-group-test",
        leaseMs: 60_000,
        kinds: [MERGE_GROUP_DEADLINE],
      });
    const current = await claim();
    if (!current) throw new Error("no deadline job was enqueued");
    await gate.store.completeJob(current.lease);
    // A running database holds the old payload as it was stored, so the test stores the row.
    const { installation, ...group } = GATE_JOBS.mergeGroupDeadline.payload.parse(
      current.job.payload,
    );
    expect(group).toMatchObject({ head_sha: head, base_sha: base });
    const legacy = await gate.store.enqueue({
      kind: MERGE_GROUP_DEADLINE,
      payload: { ...group, installation_id: installation },
    });
    const claimed = await claim();
    expect(claimed?.job.id).toBe(legacy.id);
    if (!claimed) throw new Error("the stored deadline was not claimed");
    expect(await gate.run(claimed.job)).toContain("deadline reached: Rejected merge group");
    expect(gate.gateCheck(repo, head)).toMatchObject({
      status: "completed",
      conclusion: "failure",
    });
  });

  it("evidence is per group head: a new group on top of an accepted one waits for its own", async () => {
    const repo = "queue-next";
    const { head, headRef } = await queuedGroup(repo);
    const first = await groupCi(repo, head);
    expect(first.status).toBe(0);
    expect(gate.gateCheck(repo, head)?.conclusion).toBe("success");
    const next = await gate.sim.pushCommit({
      repo,
      branch: `gh-readonly-queue/main/pr-2-${head}`,
      files: { "b.txt": "b\n" },
      from: headRef,
    });
    await gate.sim.requestMergeGroupChecks({
      repo,
      headSha: next,
      headRef: `gh-readonly-queue/main/pr-2-${head}`,
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, next)).toMatchObject({ status: "in_progress" });
  });
});
