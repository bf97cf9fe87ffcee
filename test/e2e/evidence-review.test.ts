import { describe, expect, it } from "vitest";
import * as repos from "../support/evidence-repos.js";
import { ANSWER_CONFIG, EVIDENCE_WORKFLOW_TEXT, useGateHarness } from "../support/gate-harness.js";
import { testConfig } from "../support/runner-users.js";

/**
 * Evidence that only review can vouch for, end to end (issue 10, split from evidence.test.ts so
 * the two halves run in parallel): a change to what the evidence workflow runs, a change too
 * large to list, a head shared with another pull request, and a fork's pull request.
 */
const gate = useGateHarness();
const PASSING = { "answer.txt": "42\n" };

const summaryOf = (repo: string, sha: string) => gate.gateCheck(repo, sha)?.output?.summary ?? "";

describe("evidence that needs review, or comes from elsewhere", () => {
  it("a change to a local action the workflow uses refuses its records; a maintainer's override accepts that exact head; a push voids it", async () => {
    const repo = "local-action";
    const workflow = EVIDENCE_WORKFLOW_TEXT.replace(
      "      - name: agate\n",
      "      - uses: ./.github/actions/setup\n      - name: agate\n",
    );
    const { head, branch, number } = await repos.pullRequestEditingSetupAction(
      gate,
      repo,
      workflow,
      PASSING["answer.txt"],
    );
    await gate.ci(repo, branch, head);
    const summary = summaryOf(repo, head);
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    expect(summary).toContain(
      "the change modifies `.github/actions/setup/action.yml`, which the evidence workflow is or uses",
    );
    expect(summary).toContain(`/agate accept ${head} <why this commit may merge>`);

    gate.sim.setPermission({ repo, user: "lead", permission: "write" });
    gate.sim.setPermission({ repo, user: "reader", permission: "read" });
    await gate.sim.addIssueComment({
      repo,
      number,
      body: `/agate accept ${head} looks fine`,
      user: "reader",
    });
    await gate.sim.addIssueComment({
      repo,
      number,
      body: `/agate accept ${head} the setup change is reviewed @org/security-team`,
      user: "lead",
    });
    await gate.processDeliveries();
    const accepted = gate.gateCheck(repo, head);
    expect(accepted).toMatchObject({ conclusion: "success" });
    expect(accepted?.output?.title).toBe(
      `Accepted on ${head.slice(0, 7)} by lead's override: \`the setup change is reviewed @org/security-team\``,
    );
    const records = await gate.store.listRecords({
      repository: `${gate.sim.owner}/${repo}`,
      pullNumber: number,
      headSha: head,
    });
    expect(records.at(-1)?.override).toMatchObject({
      by: "lead",
      reason: "the setup change is reviewed @org/security-team",
    });
    // The replies name no one: the reason is the maintainer's text, shown as code.
    const replies = (gate.sim.repository({ repo }).issues.get(number)?.comments ?? [])
      .filter((c) => c.app !== undefined)
      .map((c) => c.body);
    expect(replies.some((r) => r.startsWith("agate did not accept `"))).toBe(true);
    expect(replies.at(-1)).toContain("`the setup change is reviewed @org/security-team`");

    const next = await gate.agentPush(repo, branch, { "b.txt": "b\n" });
    await gate.ci(repo, branch, next);
    expect(gate.gateCheck(repo, next)?.conclusion).not.toBe("success");
  });

  it("4. a pull request of 3,001 files is escalated naming the cause, and its records are not believed", async () => {
    const repo = "huge";
    const files: Record<string, string> = { ...PASSING };
    for (let i = 0; i < 3_000; i++) files[`pad/${String(i).padStart(4, "0")}.txt`] = `${i}\n`;
    const { head, branch } = await gate.agentPullRequest(repo, files);
    await gate.ci(repo, branch, head);
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ conclusion: "action_required" });
    expect(check?.output?.summary).toContain(
      "GitHub's file list of a pull request stops at 3000 files and this change has 3001, so agate cannot see every changed file",
    );
    expect(summaryOf(repo, head)).toContain("cannot confirm that the change leaves");
  });

  it("a second pull request from the same head (into a base without agate, or whose workflow the author wrote) never makes the shared check permissive", async () => {
    const repo = "shared-head";
    const { head, branch, number } = await gate.agentPullRequest(repo, PASSING);
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    // An old branch without agate, and a second pull request from the same commit into it.
    await gate.sim.pushCommit({
      repo,
      branch: "stale",
      files: { ".github/agate.yml": null },
      message: "An old branch",
    });
    const second = await gate.sim.openPullRequest({
      repo,
      head: branch,
      base: "stale",
      title: "Same head, other base",
      user: "codex[bot]",
    });
    await gate.processDeliveries();
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check?.output?.title).toMatch(
      new RegExp(
        `^Blocked on ${head.slice(0, 7)}: this commit is also the head of #${number} into \`main\`$`,
      ),
    );
    expect(check?.output?.summary).toContain(
      "GitHub's checks and workflow runs are per commit, so agate cannot tell whose evidence is whose",
    );
    // Closing the second changes nothing: the first cannot tell a run of the second's from its own.
    await gate.sim.setPullRequestState({ repo, number: second.number, state: "closed" });
    await gate.processDeliveries();
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)?.conclusion).toBe("failure");
    expect(gate.gateCheck(repo, head)?.output?.title).toContain(
      `is also the head of #${second.number} into \`stale\``,
    );
    // A new commit is a head of its own: graded again.
    const next = await gate.agentPush(repo, branch, { "b.txt": "b\n" });
    await gate.ci(repo, branch, next);
    expect(gate.gateCheck(repo, next)).toMatchObject({ conclusion: "success" });
  });

  it("a pull request from a fork gets evidence too (the job needs no write token)", async () => {
    const repo = "forked";
    await repos.createAnswerRepository(gate.sim, repo, testConfig(ANSWER_CONFIG));
    const head = await repos.outsiderPullRequest(gate, repo, PASSING);
    const run = await gate.ci(repo, "fix", head);
    expect(run.status, run.stderr).toBe(0);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  });
});
