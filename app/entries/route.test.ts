import { describe, expect, it } from "vitest";
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { agateRoute } from "../compose.js";

const envelope = {
  repository: { full_name: "o/r" },
  installation: { id: 7 },
  sender: { login: "octocat" },
};
const route = (event: string, payload: object) =>
  agateRoute(event, { ...envelope, ...payload }, "d-1");
const FORM = "### Project\n\np\n\n### Question\n\nq?\n";

describe("the route of issue deliveries to handoff entry jobs", () => {
  it("an issue opened or edited in the form's layout is its entry's pass, keyed by the issue", () => {
    const jobs = route("issues", { action: "opened", issue: { number: 3, body: FORM } });
    expect(jobs).toEqual([
      {
        kind: ENTRY_JOBS.entry.kind,
        payload: expect.objectContaining({ issue_number: 3, installation: 7 }),
        concurrency_key: "o/r#3:entry",
      },
    ]);
    expect(ENTRY_JOBS.entry.payload.parse(jobs[0]?.payload)).toMatchObject({
      trigger: { event: "issues", action: "opened", delivery_id: "d-1" },
      label_change: null,
      state_change: null,
    });
    expect(route("issues", { action: "edited", issue: { number: 3, body: FORM } })).toHaveLength(1);
  });

  it("an ordinary issue, an issue event of a pull request, or another action is no job", () => {
    expect(route("issues", { action: "opened", issue: { number: 3, body: "It broke." } })).toEqual(
      [],
    );
    expect(
      route("issues", { action: "opened", issue: { number: 3, body: FORM, pull_request: {} } }),
    ).toEqual([]);
    expect(route("issues", { action: "assigned", issue: { number: 3, body: FORM } })).toEqual([]);
  });

  it("closed and reopened name who did it; a label change only for agate's entry labels", () => {
    const closed = route("issues", { action: "closed", issue: { number: 3 } });
    expect(ENTRY_JOBS.entry.payload.parse(closed[0]?.payload).state_change).toEqual({
      action: "closed",
      by: "octocat",
    });
    const labeled = route("issues", {
      action: "labeled",
      issue: { number: 3 },
      label: { name: "agate:resolved" },
    });
    expect(ENTRY_JOBS.entry.payload.parse(labeled[0]?.payload).label_change).toEqual({
      label: "agate:resolved",
      action: "labeled",
      by: "octocat",
    });
    expect(
      route("issues", { action: "unlabeled", issue: { number: 3 }, label: { name: "bug" } }),
    ).toEqual([]);
  });

  it("a new comment starting with a command on an issue is the entry's pass; conversation, edits and pull requests are not", () => {
    const comment = (action: string, body: string, pull?: object) => ({
      action,
      issue: { number: 3, ...(pull ? { pull_request: pull } : {}) },
      comment: { body, user: { login: "agent-b", type: "User" } },
    });
    expect(route("issue_comment", comment("created", "/claim"))).toEqual([
      expect.objectContaining({ kind: ENTRY_JOBS.entry.kind, concurrency_key: "o/r#3:entry" }),
    ]);
    expect(route("issue_comment", comment("created", "thanks!"))).toEqual([]);
    expect(route("issue_comment", comment("edited", "/claim"))).toEqual([]);
    expect(route("issue_comment", comment("created", "/claim", {})).map((j) => j.kind)).toEqual([]);
  });
});
