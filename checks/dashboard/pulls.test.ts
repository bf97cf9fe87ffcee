import { describe, expect, it } from "vitest";
import { decisionConcernsDashboard } from "./pulls.js";

describe("decisionConcernsDashboard", () => {
  it("is true when the decision puts the pull request in a listed state", () => {
    for (const state of ["escalated", "stalled", "capped"] as const) {
      expect(decisionConcernsDashboard(state, [])).toBe(true);
    }
  });

  it("is true when the newest earlier record was listed (the pull request leaves the list)", () => {
    const prior = [
      { id: 4, state: "stalled" as const },
      { id: 2, state: "rejected" as const },
    ];
    expect(decisionConcernsDashboard("accepted", prior)).toBe(true);
  });

  it("is false between unlisted states, whatever older records said", () => {
    expect(decisionConcernsDashboard("pending", [])).toBe(false);
    const prior = [
      { id: 1, state: "capped" as const },
      { id: 3, state: "rejected" as const },
    ];
    expect(decisionConcernsDashboard("accepted", prior)).toBe(false);
  });
});
