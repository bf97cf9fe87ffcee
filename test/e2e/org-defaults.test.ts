import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../checks/config/parse-config.js";
import { ANSWER_CONFIG, useGateHarness } from "../support/gate-harness.js";
import { testConfig } from "../support/runner-users.js";

/**
 * Organisation-wide defaults end to end: the organisation's `.github` repository holds the
 * required commands, a repository's config extends them at a pinned commit, the Action (the
 * bundle, in simulated CI) and the App (reading through its installation) both merge them, and
 * they agree on the digest. Defaults that cannot be read block the pull request.
 */
const gate = useGateHarness();

const DEFAULTS_PATH = "agate/defaults.yml";

async function orgDefaults(text: string): Promise<string> {
  await gate.sim.createRepository({ repo: ".github", files: { [DEFAULTS_PATH]: text } });
  const sha = gate.sim.branchSha({ repo: ".github", branch: "main" });
  if (!sha) throw new Error("the simulator made no main branch for .github");
  return sha;
}

describe("extends: organisation defaults through the Action and the App", () => {
  it("the commands come from the organisation's .github; Action and App agree on the digest; accepted", async () => {
    // The defaults carry the commands; the repository's file only pins them and narrows a budget.
    const defaults = testConfig(`${ANSWER_CONFIG}budgets:\n  graded_attempts_per_pr: 7\n`);
    const sha = await orgDefaults(defaults);
    const own = `extends: ${gate.sim.owner}/.github:${DEFAULTS_PATH}@${sha}\nbudgets:\n  graded_attempts_per_pr: 3\n`;
    const repo = "extended";
    const { head, number, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { config: own },
    );
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });

    const run = await gate.ci(repo, branch, head);
    expect(run.status).toBe(0);
    const record = JSON.parse(readFileSync(run.outputs["record-path"] ?? "", "utf8")) as {
      commands: { name: string; exit_code: number }[];
      grader: { config_digest: string };
    };
    expect(record.commands.map((c) => [c.name, c.exit_code])).toEqual([["answer", 0]]);

    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "success" });
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:accepted");

    const expected = parseConfig(own, ".github/agate.yml", {
      owner: gate.sim.owner,
      defaults,
    }).digest;
    expect(record.grader.config_digest).toBe(expected);
    const stored = await gate.store.listRecords({
      repository: `${gate.sim.owner}/${repo}`,
      pullNumber: number,
    });
    const accepted = stored.filter((r) => r.head_sha === head && r.decision.state === "accepted");
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.every((r) => r.grader.config_digest === expected)).toBe(true);
  });

  it("defaults that cannot be read at the pinned commit block the pull request, saying why and what to do", async () => {
    await orgDefaults(ANSWER_CONFIG);
    const missing = "89abcdef0123456789abcdef0123456789abcdef";
    const reference = `${gate.sim.owner}/.github:${DEFAULTS_PATH}@${missing}`;
    const repo = "unreadable";
    const { head, number } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      // The repository's file alone would be a valid config: it must not be used alone.
      { config: `extends: ${reference}\n${ANSWER_CONFIG}` },
    );
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check?.output?.title).toBe(
      `Blocked on ${head.slice(0, 7)}: the base branch's .github/agate.yml is invalid; a maintainer must fix it there`,
    );
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:blocked");
    expect(check?.output?.summary).toContain(
      `extends at line 1, column 10: cannot use the defaults ${reference}: GitHub answered 404 for ${DEFAULTS_PATH} at ${missing} in ${gate.sim.owner}/.github: the file is not at that commit, or the agate App's installation cannot see ${gate.sim.owner}/.github`,
    );
    expect(check?.output?.summary).toContain(`install the App on ${gate.sim.owner}/.github too`);
  });

  it("defaults pinned at a commit off the .github repository's default branch block, and the Action refuses them too", async () => {
    await orgDefaults(ANSWER_CONFIG);
    // A branch of .github (an unmerged pull request's head looks the same to GitHub's API) whose
    // defaults require a command that always passes: served under .github's name, merged by nobody.
    const unmerged = await gate.sim.pushCommit({
      repo: ".github",
      branch: "nothing-required",
      files: { [DEFAULTS_PATH]: "version: 1\ncommands:\n  - { name: answer, run: 'true' }\n" },
    });
    const reference = `${gate.sim.owner}/.github:${DEFAULTS_PATH}@${unmerged}`;
    const repo = "imposter";
    const { head, number, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "41\n" },
      { config: `extends: ${reference}\n` },
    );
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:blocked");
    expect(check?.output?.summary).toContain(
      `extends at line 1, column 10: cannot use the defaults ${reference}: commit ${unmerged} is not on ${gate.sim.owner}/.github's default branch main (GitHub compares it with main as "ahead"`,
    );

    // The Action, reading through its token, refuses the same defaults: no record is made.
    const run = await gate.ci(repo, branch, head);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(`commit ${unmerged} is not on`);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });
  });
});
