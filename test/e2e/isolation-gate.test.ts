import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeAsRunner } from "../support/describe-as-runner.js";
import { ANSWER_CONFIG, useGateHarness } from "../support/gate-harness.js";

/**
 * The isolation policy end to end: CI as each kind of runner runs it (test/support/runner-users.ts),
 * the Action's record, and what the App decides from it (evidence.isolation, commands[].privileged).
 */
const gate = useGateHarness();
const PASSING = { "answer.txt": "42\n" };
const ATTACKS = join(import.meta.dirname, "..", "fixtures", "attacks");
const ATTACK_FILES = {
  "attacks/reach.sh": readFileSync(join(ATTACKS, "reach.sh"), "utf8"),
  "attacks/inspector.mjs": readFileSync(join(ATTACKS, "inspector.mjs"), "utf8"),
};
const SHARED_ALLOWED = `${ANSWER_CONFIG}evidence:\n  isolation: shared-allowed\n`;

const summaryOf = (repo: string, sha: string) => gate.gateCheck(repo, sha)?.output?.summary ?? "";

describeAsRunner("hosted", "CI on a hosted runner (a user with passwordless sudo)", (runner) => {
  it("an honest pull request is accepted, and the summary says its commands were isolated", async () => {
    const { head, branch } = await gate.agentPullRequest("honest", PASSING);
    await gate.ci("honest", branch, head, { runAs: runner });
    expect(gate.gateCheck("honest", head)?.conclusion).toBe("success");
    expect(summaryOf("honest", head)).toMatch(
      /Isolated: the commands ran as `agate-[0-9a-f]{10}`, a user of their own without sudo/,
    );
  });

  it("a pull request that opens agate's inspector to forge a pass fails, never succeeds", async () => {
    const config =
      'version: 1\ncommands:\n  - name: answer\n    run: "bash attacks/reach.sh inspector; exit 1"\n';
    const { head, branch } = await gate.agentPullRequest("inspector", ATTACK_FILES, {
      config,
      baseFiles: ATTACK_FILES,
    });
    const run = await gate.ci("inspector", branch, head, { runAs: runner });
    expect(gate.gateCheck("inspector", head)?.conclusion).toBe("failure");
    expect(run.stdout).toContain("inspector: SIGUSR1 refused (EPERM)");
  });

  it("a privileged command's passing record counts only once a maintainer accepts the exact commit", async () => {
    const config = `${ANSWER_CONFIG}  - name: images\n    run: "id -u"\n    privileged: true\n`;
    const { head, branch, number } = await gate.agentPullRequest("privileged", PASSING, { config });
    const run = await gate.ci("privileged", branch, head, { runAs: runner });
    // It ran as the runner's user (with its sudo), the other as the commands user.
    expect(run.stdout).toContain(`${runner.uid}\n`);
    const check = gate.gateCheck("privileged", head);
    expect(check?.conclusion).not.toBe("success");
    const summary = summaryOf("privileged", head);
    expect(summary).toContain(
      "`images` is marked privileged (commands[].privileged) and ran as agate's own user, so the code under test could have written this record itself",
    );
    expect(summary).toContain(`/agate accept ${head} <why this commit may merge>`);

    gate.sim.setPermission({ repo: "privileged", user: "lead", permission: "write" });
    await gate.sim.addIssueComment({
      repo: "privileged",
      number,
      body: `/agate accept ${head} read the change; images only builds the image`,
      user: "lead",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck("privileged", head)?.conclusion).toBe("success");
  });
});

describeAsRunner("plain", "CI on a self-hosted runner without sudo", (runner) => {
  it("by default the Action refuses to run the commands, so nothing is accepted", async () => {
    const { head, branch } = await gate.agentPullRequest("no-sudo", PASSING);
    const run = await gate.ci("no-sudo", branch, head, { runAs: runner });
    expect(run.stdout).toContain("refusing to run the commands");
    expect(gate.gateCheck("no-sudo", head)?.conclusion).not.toBe("success");
  });

  it("with evidence.isolation: shared-allowed the record counts, and the summary says the commands were not isolated", async () => {
    const { head, branch } = await gate.agentPullRequest("shared", PASSING, {
      config: SHARED_ALLOWED,
    });
    await gate.ci("shared", branch, head, { runAs: runner });
    expect(gate.gateCheck("shared", head)?.conclusion).toBe("success");
    expect(summaryOf("shared", head)).toContain(
      `**Not isolated:** the commands ran as agate's own user \`${runner.name}\``,
    );
  });
});
