import { describe, expect, it } from "vitest";
import { eventBaseSchema } from "../../schemas/store.js";
import { allWebhookExamples, webhookExample } from "../../test/support/webhook-examples.js";
import { eventBases } from "./event-bases.js";

const HEAD = "1".repeat(40);
const OTHER = "3".repeat(40);
const envelope = { repository: { full_name: "o/r", id: 10 }, installation: { id: 7 } };
const pull = (number: number, base: string, repoId = 10, head = HEAD) => ({
  number,
  head: { sha: head, ref: "x", repo: { id: 10, url: "u", name: "r" } },
  base: { ref: base, sha: "2".repeat(40), repo: { id: repoId, url: "u", name: "r" } },
});

describe("eventBases: the heads and bases a delivery names, stored with it", () => {
  it("a retarget names the new base and the old one", () => {
    const edited = {
      ...envelope,
      action: "edited",
      pull_request: { number: 4, head: { sha: HEAD }, base: { ref: "main", sha: OTHER } },
      changes: { base: { ref: { from: "evil" }, sha: { from: OTHER } } },
    };
    expect(eventBases("pull_request", edited)).toEqual([
      { repository: "o/r", pull_number: 4, head_sha: HEAD, base_ref: "main" },
      { repository: "o/r", pull_number: 4, head_sha: HEAD, base_ref: "evil" },
    ]);
  });

  it("a run names the bases of the pull requests it lists, of this repository only", () => {
    const run = {
      ...envelope,
      action: "completed",
      workflow_run: {
        id: 5,
        head_sha: HEAD,
        pull_requests: [
          pull(4, "evil"),
          pull(4, "evil"),
          pull(9, "main", 11),
          pull(6, "dev", 10, OTHER),
        ],
      },
    };
    expect(eventBases("workflow_run", run)).toEqual([
      { repository: "o/r", pull_number: 4, head_sha: HEAD, base_ref: "evil" },
      { repository: "o/r", pull_number: 6, head_sha: OTHER, base_ref: "dev" },
    ]);
    expect(
      eventBases("check_run", {
        ...envelope,
        action: "completed",
        check_run: { name: "x", head_sha: HEAD, pull_requests: [pull(4, "main")] },
      }),
    ).toEqual([{ repository: "o/r", pull_number: 4, head_sha: HEAD, base_ref: "main" }]);
  });

  it("names nothing for events without a pull request's base, or payloads it cannot read", () => {
    expect(eventBases("push", webhookExample("push"))).toEqual([]);
    expect(eventBases("pull_request", { action: "opened" })).toEqual([]);
    expect(eventBases("merge_group", webhookExample("merge_group", "checks_requested"))).toEqual(
      [],
    );
  });

  it("what it names of GitHub's published examples is what the store takes", () => {
    let named = 0;
    for (const [name, payload] of allWebhookExamples()) {
      for (const seen of eventBases(name, payload)) {
        named++;
        expect(eventBaseSchema.safeParse(seen).success, `${name}: ${JSON.stringify(seen)}`).toBe(
          true,
        );
      }
    }
    expect(named).toBeGreaterThan(5);
  });
});
