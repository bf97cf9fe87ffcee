import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordArtifactName } from "../../schemas/command-record.js";
import { forgedPassingRecord } from "../support/forged-record.js";
import { EVIDENCE_WORKFLOW_TEXT, useGateHarness } from "../support/gate-harness.js";
import { simulatedCi } from "../support/simulated-ci.js";

/**
 * Evidence belongs to a head on a base (issue 26), end to end: a base the agent pushed lends its
 * own workflow to a run for the head, and a pass computed for one base must never stand on a
 * commit proposed to another. Each attack ends without a passing `agate` conclusion on the
 * attacked base; the honest paths (a fork, a retarget by a maintainer, the merge queue) still
 * reach success.
 */
const gate = useGateHarness();
const FAILING = { "answer.txt": "41\n" };

/** The agent's workflow on its own base: same name, job and step, run when the base changes. */
const EVIL_WORKFLOW = EVIDENCE_WORKFLOW_TEXT.replace(
  "  pull_request:\n",
  "  pull_request:\n    types: [opened, synchronize, reopened, edited]\n",
);

/** An "agate" step that does nothing: the agent's workflow uploads its own record before it. */
function noopBundle(): string {
  const path = join(gate.temp, "noop-action.mjs");
  writeFileSync(path, "process.exit(0);\n");
  return path;
}

describe("evidence belongs to a head on a base", () => {
  it("1. a run of the agent's own workflow, made while the pull request targeted the agent's branch, never counts once it targets main again", async () => {
    const repo = "evil-base";
    const { head, branch, number } = await gate.agentPullRequest(repo, FAILING);
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });

    // The agent pushes a branch holding its own workflow at the evidence path.
    await gate.sim.pushCommit({
      repo,
      branch: "evil",
      files: { ".github/workflows/agate.yml": EVIL_WORKFLOW },
      author: "codex[bot]",
      message: "A base of the agent's",
    });
    await gate.processDeliveries();
    // Retarget to evil: GitHub runs evil's workflow (the test merge's) on `edited`. The App is
    // slow to look: by the time it does, the pull request targets main again.
    await gate.sim.retargetPullRequest({ repo, number, base: "evil", user: "codex[bot]" });
    await simulatedCi({
      sim: gate.sim,
      repo,
      branch,
      head,
      temp: gate.temp,
      settle: () => gate.sim.flushWebhooks(),
      bundle: noopBundle(),
      stepConclusion: "success",
      beforeAgate: async (job) => {
        await gate.sim.uploadArtifactAs({
          repo,
          runId: job.runId,
          attempt: job.attempt,
          job: job.job,
          name: recordArtifactName(job.attempt),
          files: forgedPassingRecord({ sim: gate.sim, repo, job, head, number }),
        });
      },
    });
    await gate.sim.retargetPullRequest({ repo, number, base: "main", user: "codex[bot]" });
    await gate.processDeliveries();

    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    // The events named evil as a base of this head, though no pass ever read it there.
    expect(check?.output?.title).toBe(
      `Blocked on ${head.slice(0, 7)}: this commit is also the head of this pull request into \`evil\`: GitHub's checks and workflow runs are per commit, so agate cannot tell whose evidence is whose`,
    );
  });
});
