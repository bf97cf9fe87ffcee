import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  type CommandRecord,
  RECORD_FILE_NAME,
  recordArtifactName,
} from "../../schemas/command-record.js";
import { tokenClient } from "../github/index.js";
import { forgedPassingRecord, uploadFromJob } from "../support/forged-record.js";
import { EVIDENCE_WORKFLOW_TEXT, useGateHarness } from "../support/gate-harness.js";
import { giveTo, runnerUser } from "../support/runner-users.js";
import type { CiJob } from "../support/simulated-ci.js";

/**
 * Each way an agent tried to get an acceptance it did not earn (issue 10), played end to end: the
 * real Action bundle in a job the simulator runs like GitHub (shallow checkout of the test merge
 * commit, the runtime token, artifacts), the App's gate reading GitHub's data over HTTP. Every
 * attack ends not accepted, with the reason in the `agate` check's summary.
 */
const gate = useGateHarness();
const FAILING = { "answer.txt": "41\n" };
const selfHosted = runnerUser("plain");
const PASSING = { "answer.txt": "42\n" };

const summaryOf = (repo: string, sha: string) => gate.gateCheck(repo, sha)?.output?.summary ?? "";

/**
 * A command record as agate would write one that passed, for the job that is running: what code
 * in the job can forge with the runtime token (it has the run id, attempt, SHAs and the config).
 */
const forgedRecord = (repo: string, job: CiJob, head: string, number: number) =>
  forgedPassingRecord({ sim: gate.sim, repo, job, head, number, tested: job.sha });

/**
 * The agent's failing pull request, and CI on its head with a step of the job's own (`lines`, one
 * shell script) before agate's.
 */
async function failingWithStepBefore(repo: string, name: string, lines: string[]) {
  const { head, branch } = await gate.agentPullRequest(repo, FAILING);
  const run = await gate.ci(repo, branch, head, { before: [{ name, run: lines.join("\n") }] });
  return { head, run };
}

describe("evidence the code under test cannot forge", () => {
  it("7. the README's workflow (shallow checkout of the test merge commit) gives a believed record", async () => {
    const repo = "shallow";
    const { head, branch } = await gate.agentPullRequest(repo, PASSING);
    const run = await gate.ci(repo, branch, head);
    expect(run.status, run.stderr).toBe(0);
    // actions/checkout's default: one commit, no parents present locally.
    const depth = execFileSync("git", ["rev-list", "--count", "HEAD"], {
      cwd: run.workspace,
      encoding: "utf8",
    }).trim();
    expect(depth).toBe("1");
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(summaryOf(repo, head)).toContain(`Tested \`${run.sha.slice(0, 7)}\``);
  });

  it("1. a record forged with the runtime token from /proc, uploaded before agate's, is refused: agate's step fails", async () => {
    const repo = "forged-artifact";
    const { head, branch, number } = await gate.agentPullRequest(repo, FAILING);
    const run = await gate.ci(repo, branch, head, {
      beforeAgate: async (job) => {
        await uploadFromJob(gate.sim, repo, job, forgedRecord(repo, job, head, number));
      },
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain("tampered");
    const check = gate.gateCheck(repo, head);
    expect(check?.conclusion).not.toBe("success");
    expect(summaryOf(repo, head)).toContain(
      "the record says every command passed, but the runner says step agate failure: something in the job interfered with agate",
    );
  });

  it("1. an artifact that is not one command record (not JSON, several files) is refused saying what it holds", async () => {
    const repo = "garbage-artifact";
    const { head, branch } = await gate.agentPullRequest(repo, FAILING);
    const upload = (files: Record<string, string>) => async (job: CiJob) => {
      await uploadFromJob(gate.sim, repo, job, files);
    };
    await gate.ci(repo, branch, head, {
      beforeAgate: upload({ [RECORD_FILE_NAME]: "all commands passed @octo-org/team" }),
    });
    expect(summaryOf(repo, head)).toContain(`${RECORD_FILE_NAME} is not JSON: \``);
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    await gate.ci(repo, branch, head, {
      beforeAgate: upload({ [RECORD_FILE_NAME]: "{}", "extra.txt": "x" }),
    });
    expect(summaryOf(repo, head)).toMatch(
      /artifact \d+ holds `[^`]+`, `[^`]+`, not exactly one command-record\.json/,
    );
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
  });

  it("1. a check run named agate/commands from a workflow token is not evidence at all", async () => {
    const repo = "forged-check";
    const { head } = await gate.agentPullRequest(repo, FAILING);
    const token = gate.sim.createToken({ permissions: { checks: "write" } });
    await tokenClient(gate.sim, token).rest.checks.create({
      owner: gate.sim.owner,
      repo,
      name: "agate/commands",
      head_sha: head,
      status: "completed",
      conclusion: "success",
      output: { title: "passed", summary: "trust me", text: "```json\n{}\n```" },
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, head)?.output?.title).toContain(
      "no command record from .github/workflows/agate.yml",
    );
  });

  it("3. a record from another workflow file, or from a push run, is never read", async () => {
    const repo = "other-workflow";
    const { head, branch } = await gate.agentPullRequest(repo, PASSING, {
      baseFiles: { ".github/workflows/other.yml": EVIDENCE_WORKFLOW_TEXT },
    });
    const other = await gate.ci(repo, branch, head, {
      workflow: { path: ".github/workflows/other.yml" },
    });
    expect(other.status).toBe(0);
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    const pushed = await gate.ci(repo, branch, head, { event: "push" });
    expect(pushed.status).toBe(0);
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, head)?.output?.title).toContain(
      "no command record from .github/workflows/agate.yml",
    );
  });

  it("3. the runner's step conclusion must agree with the record, in each direction", async () => {
    const repo = "disagree";
    const { head, branch } = await gate.agentPullRequest(repo, PASSING);
    await gate.ci(repo, branch, head, { stepConclusion: "failure" });
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    expect(summaryOf(repo, head)).toContain(
      "the record says every command passed, but the runner says step agate failure",
    );
    const failing = await gate.sim.pushCommit({
      repo,
      branch,
      files: FAILING,
      author: "codex[bot]",
    });
    await gate.processDeliveries();
    await gate.ci(repo, branch, failing, { stepConclusion: "success" });
    expect(gate.gateCheck(repo, failing)?.conclusion).not.toBe("success");
    expect(summaryOf(repo, failing)).toContain(
      "the record says a command failed, but the runner says step agate succeeded",
    );
  });

  it("3. only the newest attempt counts, and a record uploaded ahead for a later attempt is tampering", async () => {
    const repo = "attempts";
    const { head, branch, number } = await gate.agentPullRequest(repo, PASSING);
    // Attempt 1's step failed for a reason of the runner's; the re-run (attempt 2) passes.
    const first = await gate.ci(repo, branch, head, { stepConclusion: "failure" });
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    await gate.ci(repo, branch, head, { rerun: { runId: first.runId } });
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });

    // A job that uploads a record named for the next attempt poisons that run for good.
    const poisoned = await gate.agentPush(repo, branch, { "b.txt": "b\n" });
    const run = await gate.ci(repo, branch, poisoned, {
      whileRunning: async (job) => {
        await uploadFromJob(
          gate.sim,
          repo,
          job,
          forgedRecord(repo, job, poisoned, number),
          recordArtifactName(job.attempt + 1),
        );
      },
    });
    expect(run.status).toBe(0);
    expect(summaryOf(repo, poisoned)).toContain(
      `named for an attempt it has not had: something in the job uploaded records of its own`,
    );
    await gate.ci(repo, branch, poisoned, { rerun: { runId: run.runId } });
    expect(gate.gateCheck(repo, poisoned)?.conclusion).not.toBe("success");
    expect(summaryOf(repo, poisoned)).toContain(
      `has 2 artifacts named ${recordArtifactName(2)}: something besides agate's step uploaded a record in attempt 2, so neither is believed`,
    );
  });

  it("3. a command that rewrites agate's own code on the runner (the lazily loaded artifact client) changes nothing: it was loaded before", async () => {
    const repo = "rewrite-agate";
    // Where the commands run as a user of their own they cannot write agate's directory at all
    // (test/e2e/isolation.test.ts); this is the runner where they share agate's user (one without
    // sudo, shared-allowed), and the action as the runner keeps it: a directory that user owns.
    const runner = typeof selfHosted === "string" ? undefined : selfHosted;
    const dir = mkdtempSync(join(tmpdir(), "agate-rewrite-"));
    const action = join(dir, "action");
    cpSync(resolve(import.meta.dirname, "..", "..", "dist", "action"), action, { recursive: true });
    if (runner) giveTo(runner, dir);
    const marker = join(dir, `${repo}-forged`);
    const tamper = [
      "set -e",
      // agate's process is this shell's parent; its command line names the bundle.
      "bundle=$(tr '\\0' '\\n' < /proc/$PPID/cmdline | grep index.js)",
      'for chunk in "$(dirname "$bundle")"/chunks/artifact-*.js; do',
      `  printf 'export class DefaultArtifactClient { async uploadArtifact() { require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran"); process.exit(0); } }\n' > "$chunk"`,
      "done",
      "",
    ].join("\n");
    const config = `version: 1\ncommands:\n  - name: tamper\n    run: bash tamper.sh\n  - name: answer\n    run: test "$(cat answer.txt)" = 42\nevidence:\n  isolation: shared-allowed\n`;
    const { head, branch } = await gate.agentPullRequest(
      repo,
      { ...FAILING, "tamper.sh": tamper },
      { config },
    );
    const run = await gate.ci(repo, branch, head, {
      bundle: join(action, "index.js"),
      ...(runner ? { runAs: runner } : {}),
    });
    rmSync(dir, { recursive: true, force: true });
    expect(existsSync(marker)).toBe(false);
    expect(run.status).not.toBe(0);
    const [artifact] = gate.sim.artifacts({ repo, runId: run.runId });
    const file = unzipSync(artifact?.zip ?? new Uint8Array())[RECORD_FILE_NAME];
    const record = JSON.parse(Buffer.from(file ?? []).toString("utf8")) as CommandRecord;
    expect(record.commands.map((c) => [c.name, c.exit_code])).toEqual([
      ["tamper", 0],
      ["answer", 1],
    ]);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });
  });

  it("6. a BASH_ENV or a fake bash written into the job's environment by an earlier step changes nothing", async () => {
    const repo = "poisoned-env";
    const { head, run } = await failingWithStepBefore(repo, "poison", [
      'printf "exit 0\\n" > "$RUNNER_TEMP/always-pass.sh"',
      'echo "BASH_ENV=$RUNNER_TEMP/always-pass.sh" >> "$GITHUB_ENV"',
      'mkdir -p "$RUNNER_TEMP/fake" && printf "#!/bin/sh\\nexit 0\\n" > "$RUNNER_TEMP/fake/bash"',
      'chmod +x "$RUNNER_TEMP/fake/bash" && echo "$RUNNER_TEMP/fake" >> "$GITHUB_PATH"',
    ]);
    expect(run.before.poison?.status).toBe(0);
    expect(run.status).not.toBe(0);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "failure" });
    expect(gate.gateCheck(repo, head)?.output?.title).toBe(
      `Rejected on ${head.slice(0, 7)}: 1 of 1 required commands failed (answer)`,
    );
  });

  it("8. a fake merge commit made in the job (the test rewritten, parents [base, head]) is not GitHub's", async () => {
    const repo = "fake-merge";
    const { head, run } = await failingWithStepBefore(repo, "forge a merge", [
      "set -e",
      // The parents must be present to commit on them: deepen the shallow clone.
      'git fetch --quiet --depth=2 origin "+$GITHUB_REF:refs/remotes/forged"',
      "echo 42 > answer.txt && git add answer.txt",
      "parents=$(git cat-file -p HEAD | awk '/^parent/ {printf \"-p %s \", $2}')",
      "fake=$(git -c user.name=x -c user.email=x@x commit-tree $(git write-tree) $parents -m merge)",
      "git update-ref HEAD $fake",
    ]);
    expect(run.before["forge a merge"]?.status, run.before["forge a merge"]?.stderr).toBe(0);
    expect(run.status, run.stderr).toBe(0);
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    expect(summaryOf(repo, head)).toMatch(
      /it tested [0-9a-f]{7}, which is neither the head [0-9a-f]{7} nor a test merge commit GitHub made for it/,
    );
  });

  it("9. a work tree an earlier step edited without committing is refused", async () => {
    const repo = "dirty";
    const { head, branch } = await gate.agentPullRequest(repo, FAILING);
    const run = await gate.ci(repo, branch, head, {
      before: [{ name: "edit", run: "echo 42 > answer.txt" }],
    });
    expect(run.status, run.stderr).toBe(0);
    expect(gate.gateCheck(repo, head)?.conclusion).not.toBe("success");
    expect(summaryOf(repo, head)).toContain(
      "before the first command (`answer.txt`): an earlier step changed what was tested",
    );
  });
});
