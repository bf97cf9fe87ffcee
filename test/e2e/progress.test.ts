import { describe, expect, it } from "vitest";
import { DASHBOARD_MARKER } from "../../checks/dashboard/render.js";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { useGateHarness } from "../support/gate-harness.js";

/**
 * Progress per pull request, end to end against the simulator: an agent that keeps pushing
 * without changing its failure is stalled, an unchanged tree is not graded again, a fix leaves
 * stalled, and past the attempts budget a new head is capped. The failing command prints the
 * same words whatever the answer, so a wrong answer is the same failure every time.
 */
// The dashboard's refresh is worked too: a stored stalled or capped decision queues one.
const gate = useGateHarness({ alsoWork: [DASHBOARD_JOBS.refresh.kind] });

const CONFIG = [
  "version: 1",
  "commands:",
  "  - name: answer",
  '    run: test "$(cat answer.txt)" = 42 || { echo "wrong answer"; exit 1; }',
  "budgets:",
  "  graded_attempts_per_pr: 4",
  "  unchanged_failures_before_stalled: 2",
  "",
].join("\n");

/** A section of the App's own dashboard issue in the repository (one, opened by its bot). */
function parked(repo: string, heading: string): string {
  const issues = [...gate.sim.repository({ repo }).issues.values()].filter(
    (i) => i.user.login === `${gate.sim.appSlug}[bot]` && (i.body ?? "").includes(DASHBOARD_MARKER),
  );
  expect(issues).toHaveLength(1);
  const body = issues[0]?.body ?? "";
  const start = body.indexOf(`### ${heading}`);
  if (start === -1) return "";
  const end = body.indexOf("###", start + 4);
  return body.slice(start, end === -1 ? undefined : end);
}

describe("progress per pull request", { timeout: 120_000 }, () => {
  it("same failure twice → stalled; a revert to a failed tree replays its failure at once; a fix leaves stalled; past the budget a new head is capped", async () => {
    const repo = "stuck";
    const {
      head: first,
      number,
      branch,
    } = await gate.agentPullRequest(repo, { "answer.txt": "41\n" }, { config: CONFIG });
    await gate.ci(repo, branch, first);
    expect(gate.gateCheck(repo, first)).toMatchObject({ conclusion: "failure" });
    expect(gate.sim.labelsOf({ repo, number })).toEqual(["agate:rejected"]);

    // Busy, not progress: another file changes, the failure does not.
    const second = await gate.agentPush(repo, branch, { "notes.txt": "tried harder\n" });
    await gate.ci(repo, branch, second);
    const stalled = gate.gateCheck(repo, second);
    expect(stalled).toMatchObject({ conclusion: "failure" });
    expect(stalled?.output?.title).toContain("Stalled on");
    expect(stalled?.output?.title).toContain("2 failed attempts in a row without progress");
    expect(stalled?.output?.summary).toContain("### No progress");
    expect(stalled?.output?.summary).toContain("The repeated failure: answer.");
    expect(gate.sim.labelsOf({ repo, number })).toEqual(["agate:stalled"]);
    // The stored decision queued the triage dashboard's refresh: the App opened it, parked there.
    expect(parked(repo, "Stalled pull requests")).toContain(`- #${number} `);

    // Edit → revert: the tree is the first one again. Its failure is shown at once, no CI.
    const runs = gate.sim.calls["actions/list-workflow-runs-for-repo"] ?? 0;
    const reverted = await gate.agentPush(repo, branch, { "notes.txt": null });
    const replay = gate.gateCheck(repo, reverted);
    expect(replay).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(replay?.output?.summary).toContain(
      `work tree unchanged since the failure at ${first.slice(0, 7)}`,
    );
    expect(replay?.output?.summary).toContain("### Work tree unchanged since the failure");
    expect(replay?.output?.summary).toContain("wrong answer");
    expect(replay?.output?.title).toContain("Stalled on");
    expect(gate.sim.calls["actions/list-workflow-runs-for-repo"] ?? 0).toBe(runs);
    // A run of the same tree does not re-roll it.
    await gate.ci(repo, branch, reverted);
    expect(gate.gateCheck(repo, reverted)?.output?.summary).toContain(
      `work tree unchanged since the failure at ${first.slice(0, 7)}`,
    );

    // A fix changes the failure (there is none): accepted, and stalled is gone.
    const fixed = await gate.agentPush(repo, branch, { "answer.txt": "42\n" });
    await gate.ci(repo, branch, fixed);
    expect(gate.gateCheck(repo, fixed)).toMatchObject({ conclusion: "success" });
    expect(gate.sim.labelsOf({ repo, number })).toEqual(["agate:accepted"]);
    expect(parked(repo, "Stalled pull requests")).not.toContain(`#${number} `);
    expect(gate.gateCheck(repo, fixed)?.output?.summary).toContain("Graded attempts: 4 of 4");

    // Four graded heads (two failures, the replay, the fix) spent the budget: the next is capped
    // on its push, before any run.
    const more = await gate.agentPush(repo, branch, { "extra.txt": "more\n" });
    const capped = gate.gateCheck(repo, more);
    expect(capped).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(capped?.output?.title).toContain(
      "4 graded attempts used, all of budgets.graded_attempts_per_pr (4)",
    );
    expect(gate.sim.labelsOf({ repo, number })).toEqual(["agate:capped"]);
    expect(parked(repo, "Capped pull requests")).toContain(`- #${number} `);
    // A passing run does not lift the cap.
    await gate.ci(repo, branch, more);
    expect(gate.gateCheck(repo, more)).toMatchObject({ conclusion: "failure" });
    expect(gate.gateCheck(repo, more)?.output?.title).toContain("Capped on");

    // Closed, it needs nobody: it leaves the dashboard.
    await gate.sim.setPullRequestState({ repo, number, state: "closed" });
    await gate.processDeliveries();
    expect(parked(repo, "Capped pull requests")).not.toContain(`#${number} `);
  });
});
