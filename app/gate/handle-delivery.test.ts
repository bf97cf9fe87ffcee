import { describe, expect, it } from "vitest";
import { pullRequestsOf } from "./handle-delivery.js";

describe("pullRequestsOf: which pull requests a delivery may change the gate of", () => {
  it("reads the number from pull request and review events, and ignores closed ones", () => {
    expect(
      pullRequestsOf(
        "pull_request",
        { action: "synchronize", pull_request: { number: 4 } },
        "agate",
      ),
    ).toEqual([4]);
    expect(
      pullRequestsOf("pull_request", { action: "closed", pull_request: { number: 4 } }, "agate"),
    ).toEqual([]);
    expect(
      pullRequestsOf(
        "pull_request_review",
        { action: "submitted", pull_request: { number: 5 } },
        "agate",
      ),
    ).toEqual([5]);
  });

  it("ignores agate's own state labels changing, but not a person's edit of them", () => {
    const labeled = (login: string, name: string) => ({
      action: "labeled",
      pull_request: { number: 3 },
      label: { name },
      sender: { login },
    });
    expect(
      pullRequestsOf("pull_request", labeled("agate[bot]", "agate:accepted"), "agate"),
    ).toEqual([]);
    expect(pullRequestsOf("pull_request", labeled("octocat", "agate:accepted"), "agate")).toEqual([
      3,
    ]);
    expect(pullRequestsOf("pull_request", labeled("agate[bot]", "agent"), "agate")).toEqual([3]);
  });

  it("follows check runs, suites and workflow runs to their pull requests", () => {
    const prs = { pull_requests: [{ number: 1 }, { number: 2 }] };
    expect(
      pullRequestsOf(
        "check_run",
        {
          action: "completed",
          check_run: { name: "agate/commands", app: { slug: "github-actions" }, ...prs },
        },
        "agate",
      ),
    ).toEqual([1, 2]);
    expect(
      pullRequestsOf("check_suite", { action: "completed", check_suite: prs }, "agate"),
    ).toEqual([1, 2]);
    expect(
      pullRequestsOf("workflow_run", { action: "completed", workflow_run: prs }, "agate"),
    ).toEqual([1, 2]);
  });

  it("looks once at a check run created already completed: on its completed event", () => {
    const run = (action: string) => ({
      action,
      check_run: {
        name: "agate/commands",
        status: "completed",
        app: { slug: "github-actions" },
        pull_requests: [{ number: 4 }],
      },
    });
    expect(pullRequestsOf("check_run", run("created"), "agate")).toEqual([]);
    expect(pullRequestsOf("check_run", run("completed"), "agate")).toEqual([4]);
  });

  it("ignores its own agate check changing, unless a person asked for a re-run", () => {
    const own = (action: string) => ({
      action,
      check_run: { name: "agate", app: { slug: "agate" }, pull_requests: [{ number: 9 }] },
    });
    expect(pullRequestsOf("check_run", own("completed"), "agate")).toEqual([]);
    expect(pullRequestsOf("check_run", own("created"), "agate")).toEqual([]);
    expect(pullRequestsOf("check_run", own("requested_action"), "agate")).toEqual([9]);
    expect(pullRequestsOf("check_run", own("rerequested"), "agate")).toEqual([9]);
    // Someone else's check run named agate is just another check run.
    expect(
      pullRequestsOf(
        "check_run",
        {
          action: "completed",
          check_run: { name: "agate", app: { slug: "impostor" }, pull_requests: [{ number: 9 }] },
        },
        "agate",
      ),
    ).toEqual([9]);
  });
});
