import { describe, expect, it } from "vitest";
import type { DecisionState } from "../../schemas/acceptance-record.js";
import { type DecisionView, gateHolds, holdingPulls } from "./priority.js";

const STALE = { superseded_by: "b".repeat(40), at: "2026-01-01T00:00:00Z" };
const d = (state: DecisionState, stale: unknown = null): DecisionView => ({ state, stale });

describe("gateHolds", () => {
  it("holds a gated pull request whose current decision is not accepted", () => {
    for (const state of [
      "pending",
      "rejected",
      "blocked",
      "escalated",
      "stalled",
      "capped",
    ] as const) {
      expect(gateHolds([d(state)]), state).toBe(true);
    }
  });

  it("does not hold an accepted or not-gated pull request, nor one never decided", () => {
    expect(gateHolds([d("accepted")])).toBe(false);
    expect(gateHolds([d("not_gated")])).toBe(false);
    expect(gateHolds([])).toBe(false);
  });

  it("reads the current head's newest decision, not an older one", () => {
    expect(gateHolds([d("pending"), d("accepted")])).toBe(false);
    expect(gateHolds([d("accepted"), d("pending")])).toBe(true);
    // The accepted head was superseded by a push whose pending decision is newest.
    expect(gateHolds([d("accepted", STALE), d("pending")])).toBe(true);
    // A newer head accepted, the old head's rejection stale.
    expect(gateHolds([d("rejected", STALE), d("accepted")])).toBe(false);
  });

  it("a push not yet decided holds a gated pull request: the new head is not accepted", () => {
    expect(gateHolds([d("accepted", STALE)])).toBe(true);
    expect(gateHolds([d("not_gated", STALE)])).toBe(false);
  });
});

describe("holdingPulls", () => {
  it("keeps the pull requests the gate holds, each once", () => {
    expect(
      holdingPulls([
        { number: 4, decisions: [d("pending")] },
        { number: 5, decisions: [d("accepted")] },
        { number: 6, decisions: [] },
        { number: 4, decisions: [d("pending")] },
        { number: 7, decisions: [d("accepted", STALE), d("escalated")] },
      ]),
    ).toEqual([4, 7]);
  });
});
