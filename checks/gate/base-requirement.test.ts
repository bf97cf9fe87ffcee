import { describe, expect, it } from "vitest";
import type { SetupFact } from "../../schemas/gate.js";
import { commandEvidence, gateFacts } from "../../test/support/gate-facts.js";
import { holdPass, mergeQueueAdvice, passHeldBecause } from "./base-requirement.js";
import { decideGate } from "./decide.js";

const setup = (
  branch: string,
  requires: SetupFact["requires"],
  merge_queue: boolean | null = false,
): SetupFact => ({
  branch,
  status: requires === "this_app" ? "ok" : "problem",
  summary: `read ${branch}`,
  fix: null,
  requires,
  merge_queue,
  read_at: "2026-12-02T11:00:00Z",
});

/** Accepted facts (both commands passed) on a base `evil`, with these readings. */
const onEvil = (base: SetupFact | null, main: SetupFact | null) => {
  const facts = gateFacts({ evidence: [commandEvidence()], setup: base, default_setup: main });
  facts.pull_request = { ...facts.pull_request, base_ref: "evil" };
  return facts;
};

describe("passHeldBecause: a pass is written only where it counts (issue 26)", () => {
  it("holds a pass on a base nobody requires agate on while the default branch requires it", () => {
    expect(passHeldBecause(onEvil(setup("evil", "none"), setup("main", "this_app")))).toBe(
      "`evil` requires agate from nobody, and `main` does: a pass computed for `evil` would stand for this commit if it were proposed to `main`",
    );
    expect(passHeldBecause(onEvil(setup("evil", "other_app"), setup("main", "unknown")))).toBe(
      "`evil` requires agate from nobody, and `main` may (its rules could not be read): a pass computed for `evil` would stand for this commit if it were proposed to `main`",
    );
    expect(passHeldBecause(onEvil(setup("evil", "unknown"), null))).toContain(
      "whether `evil` requires agate could not be read (read evil)",
    );
  });

  it("writes it where the base requires agate, or where the repository requires it nowhere (agate only advises)", () => {
    expect(passHeldBecause(onEvil(setup("evil", "this_app"), null))).toBeNull();
    expect(passHeldBecause(onEvil(setup("evil", "any_source"), null))).toBeNull();
    expect(passHeldBecause(onEvil(setup("evil", "none"), setup("main", "none")))).toBeNull();
    // The base is the default branch: nothing else was read.
    expect(passHeldBecause(onEvil(setup("evil", "none"), null))).toBeNull();
    // Not read at all (facts without a reader).
    expect(passHeldBecause(onEvil(null, null))).toBeNull();
  });

  it("decideGate holds success and neutral in progress, saying why; a failure is never held", () => {
    const held = decideGate(onEvil(setup("evil", "none"), setup("main", "this_app")));
    expect(held).toMatchObject({ state: "accepted", conclusion: null });
    expect(held.title).toBe("Accepted on 1111111; not marked passing on `evil`, see why below");
    expect(held.held).toContain("`evil` requires agate from nobody");
    // Not gated (neutral, a pass to GitHub) is held the same way.
    const notGated = onEvil(setup("evil", "none"), setup("main", "this_app"));
    notGated.config = { status: "missing", path: ".github/agate.yml" };
    expect(decideGate(notGated)).toMatchObject({ state: "not_gated", conclusion: null });
    const failing = onEvil(setup("evil", "none"), setup("main", "this_app"));
    failing.evidence = [commandEvidence([0, 1])];
    expect(decideGate(failing)).toMatchObject({ state: "rejected", conclusion: "failure" });
    const decision = decideGate(failing);
    expect(holdPass(failing, decision)).toBe(decision);
  });
});

describe("mergeQueueAdvice: the window only a merge queue closes", () => {
  const facts = (base: SetupFact | null) => ({ ...gateFacts(), setup: base });
  it("is said on a pass on a base that requires agate without a merge queue", () => {
    expect(mergeQueueAdvice(facts(setup("main", "this_app")), { conclusion: "success" })).toContain(
      "A merge queue on `main` closes that",
    );
  });

  it("is not said with a merge queue, on no pass, or where agate does not count", () => {
    expect(
      mergeQueueAdvice(facts(setup("main", "this_app", true)), { conclusion: "success" }),
    ).toBeNull();
    expect(
      mergeQueueAdvice(facts(setup("main", "this_app", null)), { conclusion: "success" }),
    ).toBeNull();
    expect(
      mergeQueueAdvice(facts(setup("main", "this_app")), { conclusion: "failure" }),
    ).toBeNull();
    expect(mergeQueueAdvice(facts(setup("main", "none")), { conclusion: "success" })).toBeNull();
    expect(mergeQueueAdvice(facts(null), { conclusion: "success" })).toBeNull();
  });
});
