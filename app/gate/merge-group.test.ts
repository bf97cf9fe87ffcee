import { describe, expect, it } from "vitest";
import { webhookExample } from "../../test/support/webhook-examples.js";
import { mergeGroupHeadOf } from "./merge-group.js";

const HEAD = "a".repeat(40);
const QUEUE = "gh-readonly-queue/main/pr-1-abc";

describe("mergeGroupHeadOf: which check_run / workflow_run events are about a merge-group head", () => {
  const checkRun = (overrides: Record<string, unknown> = {}, action = "requested_action") => ({
    action,
    check_run: {
      name: "agate",
      head_sha: HEAD,
      app: { slug: "agate" },
      pull_requests: [],
      check_suite: { head_branch: QUEUE },
      ...overrides,
    },
  });

  it("routes a person's re-run of our check on a queue branch without pull requests to its head", () => {
    expect(mergeGroupHeadOf("check_run", checkRun(), "agate")).toEqual({
      head_sha: HEAD,
      head_ref: QUEUE,
    });
  });

  it("ignores every other check run: evidence is not a check run", () => {
    const other = { name: "agate/commands", app: { slug: "github-actions" } };
    expect(mergeGroupHeadOf("check_run", checkRun(other, "completed"), "agate")).toBeNull();
    const impostor = { name: "agate", app: { slug: "impostor" } };
    expect(mergeGroupHeadOf("check_run", checkRun(impostor), "agate")).toBeNull();
  });

  it("leaves pull requests' events and other branches to the pull-request path", () => {
    expect(mergeGroupHeadOf("check_run", checkRun({ pull_requests: [{}] }), "agate")).toBeNull();
    expect(
      mergeGroupHeadOf("check_run", checkRun({ check_suite: { head_branch: "main" } }), "agate"),
    ).toBeNull();
    expect(mergeGroupHeadOf("check_run", checkRun({ check_suite: null }), "agate")).toBeNull();
  });

  it("ignores our own agate check changing, unless a person asked for a re-run", () => {
    const own = { name: "agate", app: { slug: "agate" } };
    expect(mergeGroupHeadOf("check_run", checkRun(own, "completed"), "agate")).toBeNull();
    expect(
      mergeGroupHeadOf("check_run", checkRun(own, "requested_action"), "agate"),
    ).not.toBeNull();
    expect(mergeGroupHeadOf("check_run", checkRun(own, "rerequested"), "agate")).not.toBeNull();
  });

  it("routes a workflow run on a queue branch, and reads the example payload's shape", () => {
    const example = webhookExample("workflow_run", "completed");
    example.workflow_run.head_branch = QUEUE;
    example.workflow_run.head_sha = HEAD;
    example.workflow_run.pull_requests = [];
    expect(mergeGroupHeadOf("workflow_run", example as never, "agate")).toEqual({
      head_sha: HEAD,
      head_ref: QUEUE,
    });
    example.workflow_run.head_branch = "feature";
    expect(mergeGroupHeadOf("workflow_run", example as never, "agate")).toBeNull();
  });

  it("routes a workflow job on a queue branch (the evidence job finishing)", () => {
    const example = webhookExample("workflow_job", "completed");
    example.workflow_job.head_branch = QUEUE;
    example.workflow_job.head_sha = HEAD;
    expect(mergeGroupHeadOf("workflow_job", example as never, "agate")).toEqual({
      head_sha: HEAD,
      head_ref: QUEUE,
    });
  });
});
