import { describe, expect, it } from "vitest";
import { HEAD } from "../../test/support/gate-facts.js";
import { phaseKinds } from "../../test/support/gate-pass.js";
import { errorHold, retargetHold } from "./holds.js";

const held = { repository: "octo/widgets", number: 7, head_sha: HEAD, existing: null };

describe("holds: the head's check back in progress, as effects", () => {
  it("a retarget: the check alone, in progress, naming both bases", () => {
    const effects = retargetHold(held, { from: "main", to: "release" });
    expect(phaseKinds(effects)).toEqual({ first: [], github: ["check"], after: [] });
    expect(effects.github).toEqual([
      expect.objectContaining({
        kind: "check",
        head_sha: HEAD,
        write: expect.objectContaining({
          conclusion: null,
          title: "The base changed from main to release: re-evaluating against the new base",
          externalId: `agate:octo/widgets#7@${HEAD}`,
        }),
      }),
    ]);
  });

  it("a failed pass: the head recorded as seen first, then the check in progress with the reason fenced", () => {
    const reason = "boom ```\n@everyone <b>x</b>";
    const base = "b".repeat(40);
    const effects = errorHold(
      { ...held, base_ref: "main", base_sha: base },
      reason,
      "2026-12-02T10:00:00.000Z",
    );
    expect(phaseKinds(effects)).toEqual({ first: ["observe"], github: ["check"], after: [] });
    expect(effects.first[0]).toMatchObject({
      stale: null,
      // The base commit the hold's live read saw: the evaluator job's stale check needs it.
      head: { head_sha: HEAD, base_ref: "main", base_sha: base, pull_number: 7 },
    });
    const check = effects.github[0];
    if (check?.kind !== "check") throw new Error("the hold writes the check");
    expect(check.write.conclusion).toBeNull();
    // What failed may carry text someone else wrote: it stays inside a longer fence.
    expect(check.write.summary).toContain("````");
  });
});
