import { describe, expect, it } from "vitest";
import { agentPull } from "../github/use-simulator.js";
import { maintainerApproves, workflowEditPullRequest } from "../support/evidence-repos.js";
import { ANSWER_CONFIG as CONFIG, useGateHarness } from "../support/gate-harness.js";

/**
 * The gate against the simulator: real git, the real Action bundle publishing its record, real
 * workflow-run data, and the App's gate code reading it all over HTTP with an installation
 * token. Deliveries are handed to the gate job directly; the runtime has its own tests.
 */
const gate = useGateHarness();

/**
 * A repository with the config and a pull request from `codex/x`, its deliveries not yet handed
 * to the gate: a test hands them over itself, in its own order.
 */
async function openedWithoutHandling(repo: string, config = CONFIG) {
  await gate.sim.createRepository({
    repo,
    files: { ".github/agate.yml": config, "answer.txt": "42\n" },
  });
  const { head: first, number } = await agentPull(gate.sim, {
    repo,
    branch: "codex/x",
    title: "X",
  });
  return { first, number };
}

/**
 * Hands `delivery` to the gate while the agent pushes to codex/x the moment agate asks GitHub
 * for the compare; returns the pushed head (undefined if the pass never compared).
 */
async function handleWithPushDuringCompare(
  delivery: Parameters<typeof gate.handle>[0],
  repo: string,
): Promise<string | undefined> {
  let second: string | undefined;
  const deps = gate.deps();
  await gate.handle(delivery, {
    ...deps,
    octokitFor: async (id: number) => {
      const octokit = (await deps.octokitFor(id)) as unknown as {
        hook: { before: (name: string, hook: (o: { url: string }) => Promise<void>) => void };
      };
      octokit.hook.before("request", async (options) => {
        if (second === undefined && /\/compare\//.test(options.url)) {
          second = await gate.sim.pushCommit({
            repo,
            branch: "codex/x",
            files: { "b.txt": "b\n" },
            author: "codex[bot]",
          });
        }
      });
      return octokit as never;
    },
  });
  return second;
}

describe("the agate gate, end to end against the simulator", () => {
  it("opened → waiting; commands pass → accepted; a push → the old record stale, the new head graded afresh", async () => {
    const repo = "story";
    const { head, number, branch } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, head)?.output?.title).toBe(
      `Waiting on ${head.slice(0, 7)}: no command record from .github/workflows/agate.yml for this commit yet`,
    );
    expect(gate.sim.labelsOf({ repo, number }).filter((l) => l.startsWith("agate:"))).toEqual([]);

    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({
      status: "completed",
      conclusion: "success",
    });
    expect(gate.sim.labelsOf({ repo, number }).filter((l) => l.startsWith("agate:"))).toEqual([
      "agate:accepted",
    ]);

    const next = await gate.agentPush(repo, branch, { "answer.txt": "41\n" });
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

  it("a workflow edit escalates until a maintainer approves this exact head", async () => {
    const repo = "protected";
    const { head, number } = await workflowEditPullRequest(gate, repo);
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:escalated");

    await maintainerApproves(gate, repo, number, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(gate.gateCheck(repo, head)?.output?.summary).toContain(
      `approved by maintainer on ${head.slice(0, 7)}`,
    );
  });

  it("5. every pull request is gated by default, whatever the agent names its branch", async () => {
    const repo = "default-gate";
    const { head } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { branch: "feature/x" },
    );
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
  });

  it("gate.all: false: one no rule selects is neutral with one line, and a stray agate label on it is removed; a label gates, and removing it later does not ungate", async () => {
    const repo = "selection";
    const narrow = `version: 1\ngate: { all: false }\ncommands:\n  - name: answer\n    run: test "$(cat answer.txt)" = 42\n`;
    const { head, number: human } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { branch: "feature/human", config: narrow },
    );
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "neutral" });
    expect(gate.gateCheck(repo, head)?.output?.title).toMatch(
      /^Not gated: author codex\[bot\] is not in gate\.authors/,
    );
    // A hand-added agate:accepted on a pull request agate does not gate is a lie: removed.
    await gate.sim.addLabels({
      repo,
      number: human,
      labels: ["agate:accepted", "agate:stalled"],
      user: "octocat",
    });
    await gate.processDeliveries();
    expect(gate.sim.labelsOf({ repo, number: human })).not.toContain("agate:accepted");
    expect(gate.sim.labelsOf({ repo, number: human })).not.toContain("agate:stalled");
    const comments = gate.sim.repository({ repo }).issues.get(human)?.comments ?? [];
    expect(comments.at(-1)?.body).toContain(
      "agate removed `agate:accepted`, `agate:stalled`: agate's labels show the state of its gate, and it does not gate this pull request",
    );

    // Not the human pull request's change: the same files, parent, author and second would be
    // the same commit, whose check is that pull request's too (a shared head is blocked).
    const gated = await gate.sim.pushCommit({
      repo,
      branch: "feature/other",
      files: { "answer.txt": "42\n", "other.txt": "other\n" },
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
    const later = await gate.agentPush(repo, "feature/other", { "b.txt": "b\n" });
    expect(gate.gateCheck(repo, later)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, later)?.output?.summary).toContain("Waiting");
  });

  it("5. a retarget puts the check back in progress first; the head, now seen under two bases, is blocked, never neutral", async () => {
    const repo = "retarget";
    const { head, branch, number } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    await gate.sim.pushCommit({
      repo,
      branch: "bare",
      files: { ".github/agate.yml": null },
      message: "A base without agate",
    });
    await gate.processDeliveries();
    await gate.sim.retargetPullRequest({ repo, number, base: "bare", user: "codex[bot]" });
    const [edited] = (await gate.takePending()).filter((d) => d.action === "edited");
    if (!edited) throw new Error("no pull_request.edited delivery for the retarget");
    // The old base's success must not stand while the new base is read: hold it first.
    const statuses: string[] = [];
    const deps = gate.deps();
    await gate.handle(edited, {
      ...deps,
      octokitFor: async (id: number) => {
        const real = (await deps.octokitFor(id)) as unknown as {
          rest: { checks: { update: (params: { status: string }) => Promise<unknown> } };
        };
        const update = real.rest.checks.update.bind(real.rest.checks);
        real.rest.checks.update = async (params) => {
          statuses.push(params.status);
          return update(params);
        };
        return real as never;
      },
    });
    expect(statuses).toEqual(["in_progress", "completed"]);
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    // The same head under two bases: nothing GitHub keeps per commit can tell them apart.
    expect(check?.output?.title).toMatch(
      new RegExp(
        `^Blocked on ${head.slice(0, 7)}: this commit is also the head of this pull request into \`main\`$`,
      ),
    );
    expect(check?.output?.summary).toContain(
      "GitHub's checks and workflow runs are per commit, so agate cannot tell whose evidence is whose",
    );
  });

  it("reads nothing twice: a new head's check is created without a listing, and a completed run whose job was already read costs no call", async () => {
    const repo = "frugal";
    const { head, branch } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    // agate never saw this head: it cannot have a check of agate's to list.
    expect(gate.sim.calls["checks/list-for-ref"] ?? 0).toBe(0);
    expect(gate.gateCheck(repo, head)).toMatchObject({ status: "in_progress" });
    await gate.ci(repo, branch, head);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    // The evidence pass knew its own check from the ledger of what agate wrote: no listing.
    expect(gate.sim.calls["checks/list-for-ref"] ?? 0).toBe(0);
    const run = gate.sim.deliveries
      .filter((d) => d.event === "workflow_run" && d.action === "completed")
      .at(-1);
    if (!run) throw new Error("no workflow_run.completed delivery");
    const before = { ...gate.sim.calls };
    await gate.handle(run);
    expect(gate.sim.calls).toEqual(before);
    // A re-run is a new attempt: read afresh, not skipped.
    const rerun = structuredClone(run);
    (rerun.payload as { workflow_run: { run_attempt: number } }).workflow_run.run_attempt += 1;
    await gate.handle({ ...rerun, id: `${run.id}-attempt-2` });
    expect(gate.sim.calls["actions/list-workflow-runs-for-repo"]).toBeGreaterThan(
      before["actions/list-workflow-runs-for-repo"] ?? 0,
    );
  });

  it("a check write that may not have been recorded (a crash between GitHub and the ledger) is listed again, not believed", async () => {
    const repo = "inflight";
    const { head, branch } = await gate.agentPullRequest(repo, { "answer.txt": "42\n" });
    const repository = `${gate.sim.owner}/${repo}`;
    expect(await gate.store.knownCheckRun({ repository, headSha: head })).toMatchObject({
      status: "in_progress",
    });
    await gate.store.beginCheckRunWrite({ repository, headSha: head });
    await gate.ci(repo, branch, head);
    expect(gate.sim.calls["checks/list-for-ref"]).toBe(1);
    expect(gate.gateCheck(repo, head)).toMatchObject({ conclusion: "success" });
    expect(await gate.store.knownCheckRun({ repository, headSha: head })).toMatchObject({
      status: "completed",
      conclusion: "success",
      id: gate.gateCheck(repo, head)?.id,
    });
  });

  it("gate.report_only: a failing command is reported as what would be decided; the check is neutral and no state label is set", async () => {
    const repo = "trying-out";
    const { head, number, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "41\n" },
      { config: `${CONFIG}gate:\n  report_only: true\n` },
    );
    await gate.ci(repo, branch, head);
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(check?.output?.title).toMatch(/^Report only: would be rejected on [0-9a-f]{7}: /);
    expect(check?.output?.summary).toContain("**Report only:** this check never blocks a merge");
    expect(gate.sim.labelsOf({ repo, number }).filter((l) => l.startsWith("agate:"))).toEqual([]);
  });

  it("a malformed config on the base blocks the check (the fix is on the base) with the file, line and fix, once", async () => {
    const repo = "broken";
    const { head, number } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { config: "version: 1\ncommands:\n  - name: t\n    run: x\n    timeout: 10x\n" },
    );
    const check = gate.gateCheck(repo, head);
    expect(check).toMatchObject({ conclusion: "failure" });
    expect(check?.output?.title).toBe(
      `Blocked on ${head.slice(0, 7)}: the base branch's .github/agate.yml is invalid; a maintainer must fix it there`,
    );
    expect(gate.sim.labelsOf({ repo, number })).toContain("agate:blocked");
    const problem = 'commands[0].timeout at line 5, column 14: "10x" is not a duration';
    expect(check?.output?.summary).toContain(problem);
    expect(check?.output?.summary?.split(problem)).toHaveLength(2);
  });

  it("a synchronize that arrives before the opened event: only the live head is graded", async () => {
    const repo = "order";
    const { first, number } = await openedWithoutHandling(repo);
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

  it("4. a head that moves while facts are read is not graded on a mix: the evaluation starts over on the new head", async () => {
    const repo = "moving";
    const { first, number } = await openedWithoutHandling(repo);
    const [event] = (await gate.takePending()).filter((d) => d.action === "opened");
    if (!event) throw new Error("no pull_request.opened delivery");
    // An event without the whole pull request in it: the pass reads the pull request after what
    // it reads by SHA (an event's own view is believed as it stands; the next test covers that).
    const opened = structuredClone(event);
    delete (opened.payload as { pull_request: { updated_at?: string } }).pull_request.updated_at;
    // The agent pushes while agate is reading what the pull request changes.
    const second = await handleWithPushDuringCompare(opened, repo);
    expect(second).toBeDefined();
    const records = await gate.store.listRecords({
      repository: `${gate.sim.owner}/${repo}`,
      pullNumber: number,
    });
    expect(records.map((r) => r.head_sha)).toEqual([second]);
    expect(gate.gateCheck(repo, first)).toBeUndefined();
    expect(gate.gateCheck(repo, second ?? "")).toMatchObject({ status: "in_progress" });
  });

  it("4b. an event's own view is the pull request at the event's SHAs: a push while facts are read is graded by its own event, and the earlier record goes stale", async () => {
    const repo = "moving-view";
    const { first, number } = await openedWithoutHandling(repo);
    const [opened] = (await gate.takePending()).filter((d) => d.action === "opened");
    if (!opened) throw new Error("no pull_request.opened delivery");
    const second = await handleWithPushDuringCompare(opened, repo);
    if (second === undefined) throw new Error("the push during the pass did not happen");
    // Every fact of that pass was read at `first`: its record and check name `first` alone.
    const key = { repository: `${gate.sim.owner}/${repo}`, pullNumber: number };
    const [record] = await gate.store.listRecords(key);
    expect(record?.head_sha).toBe(first);
    expect(record?.tested).toBeNull();
    expect(gate.gateCheck(repo, first)).toMatchObject({ status: "in_progress" });
    // The push's own event grades the new head, and nothing of `first` stands.
    await gate.processDeliveries();
    const records = await gate.store.listRecords(key);
    expect(records.at(-1)?.head_sha).toBe(second);
    expect(records.filter((r) => r.head_sha === first && r.stale === null)).toEqual([]);
    expect(gate.gateCheck(repo, second)).toMatchObject({ status: "in_progress" });
  });

  it("a command record for an old SHA after a newer push never changes the new head's check", async () => {
    const repo = "late";
    const { head: old, branch } = await gate.agentPullRequest(
      repo,
      { "answer.txt": "42\n" },
      { labels: ["agent"] },
    );
    const current = await gate.agentPush(repo, branch, { "answer.txt": "41\n" });
    expect(gate.gateCheck(repo, current)).toMatchObject({ status: "in_progress" });
    // CI for the old head finishes late, and passes.
    const late = await gate.ci(repo, branch, old);
    expect(late.status).toBe(0);
    expect(gate.gateCheck(repo, current)).toMatchObject({ status: "in_progress" });
    expect(gate.gateCheck(repo, current)?.output?.title).toContain(
      "no command record from .github/workflows/agate.yml",
    );
    expect(gate.gateCheck(repo, old)?.conclusion).not.toBe("success");
  });

  it("an event's own view of the pull request stands in for a read only while it is the newest acted on: a late copy of an older one reads the pull request again and resurrects nothing", async () => {
    const repo = "late-view";
    const {
      head: old,
      number,
      branch,
    } = await gate.agentPullRequest(repo, {
      "answer.txt": "42\n",
    });
    const opened = gate.sim.deliveries.find(
      (d) =>
        d.event === "pull_request" &&
        d.action === "opened" &&
        (d.payload as { repository: { name: string } }).repository.name === repo,
    );
    if (!opened) throw new Error("no pull_request.opened delivery");
    // The opened pass believed its event: no read of the pull request.
    expect(gate.sim.calls["pulls/get"] ?? 0).toBe(0);
    await gate.ci(repo, branch, old);
    expect(gate.gateCheck(repo, old)).toMatchObject({ conclusion: "success" });
    const current = await gate.agentPush(repo, branch, { "answer.txt": "41\n" });
    expect(gate.sim.labelsOf({ repo, number })).toEqual([]);
    const reads = gate.sim.calls["pulls/get"] ?? 0;

    // The opened event again, delivered late (a new delivery id): it shows the old head.
    await gate.handle({ ...opened, id: `${opened.id}-late` });
    expect(gate.sim.calls["pulls/get"]).toBe(reads + 1);
    expect(gate.sim.labelsOf({ repo, number })).toEqual([]);
    expect(gate.gateCheck(repo, current)).toMatchObject({ status: "in_progress" });
    const records = await gate.store.listRecords({
      repository: `${gate.sim.owner}/${repo}`,
      pullNumber: number,
    });
    expect(records.filter((r) => r.head_sha === old && r.stale === null)).toEqual([]);
    expect(records.at(-1)?.head_sha).toBe(current);
  });

  it("an event's view that a pass's own label write made old reads the pull request again: the opened event after a pass that read first (the reconcile pass's way) writes nothing", async () => {
    const repo = "labelled-first";
    // A config the base cannot use: the pass labels the pull request agate:blocked.
    const { first, number } = await openedWithoutHandling(repo, "version: 1\ncommands: nope\n");
    const [opened] = (await gate.takePending()).filter((d) => d.action === "opened");
    if (!opened) throw new Error("no pull_request.opened delivery");
    // A pass that reads the pull request first (as reconcile's do) runs before the event's own.
    const readFirst = structuredClone(opened);
    delete (readFirst.payload as { pull_request: { updated_at?: string } }).pull_request.updated_at;
    await gate.handle({ ...readFirst, id: `${opened.id}-read-first` });
    expect(gate.sim.labelsOf({ repo, number })).toEqual(["agate:blocked"]);
    expect(gate.gateCheck(repo, first)).toMatchObject({ conclusion: "failure" });
    gate.sim.clearCalls();

    // The event shows the pull request as it was before that pass labelled it.
    await gate.handle(opened);
    expect(gate.sim.calls["pulls/get"]).toBe(1);
    expect(gate.sim.writes.map((w) => w.operationId)).toEqual([]);
    expect(gate.sim.labelsOf({ repo, number })).toEqual(["agate:blocked"]);
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
        const octokit = (await working.octokitFor(id)) as unknown as {
          hook: { before: (name: string, hook: (o: { url: string }) => void) => void };
        };
        octokit.hook.before("request", (options) => {
          if (/\/actions\/runs/.test(options.url)) {
            throw new Error("GitHub answered 502 Bad Gateway");
          }
        });
        return octokit as never;
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
