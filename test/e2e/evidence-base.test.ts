import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentPull } from "../github/use-simulator.js";
import * as repos from "../support/evidence-repos.js";
import { forgeBeforeAgate } from "../support/forged-record.js";
import { ANSWER_CONFIG, EVIDENCE_WORKFLOW_TEXT, useGateHarness } from "../support/gate-harness.js";
import { testConfig } from "../support/runner-users.js";
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

/**
 * The attack of issue 26: the agent pushes `evil` holding its own workflow at the evidence path,
 * retargets its pull request to it, GitHub runs that workflow for the head (its step uploads a
 * passing record of the agent's making), and the agent retargets straight back to main. The
 * deliveries are left for the caller to hand over (or lose).
 */
async function runOnEvilBase(repo: string, branch: string, head: string, number: number) {
  await gate.sim.pushCommit({
    repo,
    branch: "evil",
    files: { ".github/workflows/agate.yml": EVIL_WORKFLOW },
    author: "codex[bot]",
    message: "A base of the agent's",
  });
  await gate.processDeliveries();
  await gate.sim.retargetPullRequest({ repo, number, base: "evil", user: "codex[bot]" });
  const run = await simulatedCi({
    sim: gate.sim,
    repo,
    branch,
    head,
    temp: gate.temp,
    settle: () => gate.sim.flushWebhooks(),
    bundle: noopBundle(),
    stepConclusion: "success",
    beforeAgate: forgeBeforeAgate(gate.sim, repo, head, number),
  });
  await gate.sim.retargetPullRequest({ repo, number, base: "main", user: "codex[bot]" });
  return run;
}

describe("evidence belongs to a head on a base", () => {
  it("1. a run of the agent's own workflow, made while the pull request targeted the agent's branch, never counts once it targets main again", async () => {
    const repo = "evil-base";
    const { head, branch, number } = await gate.agentPullRequest(repo, FAILING);
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });

    // The App is slow to look: by the time it reads the pull request, it targets main again.
    await runOnEvilBase(repo, branch, head, number);
    await gate.processDeliveries();

    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    // The events named evil as a base of this head, though no pass ever read it there.
    expect(check?.output?.title).toBe(
      `Blocked on ${head.slice(0, 7)}: this commit is also the head of this pull request into \`evil\``,
    );
  });

  it("1b. with every event of it lost (the App was down), GitHub's own run says which base it was made for: its record is refused", async () => {
    const repo = "evil-base-lost";
    const { head, branch, number } = await gate.agentPullRequest(repo, FAILING);
    await gate.ci(repo, branch, head);
    const run = await runOnEvilBase(repo, branch, head, number);
    await gate.takePending();
    // The next thing the App hears of: a person labels the pull request.
    await gate.sim.addLabels({ repo, number, labels: ["reviewed"], user: "octocat" });
    await gate.processDeliveries();

    const check = gate.gateCheck(repo, head);
    expect(check?.conclusion ?? null).not.toBe("success");
    expect(check?.output?.summary).toContain(
      `run ${run.runId} was made while this pull request targeted \`evil\`, so it ran that branch's workflow, not the one of \`main\``,
    );
  });
});

/** A ruleset on these branches requiring `agate` from this App, as the README sets one up. */
const requireAgate = (repo: string, branches = ["~DEFAULT_BRANCH"], mergeQueue = false) =>
  gate.sim.addRuleset({
    repo,
    branches,
    requiredChecks: [{ context: "agate", integration_id: gate.sim.appId }],
    mergeQueue,
  });

/** A repository whose main requires agate, with the agent's own base `evil` and a pull request into it. */
async function pullRequestIntoEvil(repo: string, evilFiles: Record<string, string | null>) {
  await repos.createAnswerRepository(gate.sim, repo);
  requireAgate(repo);
  await gate.sim.pushCommit({
    repo,
    branch: "evil",
    files: evilFiles,
    author: "codex[bot]",
    message: "A base of the agent's",
  });
  const { head, number } = await agentPull(gate.sim, {
    repo,
    branch: "codex/answer",
    files: { "answer.txt": "41\n" },
    base: "evil",
    title: "Answer",
  });
  await gate.processDeliveries();
  return { head, number, branch: "codex/answer" };
}

const passing = (conclusion: string | null | undefined) =>
  conclusion === "success" || conclusion === "neutral";

describe("no pass outlives its base", () => {
  it("2. a pull request into a branch the agent pushed (no config there) gets no neutral while main requires agate; retargeted to main, nothing passing stands before agate looks", async () => {
    const repo = "window-bare";
    const { head, number } = await pullRequestIntoEvil(repo, { ".github/agate.yml": null });
    const check = gate.gateCheck(repo, head);
    expect(check?.status).toBe("in_progress");
    expect(check?.output?.title).toBe("Not gated; not marked passing on `evil`, see why below");
    await gate.sim.retargetPullRequest({ repo, number, base: "main", user: "codex[bot]" });
    // The moment before agate reads the `edited` event: a merge into main needs a pass; none.
    expect(passing(gate.gateCheck(repo, head)?.conclusion)).toBe(false);
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });
  });

  it("2. with the agent's own config there, the real Action's pass is held too: the commit never carries a pass computed for `evil`", async () => {
    const repo = "window-config";
    const own = 'version: 1\ncommands:\n  - name: answer\n    run: "true"\n';
    const { head, number, branch } = await pullRequestIntoEvil(repo, {
      ".github/agate.yml": testConfig(own),
    });
    const run = await gate.ci(repo, branch, head);
    expect(run.status, run.stderr).toBe(0);
    const check = gate.gateCheck(repo, head);
    expect(check?.status).toBe("in_progress");
    expect(check?.output?.title).toMatch(
      /^Accepted on [0-9a-f]{7}; not marked passing on `evil`, see why below$/,
    );
    expect(check?.output?.summary).toContain("### Not marked passing on this base");
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:accepted");
    await gate.sim.retargetPullRequest({ repo, number, base: "main", user: "codex[bot]" });
    expect(passing(gate.gateCheck(repo, head)?.conclusion)).toBe(false);
    await gate.processDeliveries();
    expect(passing(gate.gateCheck(repo, head)?.conclusion)).toBe(false);
  });

  it("2. an acceptance computed on the agent's branch never carries over to a new commit of the same tree proposed to main", async () => {
    const repo = "window-carry";
    // evil: the agent's own workflow, and a config identical to main's (the same digest).
    const { head, number, branch } = await pullRequestIntoEvil(repo, {
      ".github/workflows/agate.yml": EVIL_WORKFLOW,
    });
    await simulatedCi({
      sim: gate.sim,
      repo,
      branch,
      head,
      temp: gate.temp,
      settle: () => gate.processDeliveries(),
      bundle: noopBundle(),
      stepConclusion: "success",
      beforeAgate: forgeBeforeAgate(gate.sim, repo, head, number),
    });
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:accepted");
    await gate.sim.retargetPullRequest({ repo, number, base: "main", user: "codex[bot]" });
    await gate.processDeliveries();
    // The same tree under a new SHA (an amended message), pushed once the pull request targets main.
    const again = await gate.agentPush(repo, branch, {});
    expect(gate.sim.repository({ repo }).git.readCommit(again).tree).toBe(
      gate.sim.repository({ repo }).git.readCommit(head).tree,
    );
    expect(passing(gate.gateCheck(repo, again)?.conclusion)).toBe(false);
  });

  it("honest: a maintainer retargets to another branch that requires agate; the old head is blocked, a new push reaches success there", async () => {
    const repo = "retarget-protected";
    const { head, branch, number } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { requiredChecks: [{ context: "agate", integration_id: gate.sim.appId }] },
    );
    requireAgate(repo, ["release"]);
    await gate.sim.pushCommit({ repo, branch: "release", files: { "r.txt": "r\n" } });
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    // No merge queue on main: the summary says what only a queue closes.
    expect(gate.gateCheck(repo, head)?.output?.summary).toContain(
      "A merge queue on `main` closes that",
    );
    await gate.sim.retargetPullRequest({ repo, number, base: "release", user: "maintainer" });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });
    const next = await gate.agentPush(repo, branch, { "b.txt": "b\n" });
    await gate.ci(repo, branch, next);
    expect(gate.gateCheck(repo, next)).toMatchObject({ conclusion: "success" });
  });

  it("honest: a fork's pull request into main, which requires agate, reaches success (its run lists no pull request)", async () => {
    const repo = "fork-protected";
    await repos.createAnswerRepository(gate.sim, repo, testConfig(ANSWER_CONFIG));
    requireAgate(repo, ["~DEFAULT_BRANCH"], true);
    const head = await repos.outsiderPullRequest(gate, repo, { "answer.txt": "42\n" });
    const run = await gate.ci(repo, "fix", head);
    expect(run.status, run.stderr).toBe(0);
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ conclusion: "success" });
    // A merge queue on main: nothing left to advise.
    expect(check?.output?.summary).not.toContain("A merge queue on");
  });
});

describe("what the evidence workflow runs", () => {
  it("5. a local action reached through a YAML alias is followed: a pull request that rewrites it has its record refused, and an approval does not make it pass", async () => {
    const repo = "alias-action";
    // The step that uses the local action is an alias of an anchor defined above the jobs.
    const workflow = EVIDENCE_WORKFLOW_TEXT.replace(
      "permissions:\n",
      "x-setup: &setup\n  uses: ./.github/actions/setup\npermissions:\n",
    ).replace("      - name: agate\n", "      - *setup\n      - name: agate\n");
    expect(workflow).toContain("      - *setup\n");
    const { head, branch, number } = await repos.pullRequestEditingSetupAction(
      gate,
      repo,
      workflow,
      "42\n",
    );
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)?.output?.summary).toContain(
      "the change modifies `.github/actions/setup/action.yml`, which the evidence workflow is or uses",
    );
    await repos.maintainerApproves(gate, repo, number, head);
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
  });
});

describe("who counts as a maintainer: one test everywhere, by account type and the base config's list", () => {
  it("3. `/agate accept` from an account with write access that is not listed in escalation.maintainers is refused; a listed maintainer's is taken", async () => {
    const repo = "accept-listed";
    const config = `${ANSWER_CONFIG}escalation:\n  maintainers: [lead]\n`;
    const { head, branch, number } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "41\n", ".github/workflows/agate.yml": `${EVIDENCE_WORKFLOW_TEXT}# mine\n` },
      { config },
    );
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    // The agent's machine user: write access, a person's account, not listed.
    gate.sim.setPermission({ repo, user: "agent-machine", permission: "write" });
    await gate.sim.addIssueComment({
      repo,
      number,
      body: `/agate accept ${head} trust me`,
      user: "agent-machine",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    const replies = () =>
      (gate.sim.repository({ repo }).issues.get(number)?.comments ?? [])
        .filter((c) => c.app !== undefined)
        .map((c) => c.body);
    expect(replies().at(-1)).toContain(
      "only a maintainer can accept a commit: agent-machine is not one of escalation.maintainers in the base config (lead)",
    );

    gate.sim.setPermission({ repo, user: "lead", permission: "read" });
    await gate.sim.addIssueComment({
      repo,
      number,
      body: `/agate accept ${head} the workflow change is reviewed`,
      user: "lead",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, head)?.conclusion).toBe("success");
  });

  it("4. an account GitHub types Bot, without `[bot]` in its login, never approves nor accepts, whatever its access", async () => {
    const repo = "bot-typed";
    const { head, number } = await repos.workflowEditPullRequest(gate, repo);
    gate.sim.addUser("agent-machine", "Bot");
    await repos.approvesAs(gate, { repo, number, head }, "agent-machine", "admin");
    await gate.sim.addIssueComment({
      repo,
      number,
      body: `/agate accept ${head} approved by me`,
      user: "agent-machine",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "action_required" });

    await repos.maintainerApproves(gate, repo, number, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  });
});
