import { describe, expect, it } from "vitest";
import { decideGate } from "../../checks/gate/decide.js";
import type { GatePlan } from "../../checks/gate/plan.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { gateFacts, HEAD, TREE } from "../../test/support/gate-facts.js";
import { useSqliteStore } from "../../test/support/sqlite-store.js";
import { GitHubAdapter, type GitHubClient } from "../github/adapter.js";
import { applyGatePlan } from "./apply.js";
import { AgateChecks } from "./check-runs.js";

/** A client that fails the test if anything reaches GitHub: these plans write nothing there. */
const noGitHub = new Proxy({} as GitHubClient, {
  get: (_target, name) => {
    throw new Error(`a plan without GitHub writes reached GitHub (${String(name)})`);
  },
});

describe("applyGatePlan: asking the evaluator", () => {
  const store = useSqliteStore();

  const facts = gateFacts({ head_tree_sha: TREE });
  const decision = decideGate(facts);
  const github = new GitHubAdapter(noGitHub, "octo/widgets", "agate");
  const apply = (ask: GatePlan["askEvaluator"]) =>
    applyGatePlan({
      github,
      checks: new AgateChecks(github, store(), () => new Date()),
      store: store(),
      installation: 1,
      facts,
      decision,
      plan: {
        check: null,
        labels: { remove: [], add: [] },
        comments: [],
        storeDecision: false,
        askEvaluator: ask,
      },
      observations: {
        merge_commit: null,
        head: { head_sha: HEAD, base_ref: "main" },
        view: {
          snapshot: facts.pull_request,
          detail: {
            title: "A change",
            body: "",
            created_at: "2026-12-02T09:00:00Z",
            updated_at: "2026-12-02T10:00:00Z",
            commits: 1,
            additions: 1,
            deletions: 0,
            changed_files: 1,
            merge_commit_sha: null,
          },
        },
        entry_mentions: [],
      },
      existing: null,
      now: () => new Date(),
    });
  const evaluatorJobs = async () =>
    (await store().listJobs({ kind: GATE_JOBS.evaluator.kind })).map((j) => ({
      status: j.status,
      payload: j.payload,
    }));

  it("a pass made while the same tree is queued or being judged asks nothing more; a person's re-run and another tree do", async () => {
    const ask = { tree_sha: TREE, config_digest: "d".repeat(64), rerun: false, inputs: null };
    await apply(ask);
    await apply(ask);
    expect(await evaluatorJobs()).toHaveLength(1);
    // Being judged (leased by a worker): still one.
    const claimed = await store().claimJob({ workerId: "w", leaseMs: 60_000 });
    expect(claimed?.job.kind).toBe(GATE_JOBS.evaluator.kind);
    await apply(ask);
    expect((await evaluatorJobs()).map((j) => j.status)).toEqual(["running"]);
    // A person asked again: always queued (budgets still apply in the job).
    await apply({ ...ask, rerun: true });
    // Another tree, or another config: a job of its own.
    await apply({ ...ask, tree_sha: "7".repeat(40) });
    await apply({ ...ask, config_digest: "e".repeat(64) });
    expect((await evaluatorJobs()).map((j) => j.status)).toEqual([
      "running",
      "queued",
      "queued",
      "queued",
    ]);
    // Once the first job is done, the queued re-run of the same tree still answers a new ask.
    if (claimed) await store().completeJob(claimed.lease);
    await apply(ask);
    expect(await evaluatorJobs()).toHaveLength(4);
    // With nothing left for the tree, it may be asked again (the gather decides whether it is due).
    for (let job = await store().claimJob({ workerId: "w", leaseMs: 60_000 }); job; ) {
      await store().completeJob(job.lease);
      job = await store().claimJob({ workerId: "w", leaseMs: 60_000 });
    }
    await apply(ask);
    expect(await evaluatorJobs()).toHaveLength(5);
  });
});
