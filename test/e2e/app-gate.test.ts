import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agate } from "../../app/runtime/server.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { type GitHubSimulator, installationClient, startGitHubSimulator } from "../github/index.js";
import { agentPull } from "../github/use-simulator.js";
import { EVIDENCE_WORKFLOW_TEXT } from "../support/evidence-workflow.js";
import { recordingLog } from "../support/recording-log.js";
import { testConfig } from "../support/runner-users.js";
import { settle as settleApp } from "../support/settle.js";
import { simulatedCi } from "../support/simulated-ci.js";
import { startSimulatorApp } from "../support/simulator-env.js";

/**
 * The whole App as it runs in production, over HTTP: the simulator signs and sends webhooks to
 * Probot's middleware, the intake stores them with their jobs, the workers run the gate, which
 * reads GitHub with an installation token and writes the `agate` check.
 */
let sim: GitHubSimulator;
let agate: Agate;
const temp = mkdtempSync(join(tmpdir(), "agate-app-"));

beforeAll(async () => {
  sim = await startGitHubSimulator({ webhookSecret: "app-gate-secret" });
  agate = await startSimulatorApp(
    sim,
    { WEBHOOK_SECRET: "app-gate-secret", AGATE_DATABASE_URL: `file:${join(temp, "agate.db")}` },
    { log: recordingLog() },
  );
  sim.setWebhookUrl(`${agate.url}/api/github/webhooks`);
});
afterAll(async () => {
  await agate?.close();
  await sim?.close();
  rmSync(temp, { recursive: true, force: true });
});

const settle = () => settleApp(sim, agate);

const gateCheck = (repo: string, sha: string) =>
  sim
    .checkRuns({ repo })
    .filter((c) => c.name === "agate" && c.headSha === sha && c.app.slug === sim.appSlug)
    .at(-1);

const CONFIG =
  'version: 1\ncommands:\n  - name: answer\n    run: test "$(cat answer.txt)" = 42\n  - name: lint\n    run: "! grep -rn TODO ."\n';

describe("the App, end to end over HTTP", () => {
  it("waits, accepts on verified evidence, marks it stale on push, and never reads the head's config", async () => {
    const repo = "widgets";
    await sim.createRepository({
      repo,
      files: {
        ".github/agate.yml": testConfig(CONFIG),
        "answer.txt": "0\n",
        ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT,
      },
    });
    // The agent also edits the config to drop a command: the App reads the base's, not this.
    const { head, number } = await agentPull(sim, {
      repo,
      branch: "codex/answer",
      files: {
        "answer.txt": "42\n",
        ".github/agate.yml": testConfig(
          'version: 1\ncommands:\n  - name: answer\n    run: "true"\n',
        ),
      },
      title: "Answer",
    });
    await settle();
    // A protected path changed: escalated at once, before any evidence, so a human hears early.
    expect(gateCheck(repo, head)).toMatchObject({
      status: "completed",
      conclusion: "action_required",
    });
    expect(sim.labelsOf({ repo, number })).toContain("agate:escalated");

    await simulatedCi({ sim, repo, branch: "codex/answer", head, temp, settle });
    const check = gateCheck(repo, head);
    // The config changed on the head, a protected path: escalated, and the base's two commands ran.
    expect(check).toMatchObject({ status: "completed", conclusion: "action_required" });
    expect(check?.output?.summary).toContain("| answer | ✅ passed |");
    expect(check?.output?.summary).toContain("| lint | ✅ passed |");
    expect(check?.output?.summary).toContain(
      "changes `.github/agate.yml`: needs a maintainer's approving review of this commit",
    );

    sim.setPermission({ repo, user: "lead", permission: "maintain" });
    await sim.submitReview({ repo, number, state: "APPROVED", user: "lead", commitId: head });
    await settle();
    expect(gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(sim.labelsOf({ repo, number })).toContain("agate:accepted");

    const next = await sim.pushCommit({
      repo,
      branch: "codex/answer",
      files: { "notes.txt": "n\n" },
      author: "codex[bot]",
    });
    await settle();
    // The approval was for the old head: the config change needs approving again on this one.
    expect(gateCheck(repo, next)).toMatchObject({ conclusion: "action_required" });
    expect(gateCheck(repo, next)?.output?.summary).toContain(
      `(lead's approval is for ${head.slice(0, 7)}, an older commit)`,
    );
    expect(sim.labelsOf({ repo, number })).toContain("agate:escalated");
    expect(sim.labelsOf({ repo, number })).not.toContain("agate:accepted");
    const records = await agate.store.listRecords({
      repository: `${sim.owner}/${repo}`,
      pullNumber: number,
    });
    expect(
      records.filter((r) => r.head_sha === head).every((r) => r.stale?.superseded_by === next),
    ).toBe(true);
    const accepted = records.find((r) => r.head_sha === head && r.decision.state === "accepted");
    expect(accepted?.commands.map((c) => c.name)).toEqual(["answer", "lint"]);
    expect(accepted?.provenance).toMatchObject({ verified: true, refused_reason: null });
    const audit = await agate.store.listAudit({
      subject: `${sim.owner}/${repo}#${number}@${head}`,
      kind: "gate.decision",
    });
    expect(audit.length).toBeGreaterThan(0);
  }, 90_000); // CI through the built Action, its commands user made and removed: seconds alone, far more on a loaded runner

  it("a webhook dropped on the way is repaired by the reconcile pass; a hand-edited label is put back with a comment", async () => {
    const repo = "dropped";
    await sim.createRepository({
      repo,
      files: { ".github/agate.yml": testConfig(CONFIG), "answer.txt": "42\n" },
    });
    const { number } = await agentPull(sim, { repo, branch: "codex/task" });
    await settle();

    sim.setWebhookUrl(undefined);
    const lost = await sim.pushCommit({
      repo,
      branch: "codex/task",
      files: { "b.txt": "b\n" },
      author: "codex[bot]",
    });
    sim.setWebhookUrl(`${agate.url}/api/github/webhooks`);
    expect(gateCheck(repo, lost)).toBeUndefined();

    await agate.store.enqueue({ kind: GATE_JOBS.reconcile.kind, payload: null });
    agate.workers.poke();
    await settle();
    expect(gateCheck(repo, lost)).toMatchObject({ status: "in_progress" });
    // Waiting for evidence: no state label.
    expect(sim.labelsOf({ repo, number }).filter((l) => l.startsWith("agate:"))).toEqual([]);

    await sim.addLabels({ repo, number, labels: ["agate:accepted"], user: "octocat" });
    await settle();
    expect(sim.labelsOf({ repo, number }).filter((l) => l.startsWith("agate:"))).toEqual([]);
    const comments = await installationClient(sim).rest.issues.listComments({
      owner: sim.owner,
      repo,
      issue_number: number,
    });
    expect(comments.data.map((c) => c.body)).toEqual([
      expect.stringMatching(
        /^agate's labels show the state of its gate, so `agate:accepted` is gone \(a pull request waiting for evidence carries no state label\): `Waiting on/,
      ),
    ]);
  });
});
