import type {
  CheckRunEvent,
  IssueCommentEvent,
  IssuesEvent,
  MergeGroupEvent,
  PullRequestEvent,
  PullRequestReviewEvent,
  WorkflowJobEvent,
  WorkflowRunEvent,
} from "@octokit/webhooks-types";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { ROUTED_EVENTS, type RoutedEvent } from "../../schemas/webhooks.js";
import { allWebhookExamples, webhookExample } from "../../test/support/webhook-examples.js";
import { agateJobs, agateRoute } from "../compose.js";

/**
 * Compile-time: each published webhook type, as an App receives it (with its installation), is
 * something the route's schema takes. A schema that asks for a field GitHub does not send, or in
 * another shape, fails typecheck here.
 */
type AsApp<T> = T & { installation: { id: number } };
type Takes<E extends RoutedEvent, Published> =
  AsApp<Published> extends z.input<(typeof ROUTED_EVENTS)[E]> ? true : never;
const publishedTypesFit: { [E in RoutedEvent]: true } = {
  pull_request: true satisfies Takes<"pull_request", PullRequestEvent>,
  pull_request_review: true satisfies Takes<"pull_request_review", PullRequestReviewEvent>,
  check_run: true satisfies Takes<"check_run", CheckRunEvent>,
  workflow_run: true satisfies Takes<"workflow_run", WorkflowRunEvent>,
  workflow_job: true satisfies Takes<"workflow_job", WorkflowJobEvent>,
  merge_group: true satisfies Takes<"merge_group", MergeGroupEvent>,
  issue_comment: true satisfies Takes<"issue_comment", IssueCommentEvent>,
  issues: true satisfies Takes<"issues", IssuesEvent>,
};

const SHA = "1".repeat(40);
const BASE = "2".repeat(40);
const QUEUE = "gh-readonly-queue/main/pr-1-abc";
const envelope = { repository: { full_name: "o/r" }, installation: { id: 7 } };
const jobs = agateJobs();
const route = (event: string, payload: object) =>
  agateRoute(event, { ...envelope, ...payload }, "d");
const kinds = (event: string, payload: object) => route(event, payload).map((j) => j.kind);
const payloads = (event: string, payload: object) =>
  route(event, payload).map((j) => jobs.parse(j.kind, j.payload)) as Record<string, unknown>[];

const pullRequest = (action: string, extra: object = {}) => ({
  action,
  pull_request: { number: 4, head: { sha: SHA }, base: { ref: "main", sha: BASE } },
  ...extra,
});

describe("the route: a delivery becomes jobs, one per target", () => {
  it("a pull request event is one pass of that pull request, keyed by it, naming its head and base; closed is no pass", () => {
    expect(route("pull_request", pullRequest("synchronize"))).toEqual([
      {
        kind: GATE_JOBS.pullRequest.kind,
        payload: expect.objectContaining({ number: 4, head_sha: SHA, base_sha: BASE }),
        concurrency_key: "o/r#4",
      },
    ]);
    // Closed and reopened also reach the entries that name the pull request (their priority is
    // whether it is open); closing it needs no gate pass, opening reaches no entry.
    const entries = {
      kind: ENTRY_JOBS.pullRequestEntries.kind,
      payload: expect.objectContaining({ number: 4, trigger: expect.anything() }),
      concurrency_key: "o/r#4",
    };
    expect(route("pull_request", pullRequest("closed"))).toEqual([entries]);
    expect(route("pull_request", pullRequest("opened")).map((j) => j.kind)).toEqual([
      GATE_JOBS.pullRequest.kind,
    ]);
    expect(route("pull_request", pullRequest("reopened")).map((j) => j.kind)).toEqual([
      ENTRY_JOBS.pullRequestEntries.kind,
      GATE_JOBS.pullRequest.kind,
    ]);
    const review = { action: "submitted", pull_request: { number: 5, head: { sha: SHA } } };
    expect(route("pull_request_review", review)[0]?.concurrency_key).toBe("o/r#5");
  });

  it("an agate: label changed names its sender, so the App's own change is skipped and a person's is not", () => {
    const labeled = (login: string, name: string) =>
      payloads("pull_request", pullRequest("labeled", { label: { name }, sender: { login } }))[0];
    expect(labeled("agate[bot]", "agate:accepted")?.unless_sender).toBe("agate[bot]");
    expect(labeled("octocat", "agate:accepted")?.unless_sender).toBe("octocat");
    expect(labeled("agate[bot]", "agent")?.unless_sender).toBeNull();
  });

  it("marks a retarget, so the head's check goes back in progress first", () => {
    const edited = pullRequest("edited", { changes: { base: { ref: { from: "dev" } } } });
    expect(payloads("pull_request", edited)[0]?.retarget).toEqual({ from: "dev", to: "main" });
    expect(
      payloads("pull_request", pullRequest("edited", { changes: {} }))[0]?.retarget,
    ).toBeNull();
  });

  it("a completed workflow run or job is followed to its pull requests or its head, evaluated only when the base config makes it evidence", () => {
    const run = (prs: { number: number }[], branch = "codex/x") => ({
      action: "completed",
      workflow_run: {
        id: 9,
        head_sha: SHA,
        head_branch: branch,
        path: ".github/workflows/agate.yml",
        pull_requests: prs,
      },
    });
    expect(
      route("workflow_run", run([{ number: 1 }, { number: 2 }])).map((j) => j.concurrency_key),
    ).toEqual(["o/r#1", "o/r#2"]);
    expect(payloads("workflow_run", run([{ number: 1 }]))[0]?.only_if).toEqual({
      workflow: ".github/workflows/agate.yml",
      job: null,
    });
    expect(route("workflow_run", run([]))).toEqual([
      expect.objectContaining({ kind: GATE_JOBS.head.kind, concurrency_key: `o/r@${SHA}` }),
    ]);
    expect(kinds("workflow_run", run([], QUEUE))).toEqual([GATE_JOBS.mergeGroup.kind]);
    expect(kinds("workflow_run", { ...run([]), action: "requested" })).toEqual([]);
    const job = (action: string, branch = "codex/x") => ({
      action,
      workflow_job: { run_id: 9, head_sha: SHA, head_branch: branch, name: "build" },
    });
    expect(payloads("workflow_job", job("completed"))[0]).toMatchObject({
      head_sha: SHA,
      only_if: { workflow: null, job: "build" },
    });
    expect(kinds("workflow_job", job("completed", QUEUE))).toEqual([GATE_JOBS.mergeGroup.kind]);
    expect(route("workflow_job", job("in_progress"))).toEqual([]);
  });

  it("a workflow_job.completed carries its job for the pass only when the event shows all of it, completed", () => {
    const steps = [{ name: "agate", number: 2, status: "completed", conclusion: "success" }];
    const event = (extra: object) => ({
      action: "completed",
      workflow_job: {
        id: 31,
        run_id: 9,
        run_attempt: 2,
        head_sha: SHA,
        name: "agate-commands",
        status: "completed",
        conclusion: "success",
        steps,
        ...extra,
      },
    });
    const carried = (extra: object) => payloads("workflow_job", event(extra))[0]?.run;
    expect(carried({})).toEqual({
      id: 9,
      attempt: 2,
      job: {
        id: 31,
        name: "agate-commands",
        run_attempt: 2,
        status: "completed",
        conclusion: "success",
        html_url: null,
        steps,
      },
    });
    // A completed action whose job says otherwise, or leaves out its id or steps: the pass is
    // still made, and lists the run's jobs itself.
    expect(carried({ status: "in_progress", conclusion: null })).toEqual({
      id: 9,
      attempt: 2,
      job: null,
    });
    expect(carried({ status: undefined })).toMatchObject({ job: null });
    expect(carried({ id: undefined })).toMatchObject({ job: null });
    expect(carried({ steps: undefined })).toMatchObject({ job: null });
  });

  it("a check run counts only when it is an agate check a person asked to re-run; the handler checks it is this App's", () => {
    const check = (action: string, extra: object = {}, name = "agate") => ({
      action,
      check_run: {
        name,
        head_sha: SHA,
        app: { slug: "agate" },
        pull_requests: [{ number: 9 }],
        check_suite: { head_branch: "codex/x" },
        ...extra,
      },
    });
    expect(route("check_run", check("completed"))).toEqual([]);
    expect(route("check_run", check("created"))).toEqual([]);
    expect(route("check_run", check("completed", {}, "agate/commands"))).toEqual([]);
    expect(payloads("check_run", check("requested_action"))[0]).toMatchObject({
      number: 9,
      only_if_app: "agate",
    });
    expect(
      payloads("check_run", {
        ...check("requested_action"),
        requested_action: { identifier: "rerun-evaluator" },
      })[0]?.rerun_evaluator,
    ).toBe(true);
    expect(
      payloads("check_run", check("rerequested", { app: { slug: "impostor" } }))[0]?.only_if_app,
    ).toBe("impostor");
    // No pull request: a merge-queue head (its base is on our own check), or any other head.
    const queued = check("rerequested", { pull_requests: [], check_suite: { head_branch: QUEUE } });
    expect(route("check_run", queued)).toEqual([
      expect.objectContaining({ kind: GATE_JOBS.mergeGroup.kind, concurrency_key: `o/r@${SHA}` }),
    ]);
    expect(payloads("check_run", queued)[0]).toMatchObject({
      base_sha: null,
      only_if_app: "agate",
    });
    const orphan = check("rerequested", { pull_requests: [], check_suite: null });
    expect(kinds("check_run", orphan)).toEqual([GATE_JOBS.head.kind]);
  });

  it("a merge group's checks request names its base; other merge-group actions need no answer", () => {
    const group = (action: string) => ({
      action,
      merge_group: { head_sha: SHA, head_ref: `refs/heads/${QUEUE}`, base_sha: BASE },
    });
    expect(payloads("merge_group", group("checks_requested"))[0]).toMatchObject({
      head_sha: SHA,
      base_sha: BASE,
    });
    expect(route("merge_group", group("checks_requested"))[0]?.concurrency_key).toBe(`o/r@${SHA}`);
    expect(route("merge_group", group("destroyed"))).toEqual([]);
  });

  it("only a new /agate comment on a pull request is a job; issues, edits and other comments are not", () => {
    const comment = (action: string, body: string, pull = true) => ({
      action,
      issue: { number: 3, ...(pull ? { pull_request: { url: "x" } } : {}) },
      comment: {
        body,
        html_url: "https://github.com/o/r/pull/3#c",
        user: { login: "m", type: "User" },
      },
    });
    const accept = `/agate accept ${SHA} reviewed by hand`;
    expect(route("issue_comment", comment("created", accept))).toEqual([
      expect.objectContaining({ kind: GATE_JOBS.override.kind, concurrency_key: "o/r#3" }),
    ]);
    expect(route("issue_comment", comment("edited", accept))).toEqual([]);
    expect(route("issue_comment", comment("created", accept, false))).toEqual([]);
    expect(route("issue_comment", comment("created", "looks good"))).toEqual([]);
  });

  it("a payload that is not what GitHub sends, or an event not routed, enqueues nothing", () => {
    expect(agateRoute("pull_request", { action: "opened" }, "d")).toEqual([]);
    expect(route("pull_request", pullRequest("opened", { installation: undefined }))).toEqual([]);
    expect(agateRoute("push", webhookExample("push"), "d")).toEqual([]);
    expect(agateRoute("issues", webhookExample("issues", "opened"), "d")).toEqual([]);
    expect(agateRoute("check_suite", webhookExample("check_suite", "completed"), "d")).toEqual([]);
  });

  it("GitHub's published examples of every routed event parse with the route's schemas", () => {
    expect(Object.keys(publishedTypesFit).sort()).toEqual(Object.keys(ROUTED_EVENTS).sort());
    const examples = allWebhookExamples().filter(([name]) => name in ROUTED_EVENTS);
    expect(examples.length).toBeGreaterThan(20);
    for (const [name, payload] of examples) {
      const withInstallation = { installation: { id: 1 }, ...(payload as object) };
      const parsed = ROUTED_EVENTS[name as keyof typeof ROUTED_EVENTS].safeParse(withInstallation);
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("an installation's new repositories each get their labels made, once at a time per repository", () => {
    const created = webhookExample("installation", "created");
    const jobs = agateRoute("installation", created, "d1");
    const names = (created.repositories ?? []).map((r) => r.full_name);
    expect(names.length).toBeGreaterThan(0);
    expect(jobs.map((j) => [j.kind, j.concurrency_key])).toEqual(
      names.map((name) => [GATE_JOBS.repositoryLabels.kind, `${name}:labels`]),
    );
    expect(GATE_JOBS.repositoryLabels.payload.parse(jobs[0]?.payload)).toEqual({
      repository: names[0],
      installation: created.installation.id,
      trigger: { event: "installation", action: "created", delivery_id: "d1" },
    });
    const added = webhookExample("installation_repositories", "added");
    expect(agateRoute("installation_repositories", added, "d2").map((j) => j.payload)).toEqual(
      added.repositories_added.map((r) =>
        expect.objectContaining({ repository: r.full_name, installation: added.installation.id }),
      ),
    );
    // A removal or an uninstall makes nothing: the labels stay for whoever filtered on them.
    const removed = webhookExample("installation_repositories", "removed");
    expect(agateRoute("installation_repositories", removed, "d3")).toEqual([]);
    expect(agateRoute("installation", webhookExample("installation", "deleted"), "d4")).toEqual([]);
  });
});
