import { describe, expect, it } from "vitest";
import { webhookExample } from "../../test/support/webhook-examples.js";
import { defaultRoute, ENTRY_DELIVERY, GATE_DELIVERY } from "./route.js";

describe("defaultRoute", () => {
  it("enqueues one gate job per pull_request delivery, keyed by the pull request", () => {
    const payload = webhookExample("pull_request", "opened");
    expect(defaultRoute("pull_request", payload, "d-1")).toEqual([
      {
        kind: GATE_DELIVERY,
        payload: { delivery_id: "d-1" },
        concurrency_key: `${payload.repository.full_name}#${payload.pull_request.number}`,
      },
    ]);
  });

  it("keys a review by its pull request", () => {
    const payload = webhookExample("pull_request_review", "submitted");
    expect(defaultRoute("pull_request_review", payload, "d")[0]?.concurrency_key).toBe(
      `${payload.repository.full_name}#${payload.pull_request.number}`,
    );
  });

  it("keys check and workflow events by their first pull request, else by the head SHA", () => {
    const run = webhookExample("check_run", "completed");
    const first = run.check_run.pull_requests[0]?.number;
    expect(first).toBeDefined();
    expect(defaultRoute("check_run", run, "d")[0]?.concurrency_key).toBe(
      `${run.repository.full_name}#${first}`,
    );
    run.check_run.pull_requests = [];
    expect(defaultRoute("check_run", run, "d")[0]?.concurrency_key).toBe(
      `${run.repository.full_name}@${run.check_run.head_sha}`,
    );
    const suite = webhookExample("check_suite", "completed");
    expect(suite.check_suite.pull_requests[0]?.number).toBeTypeOf("number");
    expect(defaultRoute("check_suite", suite, "d")[0]?.concurrency_key).toBe(
      `${suite.repository.full_name}#${suite.check_suite.pull_requests[0]?.number}`,
    );
    const workflow = webhookExample("workflow_run", "completed");
    expect(workflow.workflow_run.pull_requests).toEqual([]);
    expect(defaultRoute("workflow_run", workflow, "d")[0]).toMatchObject({
      kind: GATE_DELIVERY,
      concurrency_key: `${workflow.repository.full_name}@${workflow.workflow_run.head_sha}`,
    });
  });

  it("keys a merge group by its head SHA", () => {
    const payload = webhookExample("merge_group", "checks_requested");
    expect(defaultRoute("merge_group", payload, "d")[0]?.concurrency_key).toBe(
      `${payload.repository.full_name}@${payload.merge_group.head_sha}`,
    );
  });

  it("enqueues an entry job for issues and issue comments, keyed by the issue", () => {
    const issue = webhookExample("issues", "opened");
    const comment = webhookExample("issue_comment", "created");
    expect(defaultRoute("issues", issue, "d-2")).toEqual([
      {
        kind: ENTRY_DELIVERY,
        payload: { delivery_id: "d-2" },
        concurrency_key: `${issue.repository.full_name}!${issue.issue.number}`,
      },
    ]);
    expect(defaultRoute("issue_comment", comment, "d")[0]?.concurrency_key).toBe(
      `${comment.repository.full_name}!${comment.issue.number}`,
    );
  });

  it("leaves the key null when the payload names no repository", () => {
    expect(defaultRoute("pull_request", { action: "opened" }, "d")[0]?.concurrency_key).toBeNull();
  });

  it("enqueues nothing for other events", () => {
    expect(defaultRoute("push", webhookExample("push"), "d")).toEqual([]);
    expect(defaultRoute("installation", webhookExample("installation", "created"), "d")).toEqual(
      [],
    );
  });
});
