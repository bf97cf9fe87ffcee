import { describe, expect, it } from "vitest";
import type { PullRequestView } from "../../schemas/gate.js";
import { gateFacts, MERGE } from "../../test/support/gate-facts.js";
import { sightingOf, viewDigest } from "./sighting.js";

const view = (): PullRequestView => ({
  snapshot: { ...gateFacts().pull_request, labels: ["agate:rejected"] },
  detail: {
    title: "Set the answer",
    body: "Closes #1",
    created_at: "2026-12-02T10:00:00Z",
    updated_at: "2026-12-02T10:05:00Z",
    commits: 1,
    additions: 3,
    deletions: 0,
    changed_files: 1,
    merge_commit_sha: null,
  },
});

describe("what a pass saw of the pull request", () => {
  it("a view's digest leaves out the test merge commit (a webhook's view has none) and nothing else", () => {
    const seen = view();
    const read = { ...seen, detail: { ...seen.detail, merge_commit_sha: MERGE } };
    expect(viewDigest(read)).toBe(viewDigest(seen));
    const edited = { ...seen, detail: { ...seen.detail, body: "Closes #2" } };
    expect(viewDigest(edited)).not.toBe(viewDigest(seen));
  });

  it("a sighting shows the labels as the pass leaves them: the view from before its writes is older", () => {
    const before = view();
    const sighting = sightingOf(before, ["agate:accepted"]);
    expect(sighting.updated_at).toBe(before.detail.updated_at);
    expect(sighting.digest).not.toBe(viewDigest(before));
    const after = { ...before, snapshot: { ...before.snapshot, labels: ["agate:accepted"] } };
    expect(sighting.digest).toBe(viewDigest(after));
  });
});
