import { describe, expect, it } from "vitest";
import {
  CONFIG_TEXT,
  commandEvidence,
  configFact,
  gateFacts,
} from "../../test/support/gate-facts.js";
import { firstPassPlan } from "../../test/support/gate-pass.js";
import { mergeGroupFacts } from "../../test/support/merge-group-facts.js";
import { cutTitle, GITHUB_TITLE_LIMIT } from "../markdown.js";
import { decideGate } from "./decide.js";
import { decideMergeGroup, renderMergeGroupSummary } from "./merge-group.js";
import { renderGateSummary } from "./render.js";
import { reportOnlyTitle } from "./report-only.js";

const REPORT_ONLY = `${CONFIG_TEXT}gate:\n  report_only: true\n`;

describe("gate.report_only: what agate would decide, never blocking", () => {
  it("a failing command is reported as rejected, but the check concludes neutral and no label is set", () => {
    const facts = gateFacts({
      config: configFact(REPORT_ONLY),
      evidence: [commandEvidence([0, 3])],
      pull_request: { ...gateFacts().pull_request, labels: ["agate:rejected", "agent"] },
    });
    const decision = decideGate(facts);
    expect(decision).toMatchObject({ state: "rejected", conclusion: "neutral", report_only: true });
    // The state once, in the README's words: not "would be rejected: Rejected on".
    expect(decision.title).toBe(
      "Report only: would be rejected on 1111111: 1 of 2 required commands failed (lint)",
    );
    const summary = renderGateSummary(decision, facts);
    expect(summary.split("\n")[0]).toMatch(
      /^\*\*Report only:\*\* this check never blocks a merge \(gate\.report_only in the base config\)\. Enforced, it would be rejected\. \*\*Next:\*\* .*lint/,
    );
    const plan = firstPassPlan(facts, decision);
    expect(plan.check?.conclusion).toBe("neutral");
    // agate's labels show the state of a gate; there is none, so a stray one goes.
    expect(plan.labels).toEqual({ remove: ["agate:rejected"], add: [] });
    // Enforced, the same facts fail the check.
    const enforced = decideGate({ ...facts, config: configFact() });
    expect([enforced.state, enforced.conclusion, enforced.report_only]).toEqual([
      "rejected",
      "failure",
      undefined,
    ]);
  });

  it("waiting is neutral too (a check in progress would hold a merge where it is required)", () => {
    const facts = gateFacts({ config: configFact(REPORT_ONLY) });
    const decision = decideGate(facts);
    expect([decision.state, decision.conclusion]).toEqual(["pending", "neutral"]);
    // Users read "waiting"; "pending" is agate's own word for it.
    expect(decision.title).toMatch(
      /^Report only: would be waiting on 1111111: no command record from /,
    );
    expect(decision.title).not.toMatch(/pending|Waiting/);
    expect(renderGateSummary(decision, facts).split("\n")[0]).toContain(
      "Enforced, it would be waiting. Nothing to do yet:",
    );
  });

  it("a long title is cut at a word with … within GitHub's 255 characters", () => {
    const long = `Rejected on 1111111: ${"word ".repeat(60)}`.trim();
    const title = reportOnlyTitle(cutTitle(long));
    expect(title.length).toBeLessThanOrEqual(GITHUB_TITLE_LIMIT);
    expect(title).toMatch(/^Report only: would be rejected on 1111111: (word )+word…$/);
  });

  it("every enforced title's state is named once", () => {
    expect(reportOnlyTitle("Escalated on 1111111: src/a.ts is protected")).toBe(
      "Report only: would be escalated on 1111111: src/a.ts is protected",
    );
    expect(reportOnlyTitle("Accepted merge group 1111111: the required commands passed")).toBe(
      "Report only: merge group 1111111 would be accepted: the required commands passed",
    );
    expect(reportOnlyTitle("Waiting on merge group 1111111: no record yet")).toBe(
      "Report only: merge group 1111111 would be waiting: no record yet",
    );
    expect(reportOnlyTitle("Rejected merge group 1111111 (#7): lint failed")).toBe(
      "Report only: merge group 1111111 (#7) would be rejected: lint failed",
    );
  });

  it("a merge group is never failed or held by a gate being tried out", () => {
    const config = configFact(REPORT_ONLY);
    const group = mergeGroupFacts(
      { config, changed_files: [], deadline_passed: true },
      { head_ref: "refs/heads/gh-readonly-queue/main/pr-7-aaaa" },
    );
    const decision = decideMergeGroup(group);
    expect(decision.conclusion).toBe("neutral");
    expect(decision.title).toMatch(/^Report only: merge group 1111111 \(#7\) would be rejected: /);
    // Its summary does not say the group may not merge: it merges.
    const first = renderMergeGroupSummary(decision, group).split("\n")[0];
    expect(first).toMatch(/^\*\*Report only:\*\* .*Enforced, it would be rejected\./);
    expect(first).not.toContain("may not merge");
    expect(decideMergeGroup({ ...group, config: configFact() }).conclusion).toBe("failure");
  });
});
