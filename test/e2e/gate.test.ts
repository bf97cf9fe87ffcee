import { describe, expect, it } from "vitest";
import { embedRecord } from "../../checks/record-embedding.js";
import { tokenClient } from "../github/index.js";
import { commandRecord, TREE } from "../support/gate-facts.js";
import { ANSWER_CONFIG as CONFIG, useGateHarness } from "../support/gate-harness.js";

/**
 * The gate against the simulator: real git, the real Action bundle publishing its record, real
 * workflow-run data, and the App's gate code reading it all over HTTP with an installation
 * token. Deliveries are handed to the gate job directly; the runtime has its own tests.
 */
const gate = useGateHarness();

describe("the agate gate, end to end against the simulator", () => {
  it("opened → waiting; commands pass → accepted; a push → the old record stale, the new head graded afresh", async () => {
    const repo = "story";
    const { head, number, branch } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, head)?.output?.title).toBe(
      `Waiting on ${head.slice(0, 7)}: waiting for the command record (the agate Action publishes agate/commands)`,
    );
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:pending");

    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({
      status: "completed",
      conclusion: "success",
    });
    expect(gate.sim.labelsOf({ repo, number })).toEqual(expect.arrayContaining(["agate:accepted"]));
    expect(gate.sim.labelsOf({ repo, number })).not.toContain("agate:pending");

    const next = await gate.sim.pushCommit({
      repo,
      branch,
      files: { "answer.txt": "41\n" },
      author: "codex[bot]",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, next)).toMatchObject({ status: "in_progress" });
    const records = await gate.store.listRecords({
      repository: `${gate.sim.owner}/${repo}`,
      pullNumber: number,
    });
    const old = records.filter((r) => r.head_sha === head);
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((r) => r.stale?.superseded_by === next)).toBe(true);
    expect(old.some((r) => r.decision.state === "accepted")).toBe(true);

    await gate.ci(repo, branch, next);
    const rejected = gate.gateCheck(repo, next);
    expect(rejected).toMatchObject({ conclusion: "failure" });
    expect(rejected?.output?.title).toBe(
      `Rejected on ${next.slice(0, 7)}: 1 of 1 required commands failed (answer)`,
    );
    expect(rejected?.output?.summary).toContain("### History");
    // The accepted check on the old head is left as history, never changed by the new head.
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  });

  it("a record that says passed while the runner says the step failed is refused as tampering", async () => {
    const repo = "tamper";
    const { head, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { labels: ["agent"] },
    );
    await gate.ci(repo, branch, head, "failure");
    const check = gate.gateCheck(repo, head);
    expect(check?.status).toBe("in_progress");
    expect(check?.output?.summary).toContain(
      'command record refused: it says passed, the runner says the step "Run agate" failure',
    );
  });

  it("a check run named agate/commands from any app but GitHub Actions is refused", async () => {
    const repo = "forged";
    const { head } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    await gate.sim.createCheckRun({
      repo,
      name: "agate/commands",
      headSha: head,
      app: "agate",
      status: "completed",
      conclusion: "success",
      output: { title: "passed", summary: "trust me", text: "```json\n{}\n```" },
    });
    await gate.processDeliveries();
    await gate.sim.createCheckRun({
      repo,
      name: "agate/commands",
      headSha: head,
      status: "completed",
      conclusion: "success",
      output: { title: "passed", summary: "from a workflow", text: "all commands passed" },
    });
    await gate.processDeliveries();
    const summary = gate.gateCheck(repo, head)?.output?.summary ?? "";
    expect(summary).toContain(
      `command record refused: agate/commands was created by ${gate.sim.appSlug}, not by a GitHub Actions workflow`,
    );
    expect(summary).toContain(
      "command record refused: the check run's text is not an embedded agate command record",
    );
    expect(gate.gateCheck(repo, head)?.status).toBe("in_progress");
  });

  it("a workflow edit escalates until a maintainer approves this exact head", async () => {
    const repo = "protected";
    const { head, number, branch } = await gate.agentPullRequest(repo, {
      "answer.txt": "42\n",
      ".github/workflows/lint.yml": "on: push\n",
    });
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "action_required" });
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:escalated");

    gate.sim.setPermission({ repo, user: "maintainer", permission: "write" });
    await gate.sim.submitReview({
      repo,
      number,
      state: "APPROVED",
      user: "maintainer",
      commitId: head,
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(gate.gateCheck(repo, head)?.output?.summary).toContain(
      `approved by maintainer on ${head.slice(0, 7)}`,
    );
  });

  it("not gated: neutral with one line; removing the agent label later does not ungate", async () => {
    const repo = "selection";
    const { head } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { branch: "feature/human" },
    );
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "neutral" });
    expect(gate.gateCheck(repo, head)?.output?.title).toMatch(
      /^Not gated: author codex\[bot\] is not in gate\.authors/,
    );

    const gated = await gate.sim.pushCommit({
      repo,
      branch: "feature/other",
      files: { "answer.txt": "42\n" },
      author: "codex[bot]",
    });
    const { number } = await gate.sim.openPullRequest({
      repo,
      head: "feature/other",
      title: "Other",
      user: "codex[bot]",
      labels: ["agent"],
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, gated)).toMatchObject({ status: "in_progress" });
    await gate.sim.removeLabel({ repo, number, label: "agent" });
    const later = await gate.sim.pushCommit({
      repo,
      branch: "feature/other",
      files: { "b.txt": "b\n" },
      author: "codex[bot]",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, later)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, later)?.output?.summary).toContain("Waiting");
  });

  it("a malformed config on the base fails the check with the file, line and fix", async () => {
    const repo = "broken";
    const { head } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { config: "version: 1\ncommands:\n  - name: t\n    run: x\n    timeout: 10x\n" },
    );
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ conclusion: "failure" });
    expect(check?.output?.summary).toContain(
      'commands[0].timeout at line 5, column 14: \\"10x\\" is not a duration'.replace(/\\"/g, '"'),
    );
  });

  it("a synchronize that arrives before the opened event: only the live head is graded", async () => {
    const repo = "order";
    await gate.sim.createRepository({
      repo,
      files: { ".github/agate.yml": CONFIG, "answer.txt": "42\n" },
    });
    const first = await gate.sim.pushCommit({
      repo,
      branch: "codex/x",
      files: { "a.txt": "a\n" },
      author: "codex[bot]",
    });
    const { number } = await gate.sim.openPullRequest({
      repo,
      head: "codex/x",
      title: "X",
      user: "codex[bot]",
    });
    const second = await gate.sim.pushCommit({
      repo,
      branch: "codex/x",
      files: { "b.txt": "b\n" },
      author: "codex[bot]",
    });
    const pending = await gate.takePending();
    const opened = pending.find((d) => d.action === "opened");
    const synchronize = pending.find((d) => d.action === "synchronize");
    if (!opened || !synchronize) throw new Error("expected opened and synchronize deliveries");
    for (const d of [synchronize, opened]) await gate.handle(d);
    expect(gate.gateCheck(repo, second)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, first)).toBeUndefined();
    const records = await gate.store.listRecords({
      repository: `${gate.sim.owner}/${repo}`,
      pullNumber: number,
    });
    expect(new Set(records.map((r) => r.head_sha))).toEqual(new Set([second]));
  });

  it("a command record for an old SHA after a newer push never changes the new head's check", async () => {
    const repo = "late";
    const { head: old, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { labels: ["agent"] },
    );
    const current = await gate.sim.pushCommit({
      repo,
      branch,
      files: { "answer.txt": "41\n" },
      author: "codex[bot]",
    });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, current)).toMatchObject({ status: "in_progress" });
    // CI for the old head finishes late, and passes.
    const run = gate.sim.addWorkflowRun({
      repo,
      headSha: old,
      path: ".github/workflows/ci.yml",
      conclusion: null,
      jobs: [{ name: "gate" }],
    });
    const token = gate.sim.createToken({ permissions: { checks: "write" } });
    const record = commandRecord([0], {
      repository: `${gate.sim.owner}/${repo}`,
      tested: { sha: old, tree_sha: TREE, parents: [], clean: true, dirty_digest: null },
      pull_request: { number: 1, head_sha: old, base_sha: old },
      workflow: {
        run_id: run.id,
        run_attempt: 1,
        workflow_ref: "x",
        job: "gate",
        event_name: "pull_request",
      },
    });
    await tokenClient(gate.sim, token).rest.checks.create({
      owner: gate.sim.owner,
      repo,
      name: "agate/commands",
      head_sha: old,
      status: "completed",
      conclusion: "success",
      output: { title: "passed", summary: "late", text: embedRecord(record, 65_535) },
    });
    await gate.sim.completeWorkflowRun({ repo, runId: run.id, conclusion: "success" });
    await gate.processDeliveries();
    expect(gate.gateCheck(repo, current)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, current)?.output?.title).toContain(
      "waiting for the command record",
    );
    // The late evidence is kept as history: its deliveries are what was received.
    expect(
      gate.sim.deliveries.some(
        (d) =>
          d.event === "check_run" && (d.payload.check_run as { head_sha: string }).head_sha === old,
      ),
    ).toBe(true);
  });

  it("an evaluation that errors never leaves an earlier green standing", async () => {
    const repo = "erroring";
    const { head, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { labels: ["agent"] },
    );
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });

    // GitHub failing one call cannot be made to happen in the simulator: break that one call.
    const working = gate.deps();
    const failing = {
      ...working,
      octokitFor: async (id: number) => {
        const real = (await working.octokitFor(id)) as unknown as {
          rest: { git: Record<string, unknown> };
        };
        const git = {
          ...real.rest.git,
          getCommit: async () => {
            throw new Error("GitHub answered 502 Bad Gateway");
          },
        };
        return new Proxy(real, {
          get: (target, key) =>
            key === "rest"
              ? new Proxy(target.rest, {
                  get: (rest, name) => (name === "git" ? git : Reflect.get(rest, name)),
                })
              : Reflect.get(target, key),
        }) as never;
      },
    };
    const last = gate.sim.deliveries
      .filter((d) => d.event === "pull_request" && d.action === "opened")
      .at(-1);
    if (!last) throw new Error("no pull_request delivery");
    await expect(gate.handle(last, failing)).rejects.toThrow("GitHub answered 502 Bad Gateway");
    const held = gate.gateCheck(repo, head);
    expect(held).toMatchObject({ status: "in_progress", conclusion: null });
    expect(held?.output?.title).toBe(
      "agate could not finish evaluating this commit; it will retry",
    );
    expect(held?.output?.summary).toContain("GitHub answered 502 Bad Gateway");

    // The retry, with GitHub answering again, decides afresh.
    await gate.handle(last);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
  });
});
