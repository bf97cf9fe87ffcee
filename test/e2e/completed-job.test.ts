import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { agateRoute } from "../../app/compose.js";
import { decideGate } from "../../checks/gate/decide.js";
import { judgedFacts } from "../../checks/gate/evidence.js";
import type { EvidenceJob, EvidenceRunFact } from "../../schemas/gate.js";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import type { Delivery } from "../github/index.js";
import { useGateHarness } from "../support/gate-harness.js";

/**
 * A `workflow_job.completed` event carries its job, and the App uses it instead of listing the
 * run's jobs (one call less), but only when it is the live run's pinned job: the run the App reads
 * for the head, that run's newest attempt, the evidence job's name, completed
 * (app/gate/evidence.ts, `completedJob`). Each test shows a job that fails one of those
 * conditions not believed: the jobs are listed and the decision follows the listed job. First at
 * the gather level, where the job handed over is exactly the one under test, then through the
 * route with the late event as GitHub would send it.
 */
const gate = useGateHarness();
const PASSING = { "answer.txt": "42\n" };
const LIST_JOBS = "actions/list-jobs-for-workflow-run";

/** The `workflow_job.completed` delivery of one attempt of a run. */
function jobCompleted(runId: number, attempt: number): Delivery {
  const found = gate.sim.deliveries.filter((d) => {
    if (d.event !== "workflow_job" || d.action !== "completed") return false;
    const j = d.payload.workflow_job as { run_id: number; run_attempt: number };
    return j.run_id === runId && j.run_attempt === attempt;
  });
  if (found.length !== 1) {
    throw new Error(`${found.length} workflow_job.completed deliveries of run ${runId}.${attempt}`);
  }
  return found[0] as Delivery;
}

/** The job the route takes from a delivery (what a pass is handed as `completedJob`). */
function routedJob(delivery: Delivery): { runId: number; job: EvidenceJob } {
  const [job] = agateRoute(delivery.event, delivery.payload, delivery.id);
  if (job?.kind !== GATE_JOBS.head.kind) throw new Error(`the route made ${job?.kind ?? "no job"}`);
  const { run } = GATE_JOBS.head.payload.parse(job.payload);
  if (!run?.job) throw new Error("the route carried no completed job");
  return { runId: run.id, job: run.job };
}

/** One gather of the pull request with `completedJob`, on an adapter of its own, and its decision. */
async function gatherWith(
  repo: string,
  number: number,
  completedJob: { runId: number; job: EvidenceJob },
) {
  const { github, facts } = await gate.gather(repo, number, { completedJob });
  return {
    listed: github.calls.get(LIST_JOBS) ?? 0,
    job: facts.evidence_run?.job ?? null,
    decision: decideGate(judgedFacts(facts)),
  };
}

/** The evidence job the newest stored decision for the head read. */
async function jobOfLastDecision(repo: string, number: number, head: string) {
  const [last] = await gate.store.listAudit({
    kind: "gate.decision",
    subject: `${gate.sim.owner}/${repo}#${number}@${head}`,
    order: "desc",
    limit: 1,
  });
  return (last?.facts as { evidence_run?: EvidenceRunFact | null } | undefined)?.evidence_run?.job;
}

/** A delivery handed over again under a new id (a late event), then the passes it queued. */
async function deliverLate(delivery: Delivery): Promise<void> {
  await gate.handle({ ...delivery, id: randomUUID() });
  await gate.processDeliveries();
}

/** A passing run of the evidence workflow for a new pull request, decided from its own event. */
async function oneRun(repo: string) {
  const { head, branch, number } = await gate.agentPullRequest(repo, PASSING);
  const run = await gate.ci(repo, branch, head);
  expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  return { head, number, run, own: routedJob(jobCompleted(run.runId, 1)) };
}

/** A run whose attempt 1's agate step failed (the runner's word) and whose re-run passed. */
async function reran(repo: string) {
  const { head, branch, number } = await gate.agentPullRequest(repo, PASSING);
  const first = await gate.ci(repo, branch, head, { stepConclusion: "failure" });
  expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
  const second = await gate.ci(repo, branch, head, { rerun: { runId: first.runId } });
  expect(second).toMatchObject({ runId: first.runId, attempt: 2 });
  expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  const older = routedJob(jobCompleted(first.runId, 1));
  // Only the attempt differs: same run, same name, completed (and it failed).
  expect(older).toMatchObject({
    runId: second.runId,
    job: { run_attempt: 1, name: "agate-commands", status: "completed", conclusion: "failure" },
  });
  return { head, number, first, second, older };
}

/** Two runs of the evidence workflow for one head: the older one's agate step failed. */
async function twoRuns(repo: string) {
  const { head, branch, number } = await gate.agentPullRequest(repo, PASSING);
  const older = await gate.ci(repo, branch, head, { stepConclusion: "failure" });
  const newer = await gate.ci(repo, branch, head);
  expect(newer.runId).not.toBe(older.runId);
  expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  const olderJob = routedJob(jobCompleted(older.runId, 1));
  // Only the run differs: the newest attempt (1), same name, completed (and it failed).
  expect(olderJob.job).toMatchObject({
    run_attempt: 1,
    name: "agate-commands",
    status: "completed",
    conclusion: "failure",
  });
  return { head, number, older, newer, olderJob };
}

describe("a workflow_job.completed payload stands in for the run's jobs only when it is the live run's pinned job", () => {
  it("the live run's own completed job is believed (no listing); as another job's, or as not completed, it is not: the jobs are listed and decide", async () => {
    const repo = "one-run";
    const { number, run, own } = await oneRun(repo);
    // The job as its own event showed it: the shortcut, no listing.
    const honest = await gatherWith(repo, number, own);
    expect(honest.listed).toBe(0);
    expect(honest.job).toMatchObject({ id: run.jobId });
    expect(honest.decision.state).toBe("accepted");

    // (b) a completed job of the run's newest attempt that is not the pinned evidence job.
    const other = await gatherWith(repo, number, { ...own, job: { ...own.job, name: "build" } });
    expect(other.listed).toBe(1);
    expect(other.job).toMatchObject({ id: run.jobId, name: "agate-commands" });
    expect(other.decision.state).toBe("accepted");

    // (d) the job as it was before it completed. The route never hands one over (it carries a
    // job only when the event says completed: route.test.ts); this holds without the route.
    const running = await gatherWith(repo, number, {
      ...own,
      job: { ...own.job, status: "in_progress", conclusion: null },
    });
    expect(running.listed).toBe(1);
    expect(running.job).toMatchObject({ id: run.jobId, status: "completed" });
    expect(running.decision.state).toBe("accepted");
  });

  it("(a) a completed job of an older attempt of the run, handed over or arriving late, is not believed: the newest attempt's, listed, decides", async () => {
    const repo = "older-attempt";
    const { head, number, first, second, older } = await reran(repo);
    const gathered = await gatherWith(repo, number, older);
    expect(gathered.listed).toBe(1);
    expect(gathered.job).toMatchObject({ id: second.jobId, run_attempt: 2 });
    expect(gathered.decision.state).toBe("accepted");

    // Through the route: attempt 1's workflow_job.completed arrives after attempt 2 decided.
    gate.sim.clearCalls();
    await deliverLate(jobCompleted(first.runId, 1));
    expect(gate.sim.calls[LIST_JOBS]).toBe(1);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(await jobOfLastDecision(repo, number, head)).toMatchObject({
      id: second.jobId,
      run_attempt: 2,
    });
  });

  it("(c) a completed job of another run of the head, handed over or arriving late, is not believed: the newest run's, listed, decides", async () => {
    const repo = "other-run";
    const { head, number, older, newer, olderJob } = await twoRuns(repo);
    const gathered = await gatherWith(repo, number, olderJob);
    expect(gathered.listed).toBe(1);
    expect(gathered.job).toMatchObject({ id: newer.jobId });
    expect(gathered.decision.state).toBe("accepted");

    // Through the route: the older run's workflow_job.completed arrives after the newer decided.
    gate.sim.clearCalls();
    await deliverLate(jobCompleted(older.runId, 1));
    expect(gate.sim.calls[LIST_JOBS]).toBe(1);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(await jobOfLastDecision(repo, number, head)).toMatchObject({ id: newer.jobId });
  });
});

describe("a retried evidence pass", () => {
  it("is not skipped as already read: its first run may have stored the decision and stopped before queueing what it calls for", async () => {
    const repo = "retried-pass";
    const { head, number, run } = await oneRun(repo);
    const [headJob] = agateRoute(...deliveryArgs(jobCompleted(run.runId, 1)));
    if (!headJob) throw new Error("the route made no job");
    const deps = gate.deps();
    // The late event's head job queues the pull request's pass, carrying the run.
    await gate.run(headJob, deps);
    const job = (
      await gate.store.listJobs({ kind: GATE_JOBS.pullRequest.kind, status: "queued" })
    ).at(-1);
    if (!job) throw new Error("the head job queued no pull request pass");
    // The same run read again: skipped.
    expect(await gate.run(job, deps)).toContain(
      `run ${run.runId} (attempt 1) was already read with its job complete`,
    );
    // The same job as a retry runs the pass, and queues every linked entry's pass and the
    // dashboard's refresh that a stopped first run may have left unqueued.
    const before = (await gate.store.listJobs({})).length;
    const retried = await gate.run(job, { ...deps, retried: true });
    expect(retried).not.toContain("already read");
    expect(retried).toContain(`Accepted on ${head.slice(0, 7)}`);
    const queued = (await gate.store.listJobs({})).slice(before).map((j) => j.kind);
    expect(queued).toContain(DASHBOARD_JOBS.refresh.kind);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:accepted");
  });
});

function deliveryArgs(delivery: Delivery): [string, Record<string, unknown>, string] {
  return [delivery.event, delivery.payload, delivery.id];
}
