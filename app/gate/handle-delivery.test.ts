import { describe, expect, it } from "vitest";
import { evidenceEventMatters } from "../../schemas/jobs.js";
import { loadedConfig } from "../../test/support/gate-facts.js";
import { gateTargetsOf } from "./handle-delivery.js";

const numbers = (event: string, payload: object) => gateTargetsOf(event, payload, "agate").numbers;

describe("gateTargetsOf: which pull requests a delivery may change the gate of", () => {
  it("reads the number from pull request and review events, and ignores closed ones", () => {
    expect(numbers("pull_request", { action: "synchronize", pull_request: { number: 4 } })).toEqual(
      [4],
    );
    expect(numbers("pull_request", { action: "closed", pull_request: { number: 4 } })).toEqual([]);
    expect(
      numbers("pull_request_review", { action: "submitted", pull_request: { number: 5 } }),
    ).toEqual([5]);
  });

  it("ignores agate's own state labels changing, but not a person's edit of them", () => {
    const labeled = (login: string, name: string) => ({
      action: "labeled",
      pull_request: { number: 3 },
      label: { name },
      sender: { login },
    });
    expect(numbers("pull_request", labeled("agate[bot]", "agate:accepted"))).toEqual([]);
    expect(numbers("pull_request", labeled("octocat", "agate:accepted"))).toEqual([3]);
    expect(numbers("pull_request", labeled("agate[bot]", "agent"))).toEqual([3]);
  });

  it("marks a retarget, so the head's check goes back in progress first", () => {
    const edited = {
      action: "edited",
      pull_request: {
        number: 3,
        head: { sha: "1".repeat(40) },
        base: { ref: "dev", sha: "2".repeat(40) },
      },
      changes: { base: { ref: { from: "main" }, sha: { from: "3".repeat(40) } } },
    };
    expect(gateTargetsOf("pull_request", edited, "agate").retarget).toEqual({
      from: "main",
      to: "dev",
    });
    const retitled = { ...edited, changes: {} };
    expect(gateTargetsOf("pull_request", retitled, "agate").retarget).toBeNull();
  });

  it("follows a completed workflow run or job to its head, evaluated only when the base config makes it evidence", () => {
    const run = gateTargetsOf(
      "workflow_run",
      {
        action: "completed",
        workflow_run: {
          head_sha: "1".repeat(40),
          path: ".github/workflows/agate.yml",
          pull_requests: [{ number: 1 }],
        },
      },
      "agate",
    );
    expect([run.numbers, run.headSha]).toEqual([[1], "1".repeat(40)]);
    const config = loadedConfig().config;
    expect(run.relevant && evidenceEventMatters(run.relevant)(config)).toBe(true);
    const job = gateTargetsOf(
      "workflow_job",
      { action: "completed", workflow_job: { head_sha: "1".repeat(40), name: "build" } },
      "agate",
    );
    expect([job.numbers, job.headSha]).toEqual([[], "1".repeat(40)]);
    expect(job.relevant && evidenceEventMatters(job.relevant)(config)).toBe(false);
    expect(
      gateTargetsOf(
        "workflow_job",
        { action: "in_progress", workflow_job: { head_sha: "1" } },
        "agate",
      ).headSha,
    ).toBeNull();
  });

  it("a check run counts only when it is our own agate check and a person asked for a re-run", () => {
    const own = (action: string, slug = "agate", name = "agate") => ({
      action,
      check_run: { name, head_sha: "1".repeat(40), app: { slug }, pull_requests: [{ number: 9 }] },
    });
    expect(numbers("check_run", own("completed"))).toEqual([]);
    expect(numbers("check_run", own("created"))).toEqual([]);
    expect(numbers("check_run", own("requested_action"))).toEqual([9]);
    expect(numbers("check_run", own("rerequested"))).toEqual([9]);
    // Someone else's check run named agate, or the old agate/commands, is no reason at all.
    expect(numbers("check_run", own("requested_action", "impostor"))).toEqual([]);
    expect(numbers("check_run", own("completed", "github-actions", "agate/commands"))).toEqual([]);
  });
});
