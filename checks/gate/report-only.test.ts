import { describe, expect, it } from "vitest";
import type { MergeGroupFacts } from "../../schemas/merge-group.js";
import {
  BASE,
  CONFIG_TEXT,
  commandEvidence,
  configFact,
  gateFacts,
  HEAD,
} from "../../test/support/gate-facts.js";
import { decideGate } from "./decide.js";
import { decideMergeGroup } from "./merge-group.js";
import { planGatePass } from "./plan.js";
import { renderGateSummary } from "./render.js";

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
    expect(decision.title).toMatch(/^Report only, would be rejected: /);
    const summary = renderGateSummary(decision, facts);
    expect(summary.split("\n")[0]).toMatch(
      /^\*\*Report only:\*\* this check never blocks a merge \(gate\.report_only in the base config\)\. Enforced, it would be rejected; its next work item: .*lint/,
    );
    const plan = planGatePass({
      facts,
      decision,
      existing: null,
      evaluatorDue: false,
      rerunEvaluator: false,
    });
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
    const decision = decideGate(gateFacts({ config: configFact(REPORT_ONLY) }));
    expect([decision.state, decision.conclusion]).toEqual(["pending", "neutral"]);
  });

  it("a merge group is never failed or held by a gate being tried out", () => {
    const config = configFact(REPORT_ONLY);
    const group: MergeGroupFacts = {
      merge_group: {
        repository: "octo/widgets",
        head_sha: HEAD,
        head_ref: "refs/heads/gh-readonly-queue/main/pr-7-aaaa",
        base_sha: BASE,
      },
      config,
      changed_files: [],
      changed_files_listing: { complete: true, reason: null },
      evidence_source: null,
      evidence_run: null,
      evidence: [],
      deadline_passed: true,
      agate_version: "0.1.0",
    };
    const decision = decideMergeGroup(group);
    expect(decision.conclusion).toBe("neutral");
    expect(decision.title).toMatch(/^Report only, would be /);
    expect(decideMergeGroup({ ...group, config: configFact() }).conclusion).toBe("failure");
  });
});
