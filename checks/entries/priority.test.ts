import { describe, expect, it } from "vitest";
import type { DecisionState } from "../../schemas/acceptance-record.js";
import {
  type DecisionView,
  decisionsAfterPass,
  declaredWaitUntil,
  type EntryView,
  entryPassesDue,
  gateHolds,
  holdingPulls,
  parseWait,
  WAIT_LEASE_MAX_MS,
} from "./priority.js";

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

describe("a declared wait (/wait DURATION)", () => {
  const at = (iso: string) => new Date(iso);
  const c = (login: string, body: string, created: string, updated?: string) => ({
    login,
    body,
    created_at: created,
    ...(updated ? { updated_at: updated } : {}),
  });

  it("reads the lease, capped at an hour; anything else declares nothing", () => {
    expect(parseWait("/wait 10m")).toBe(600_000);
    expect(parseWait("  /wait 30s (agate-gate entry status, renewal 3)")).toBe(30_000);
    expect(parseWait("/wait 5h")).toBe(WAIT_LEASE_MAX_MS);
    for (const body of ["/wait", "/wait 10", "/wait 0m", "/waiting 10m", "I /wait 10m", null]) {
      expect(parseWait(body), String(body)).toBeNull();
    }
  });

  it("counts the author's declaration from GitHub's time of its last edit, until its lease runs out", () => {
    const comments = [c("agent-a", "/wait 10m", "2026-12-04T10:00:00Z", "2026-12-04T10:05:00Z")];
    expect(declaredWaitUntil(comments, "agent-a", at("2026-12-04T10:14:59Z"))).toEqual(
      at("2026-12-04T10:15:00Z"),
    );
    // A dead agent renews nothing: past the lease it no longer counts.
    expect(declaredWaitUntil(comments, "agent-a", at("2026-12-04T10:15:00Z"))).toBeNull();
  });

  it("only the entry's author waits on it: anyone else's /wait makes nothing urgent", () => {
    const comments = [c("mallory", "/wait 1h", "2026-12-04T10:00:00Z")];
    expect(declaredWaitUntil(comments, "agent-a", at("2026-12-04T10:01:00Z"))).toBeNull();
    expect(declaredWaitUntil(comments, "Mallory", at("2026-12-04T10:01:00Z"))).toEqual(
      at("2026-12-04T11:00:00Z"),
    );
  });
});

describe("entryPassesDue: the entry passes a gate pass's change calls for", () => {
  const PULL = 7;
  const entry = (issue: number, state: string, blockingPull: number | null = null): EntryView => ({
    issue_number: issue,
    state,
    fields: { blocking_pull: blockingPull },
  });
  const entries = [
    entry(3, "open", PULL),
    entry(4, "claimed"),
    entry(5, "resolved", PULL),
    entry(6, "open"),
  ];
  const due = (over: Partial<Parameters<typeof entryPassesDue>[0]>) =>
    entryPassesDue({
      pullNumber: PULL,
      entries,
      mentionedBefore: [4],
      mentionedNow: [4],
      holdsBefore: true,
      holdsAfter: true,
      retried: false,
      ...over,
    });

  it("the hold beginning or ending reaches every unresolved entry linked, named or mentioned; the same hold again reaches none", () => {
    expect(due({ holdsBefore: false, mentionedBefore: [] })).toEqual([3, 4]);
    expect(due({})).toEqual([]);
    expect(due({ holdsAfter: false })).toEqual([3, 4]);
  });

  it("mentions changed while the gate holds: only the entries mentioned before or now, not those named anyway", () => {
    const more = [...entries, entry(8, "open")];
    // 3 is named by its form: linked either way. 99 is no entry.
    expect(due({ entries: more, mentionedBefore: [3, 4], mentionedNow: [3, 6, 99] })).toEqual([
      4, 6,
    ]);
  });

  it("a retried pass reaches every linked entry: its first run may have stored the hold's change and stopped before queueing", () => {
    expect(due({ retried: true })).toEqual([3, 4]);
  });

  it("mentions changed while the gate does not hold: no entry's priority moves", () => {
    expect(due({ holdsBefore: false, holdsAfter: false, mentionedNow: [] })).toEqual([]);
  });
});

describe("decisionsAfterPass", () => {
  const HEAD = "a".repeat(40);
  const OLD = "c".repeat(40);
  it("marks the other heads' records stale and adds the decision stored, so the hold after the pass is known without a read", () => {
    const prior: (DecisionView & { head_sha: string })[] = [
      { head_sha: OLD, state: "accepted", stale: null },
    ];
    expect(gateHolds(prior)).toBe(false);
    const after = decisionsAfterPass(prior, HEAD, null);
    // A push the gate has not decided: every record stale, so it holds it.
    expect(gateHolds(after)).toBe(true);
    expect(gateHolds(decisionsAfterPass(prior, HEAD, "accepted"))).toBe(false);
    expect(
      gateHolds(
        decisionsAfterPass([{ state: "accepted", stale: null, head_sha: HEAD }], HEAD, null),
      ),
    ).toBe(false);
  });
});
