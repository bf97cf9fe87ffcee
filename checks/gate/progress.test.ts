import { describe, expect, it } from "vitest";
import type { AttemptFact } from "../../schemas/gate.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import {
  BASE,
  commandEvidence,
  commandRecord,
  gateFacts,
  HEAD,
  loadedConfig,
  TREE,
} from "../../test/support/gate-facts.js";
import { decideGate } from "./decide.js";
import { type Attempt, noProgressStreak } from "./progress.js";
import { renderGateSummary } from "./render.js";

const sha = (c: string) => c.repeat(40);
const digest = (c: string) => c.repeat(64);

/** An attempt that failed `unit` with output digest `out` on tree `tree`. */
function failed(head: string, tree: string, out: string, passed: string[] = ["lint"]): Attempt {
  return {
    head_sha: sha(head),
    head_tree_sha: sha(tree),
    failures: [
      { name: "unit", exit_code: 1, timed_out: false, output_digest: digest(out), tail: "boom\n" },
    ],
    passed,
    missing: null,
  };
}

/** The same attempt as gather keeps it for an earlier head. */
function earlier(attempt: Attempt, overrides: Partial<AttemptFact> = {}): AttemptFact {
  return {
    ...attempt,
    base_sha: BASE,
    config_digest: loadedConfig().digest,
    agate_version: AGATE_VERSION,
    replayed_from: null,
    decided_at: "2026-12-02T10:00:00.000Z",
    ...overrides,
  };
}

describe("noProgressStreak: busy is not progress", () => {
  it("the same failure on three trees is a streak of three", () => {
    const stall = noProgressStreak(
      [failed("a", "1", "x"), failed("b", "2", "x")],
      failed("c", "3", "x"),
    );
    expect(stall.streak).toBe(3);
    expect(stall.attempts.map((a) => a.head_sha)).toEqual([sha("a"), sha("b"), sha("c")]);
  });

  it("a different failure on a new tree is progress: the streak starts again", () => {
    const stall = noProgressStreak(
      [failed("a", "1", "x"), failed("b", "2", "x")],
      failed("c", "3", "y"),
    );
    expect(stall.streak).toBe(1);
  });

  it("an edit → revert oscillation (trees A, B, A, B) is no progress, whatever the failures say", () => {
    const a1 = failed("a", "1", "x");
    const b1 = failed("b", "2", "y");
    const a2 = failed("c", "1", "x");
    expect(noProgressStreak([a1, b1], a2).streak).toBe(2);
    expect(noProgressStreak([a1, b1, a2], failed("d", "2", "y")).streak).toBe(3);
  });

  it("a passing attempt ends the run; a current attempt that passes has no streak", () => {
    const pass: Attempt = { ...failed("b", "2", "x"), failures: [], passed: ["unit", "lint"] };
    expect(noProgressStreak([failed("a", "1", "x"), pass], failed("c", "3", "x")).streak).toBe(1);
    expect(noProgressStreak([failed("a", "1", "x")], { ...pass, head_sha: sha("c") }).streak).toBe(
      0,
    );
  });

  it("says what was achieved: commands that pass now, evaluator items closed", () => {
    const first: Attempt = {
      ...failed("a", "1", "x", []),
      failures: [
        { name: "unit", exit_code: 1, timed_out: false, output_digest: digest("x"), tail: "" },
        { name: "lint", exit_code: 1, timed_out: false, output_digest: digest("l"), tail: "" },
      ],
    };
    const judged: Attempt = {
      ...failed("b", "2", "x"),
      failures: [],
      passed: ["unit", "lint"],
      missing: ["docs", "tests"],
    };
    const later: Attempt = {
      ...failed("c", "3", "x"),
      failures: [],
      passed: ["unit", "lint"],
      missing: ["tests"],
    };
    const stall = noProgressStreak([first, judged, later], failed("d", "4", "x"));
    expect(stall.achieved).toEqual([
      "lint passes now (it failed in an earlier attempt)",
      "no longer missing: docs",
    ]);
  });
});

describe("decideGate: graded attempts, replays and stalls", () => {
  const record = (out: string, exitCodes = [1, 0]) => {
    const r = commandRecord(exitCodes);
    return {
      ...r,
      commands: r.commands.map((c) =>
        c.exit_code === 0 ? c : { ...c, output: { ...c.output, normalized_sha256: digest(out) } },
      ),
    };
  };

  it("past budgets.graded_attempts_per_pr a new head is capped, even one that would pass", () => {
    const attempts = Array.from({ length: 10 }, (_, i) =>
      earlier(failed(String.fromCharCode(97 + i), String(i), String(i % 10))),
    );
    const d = decideGate(
      gateFacts({
        head_tree_sha: TREE,
        attempts,
        evidence: [commandEvidence([0, 0])],
      }),
    );
    expect([d.state, d.conclusion]).toEqual(["capped", "failure"]);
    expect(d.title).toBe(
      "Capped on 1111111: 10 graded attempts used, all of budgets.graded_attempts_per_pr (10); this head is not graded",
    );
    // The way out is the work item: raise the budget, or a maintainer accepts the commit.
    expect(d.missing[0]).toContain("Ask a maintainer to raise budgets.graded_attempts_per_pr");
    expect(d.requirements.find((r) => r.id === "progress")?.status).toBe("capped");
    // Nine earlier attempts leave room for this one.
    const room = decideGate(
      gateFacts({
        head_tree_sha: TREE,
        attempts: attempts.slice(1),
        evidence: [commandEvidence([0, 0])],
      }),
    );
    expect(room.requirements.find((r) => r.id === "progress")).toBeUndefined();
  });

  it("a head whose tree failed before is not graded again: the stored failure is shown at once", () => {
    const before = earlier({ ...failed("a", "4", "x"), head_tree_sha: TREE });
    const facts = gateFacts({ head_tree_sha: TREE, attempts: [before] });
    const d = decideGate(facts);
    expect([d.state, d.conclusion, d.replayed_from]).toEqual(["rejected", "failure", sha("a")]);
    expect(d.title).toContain(`work tree unchanged since the failure at ${sha("a").slice(0, 7)}`);
    const summary = renderGateSummary(d, facts);
    expect(summary).toContain("### Work tree unchanged since the failure");
    expect(summary).toContain("boom");
    expect(summary).toContain("Graded attempts: 2 of 10");
    // Not on another base, config or agate version: the merge (or the grader) differs.
    for (const other of [
      { base_sha: sha("9") },
      { config_digest: "other" },
      { agate_version: "0.0.0" },
    ]) {
      const fresh = decideGate(
        gateFacts({ head_tree_sha: TREE, attempts: [{ ...before, ...other }] }),
      );
      expect(fresh.state).toBe("pending");
    }
    // A new run of the same tree does not re-roll it: the replay stands.
    const rerun = decideGate(
      gateFacts({
        head_tree_sha: TREE,
        attempts: [before],
        evidence: [commandEvidence([0, 0])],
      }),
    );
    expect([rerun.state, rerun.replayed_from]).toEqual(["rejected", sha("a")]);
  });

  it("the third failure in a row with the same normalised output is stalled, with what was achieved", () => {
    const attempts = [earlier(failed("a", "1", "x")), earlier(failed("b", "2", "x"))];
    const facts = gateFacts({
      head_tree_sha: TREE,
      attempts,
      evidence: [commandEvidence([1, 0], { record: record("x") })],
    });
    const d = decideGate(facts);
    expect([d.state, d.conclusion]).toEqual(["stalled", "failure"]);
    expect(d.title).toContain("3 failed attempts in a row without progress");
    expect(d.title.length).toBeLessThanOrEqual(120);
    const summary = renderGateSummary(d, facts);
    expect(summary.split("\n")[0]).toBe(
      "**Stalled:** attempts stopped making progress. **Next:** Push a change that changes the failure (below): the same failure, or a tree already tried, 3 times in a row (budgets.unchanged_failures_before_stalled) is no progress; 1 more work item below.",
    );
    expect(summary).toContain("### No progress");
    expect(summary).toContain("The repeated failure: unit.");
    // A push that changes the failure leaves stalled: rejected, graded as usual.
    const changed = decideGate(
      gateFacts({
        head_tree_sha: TREE,
        attempts,
        evidence: [commandEvidence([1, 0], { record: record("y") })],
      }),
    );
    expect(changed.state).toBe("rejected");
    // And one that fixes it is accepted as usual (no evaluator configured).
    const fixed = decideGate(
      gateFacts({
        head_tree_sha: TREE,
        attempts,
        evidence: [commandEvidence([0, 0])],
      }),
    );
    expect(fixed.state).toBe("accepted");
  });

  it("a head not yet graded is pending, whatever the stall before it", () => {
    const attempts = [
      earlier(failed("a", "1", "x")),
      earlier(failed("b", "2", "x")),
      earlier(failed("c", "3", "x")),
    ];
    const d = decideGate(gateFacts({ head_tree_sha: TREE, attempts }));
    expect(d.state).toBe("pending");
    expect(HEAD).not.toBe(sha("c"));
  });
});
