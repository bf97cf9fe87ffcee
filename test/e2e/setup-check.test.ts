/**
 * The App's own set-up check (issue 16): whether the base branch requires `agate` from this App,
 * read from the simulator's rulesets and branch protection through the adapter, shown in the
 * summary when it is a problem, and never part of the decision.
 */
import { describe, expect, it } from "vitest";
import { useGateHarness } from "../support/gate-harness.js";

const gate = useGateHarness();
const HEADING = "### This check may not block merging";

describe("the base branch's requirement of agate, in the summary", { timeout: 120_000 }, () => {
  it("not required at all: the accepted summary says merging is not blocked and how to fix it; a second pull request reuses the reading", async () => {
    const repo = "unrequired";
    const { head, branch } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    await gate.ci(repo, branch, head);
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ conclusion: "success" });
    const summary = check?.output?.summary ?? "";
    expect(summary).toContain(HEADING);
    expect(summary).toContain(
      "no ruleset or branch protection requires agate on `main`: pull requests can merge whatever agate decides.",
    );
    expect(summary).toContain(
      `To fix: in a ruleset on \`main\` (Settings → Rules → Rulesets), require the status check agate with ${gate.sim.appSlug} as its source.`,
    );
    expect(summary).toContain(`doctor --repo ${gate.sim.owner}/${repo}\``);
    expect(gate.sim.calls["repos/get-branch-rules"]).toBe(1);
    expect(gate.sim.calls["repos/get-branch"]).toBe(1);

    // Another pull request into the same branch within ten minutes: no second reading.
    const second = await gate.sim.pushCommit({
      repo,
      branch: "codex/other",
      files: { "answer.txt": "42\n" },
    });
    await gate.sim.openPullRequest({
      repo,
      head: "codex/other",
      title: "Again",
      user: "codex[bot]",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, second)?.output?.summary).toContain(HEADING);
    expect(gate.sim.calls["repos/get-branch-rules"]).toBe(1);
  });

  it("required from this App: no section; from any source or another App: a problem naming the ruleset", async () => {
    const pinned = await gate.agentPullRequest(
      "pinned",
      { "answer.txt": "42\n" },
      { requiredChecks: [{ context: "agate", integration_id: gate.sim.appId }] },
    );
    expect(gate.gateCheck("pinned", pinned.head)?.output?.summary).not.toContain(HEADING);

    const open = await gate.agentPullRequest(
      "open",
      { "answer.txt": "42\n" },
      { requiredChecks: [{ context: "agate" }] },
    );
    const summary = gate.gateCheck("open", open.head)?.output?.summary ?? "";
    expect(summary).toContain(HEADING);
    expect(summary).toMatch(
      /ruleset \d+ of [^ ]+\/open requires agate on `main` from any source: a check run of that name from anyone/,
    );
    expect(summary).toContain(`To fix: pick ${gate.sim.appSlug} as the check's source there.`);

    const other = await gate.agentPullRequest(
      "other-app",
      { "answer.txt": "42\n" },
      { requiredChecks: [{ context: "agate", integration_id: 15368 }] },
    );
    expect(gate.gateCheck("other-app", other.head)?.output?.summary).toContain(
      `from app id 15368, not from ${gate.sim.appSlug} (app id ${gate.sim.appId}): agate's own check never satisfies it`,
    );
  });

  it("never changes the decision: the same head is waiting, then rejected, with or without the requirement", async () => {
    const bare = await gate.agentPullRequest("bare", { "answer.txt": "41\n" });
    const required = await gate.agentPullRequest(
      "required",
      { "answer.txt": "41\n" },
      { requiredChecks: [{ context: "agate", integration_id: gate.sim.appId }] },
    );
    const title = (repo: string, sha: string) =>
      (gate.gateCheck(repo, sha)?.output?.title ?? "").replace(sha.slice(0, 7), "<sha>");
    expect(title("bare", bare.head)).toBe(title("required", required.head));
    await gate.ci("bare", bare.branch, bare.head);
    await gate.ci("required", required.branch, required.head);
    expect(gate.gateCheck("bare", bare.head)).toMatchObject({ conclusion: "failure" });
    expect(gate.gateCheck("required", required.head)).toMatchObject({ conclusion: "failure" });
    expect(title("bare", bare.head)).toBe(title("required", required.head));
  });
});
