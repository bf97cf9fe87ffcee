import { describe, expect, it } from "vitest";
import { allWebhookExamples, webhookExample } from "../../test/support/webhook-examples.js";
import { HANDLED_KINDS } from "../gate/job-handlers.js";
import { defaultRoute, GATE_DELIVERY } from "./route.js";

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
    const job = webhookExample("workflow_job", "completed");
    expect(defaultRoute("workflow_job", job, "d")[0]?.concurrency_key).toBe(
      `${job.repository.full_name}@${job.workflow_job.head_sha}`,
    );
    const workflow = webhookExample("workflow_run", "completed");
    expect(workflow.workflow_run.pull_requests).toEqual([]);
    expect(defaultRoute("workflow_run", workflow, "d")[0]).toMatchObject({
      kind: GATE_DELIVERY,
      concurrency_key: `${workflow.repository.full_name}@${workflow.workflow_run.head_sha}`,
    });
    // Evidence is no longer a check suite: nothing to do for one.
    expect(defaultRoute("check_suite", webhookExample("check_suite", "completed"), "d")).toEqual(
      [],
    );
  });

  it("keys a merge group by its head SHA", () => {
    const payload = webhookExample("merge_group", "checks_requested");
    expect(defaultRoute("merge_group", payload, "d")[0]?.concurrency_key).toBe(
      `${payload.repository.full_name}@${payload.merge_group.head_sha}`,
    );
  });

  it("a comment on a pull request is the gate's (a maintainer's /agate accept), keyed by it; issues enqueue nothing", () => {
    const comment = webhookExample("issue_comment", "created");
    expect(comment.issue.pull_request).toBeUndefined();
    expect(defaultRoute("issue_comment", comment, "d")).toEqual([]);
    expect(defaultRoute("issues", webhookExample("issues", "opened"), "d")).toEqual([]);
    const onPull = { ...comment, issue: { ...comment.issue, pull_request: { url: "x" } } };
    expect(defaultRoute("issue_comment", onPull, "d-3")).toEqual([
      {
        kind: GATE_DELIVERY,
        payload: { delivery_id: "d-3" },
        concurrency_key: `${comment.repository.full_name}#${comment.issue.number}`,
      },
    ]);
  });

  it("never routes a job kind without a handler, for any example of any event", () => {
    const handled = new Set<string>(HANDLED_KINDS);
    let routed = 0;
    for (const [name, payload] of allWebhookExamples()) {
      for (const job of defaultRoute(name, payload, "d")) {
        routed++;
        expect(handled.has(job.kind), `${name} routes ${job.kind}`).toBe(true);
      }
    }
    expect(routed).toBeGreaterThan(10);
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
