import { describe, expect, it } from "vitest";
import {
  commandRecord,
  commandsCheckRun,
  HEAD,
  loadedConfig,
  workflowRun,
} from "../../test/support/gate-facts.js";
import { verifyProvenance } from "./provenance.js";

const digest = loadedConfig().digest;
const verify = (overrides: Partial<Parameters<typeof verifyProvenance>[0]> = {}) =>
  verifyProvenance({
    checkRun: commandsCheckRun(commandRecord()),
    run: workflowRun(),
    headSha: HEAD,
    changedFiles: [{ filename: "src/a.ts", previous_filename: null, status: "modified" }],
    configDigest: digest,
    ...overrides,
  });

describe("verifyProvenance: a record counts only when GitHub's own data confirms it", () => {
  it("believes a record from an unmodified workflow whose step agrees", () => {
    expect(verify()).toMatchObject({ status: "verified" });
    const failed = commandRecord([0, 1]);
    expect(
      verify({ checkRun: commandsCheckRun(failed), run: workflowRun("failure") }),
    ).toMatchObject({ status: "verified" });
  });

  it.each([
    [
      "another app's check run",
      { checkRun: commandsCheckRun(commandRecord(), { app_slug: "evil-app" }) },
      "agate/commands was created by evil-app, not by a GitHub Actions workflow",
    ],
    [
      "text that is not a record",
      { checkRun: commandsCheckRun(null, { text: "all good, trust me" }) },
      "the check run's text is not an embedded agate command record",
    ],
    [
      "a local record",
      { checkRun: commandsCheckRun(commandRecord([0, 0], { workflow: null })) },
      "it was made outside GitHub Actions (agate run), so GitHub cannot confirm it",
    ],
    [
      "another config",
      { configDigest: "f".repeat(64) },
      `it was made under config digest ${digest.slice(0, 12)}, the base config's is ffffffffffff`,
    ],
    ["another head", { headSha: "9".repeat(40) }, "it is for 1111111, not for the head 9999999"],
    ["a run that does not exist", { run: null }, "workflow run 99 does not exist"],
    [
      "a run for another commit",
      { run: workflowRun("success", { head_sha: "8".repeat(40) }) },
      "workflow run 99 ran for 8888888, not for the head 1111111",
    ],
    [
      "a workflow the pull request modifies",
      {
        changedFiles: [
          { filename: ".github/workflows/ci.yml", previous_filename: null, status: "modified" },
        ],
      },
      "the pull request modifies .github/workflows/ci.yml, the workflow that made it",
    ],
    [
      "an older attempt",
      { run: workflowRun("success", { run_attempt: 2 }) },
      "it was made by attempt 1 of workflow run 99, which is now at attempt 2",
    ],
    [
      "a job that is not in the run",
      { run: workflowRun("success", { jobs: [] }) },
      "workflow run 99 has no job gate",
    ],
    [
      "passed while the runner saw the step fail",
      { run: workflowRun("failure") },
      'it says passed, the runner says the step "Run OWNER/agate@v1" failure',
    ],
    [
      "published outside any step",
      { checkRun: commandsCheckRun(commandRecord(), { completed_at: "2026-12-02T11:00:00Z" }) },
      "no step of job gate was running when the record was published",
    ],
  ])("refuses %s", (_what, overrides, reason) => {
    expect(verify(overrides)).toMatchObject({ status: "refused", reason });
  });

  it("a tested commit that is neither the head nor a merge of it is refused", () => {
    const record = commandRecord([0, 0], {
      tested: {
        sha: "7".repeat(40),
        tree_sha: "4".repeat(40),
        parents: ["2".repeat(40)],
        clean: true,
        dirty_digest: null,
      },
    });
    expect(verify({ checkRun: commandsCheckRun(record) })).toMatchObject({
      status: "refused",
      reason: "it tested 7777777, which is neither the head nor a merge of it",
    });
  });

  it("waits while the job runs, since the runner has not given its word", () => {
    const running = workflowRun("success");
    const job = running.jobs[0];
    if (!job) throw new Error("fixture has a job");
    running.status = "in_progress";
    job.status = "in_progress";
    expect(verify({ run: running })).toMatchObject({
      status: "waiting",
      reason:
        "job gate of workflow run 99 is still running, so the runner has not given its conclusion",
    });
  });

  it("finds a matrix job by its display name, and tolerates GitHub's whole-second stamps", () => {
    const run = workflowRun();
    const job = run.jobs[0];
    if (!job) throw new Error("fixture has a job");
    job.name = "gate (24)";
    const checkRun = commandsCheckRun(commandRecord(), {
      completed_at: "2026-12-02T10:00:04.600Z",
    });
    expect(verify({ run, checkRun })).toMatchObject({ status: "verified" });
  });
});
