import { describe, expect, it } from "vitest";
import type { EvaluationOutcome } from "../../schemas/evaluation.js";
import type { CommandEvidence, GateFacts, ReviewVerdictFact } from "../../schemas/gate.js";
import {
  commandEvidence,
  commandRecord,
  configFact,
  gateFacts,
  HEAD,
  judgedEvaluation,
} from "../../test/support/gate-facts.js";
import { decideGate } from "./decide.js";
import { renderGateSummary } from "./render.js";

const passed: CommandEvidence = commandEvidence([0, 0]);
const failing: CommandEvidence = { ...passed, record: commandRecord([1, 0]) };

const configOf = (evaluator: string): GateFacts["config"] =>
  configFact(
    `version: 1\ncommands:\n  - { name: unit, run: npm test }\n  - { name: lint, run: npm run lint }\nevaluator: ${evaluator}\n`,
  );
const LLM = configOf("{ kind: llm, model: judge-1, min_score: 0.8 }");

/** The shared judged evaluation (openai judge-1 on TREE), with this outcome, for this head. */
function judged(outcome: EvaluationOutcome, headSha = HEAD): GateFacts["evaluation"] {
  const stored = judgedEvaluation({ complete: false, score: 0, missing: [] });
  if (stored.status !== "judged") throw new Error("judgedEvaluation gives a judged evaluation");
  return { status: "judged", evaluation: { ...stored.evaluation, head_sha: headSha, outcome } };
}
const verdict = (complete: boolean, score: number, missing: string[] = []) =>
  judged({ status: "verdict", verdict: { complete, score, missing, evidence: ["e"] } });

describe("the evaluator requirement", () => {
  it("waits without asking while a command fails: the decision is the commands'", () => {
    const d = decideGate(gateFacts({ config: LLM, evidence: [failing] }));
    expect(d.state).toBe("rejected");
    expect(d.requirements.find((r) => r.id === "evaluator")).toMatchObject({
      status: "waiting",
      reason: expect.stringContaining("no evaluator call yet"),
    });
  });

  it("waits for the evaluator once the commands pass and nothing is stored", () => {
    const d = decideGate(gateFacts({ config: LLM, evidence: [passed] }));
    expect([d.state, d.conclusion]).toEqual(["pending", null]);
    expect(d.title).toContain("asking the evaluator about tree 4444444");
  });

  it("accepts only complete, at the minimum score, with nothing missing", () => {
    const ok = decideGate(
      gateFacts({ config: LLM, evidence: [passed], evaluation: verdict(true, 0.8) }),
    );
    expect([ok.state, ok.conclusion]).toEqual(["accepted", "success"]);
    expect(ok.requirements.find((r) => r.id === "evaluator")?.reason).toBe(
      "complete, score 0.8 ≥ 0.8 (llm openai judge-1)",
    );
    for (const evaluation of [
      verdict(true, 0.79),
      verdict(false, 1),
      verdict(true, 0.9, ["docs"]),
    ]) {
      const d = decideGate(gateFacts({ config: LLM, evidence: [passed], evaluation }));
      expect([d.state, d.conclusion]).toEqual(["rejected", "failure"]);
    }
  });

  it("turns the missing items into the next work items, as a checklist in the summary", () => {
    const facts = gateFacts({
      config: LLM,
      evidence: [passed],
      evaluation: verdict(false, 0.4, ["Document the retry count", "Test the third retry"]),
    });
    const d = decideGate(facts);
    expect(d.title).toBe(
      "Rejected on 1111111: not complete, score 0.4 < 0.8, 2 missing items (llm openai judge-1)",
    );
    // The evaluator's words are shown as code: it read what the agent wrote.
    expect(d.missing).toEqual(["`Document the retry count`", "`Test the third retry`"]);
    const summary = renderGateSummary(d, facts);
    // The first is the first line's Next; the others follow as a checklist, each said once.
    expect(summary.split("\n")[0]).toContain("**Next:** `Document the retry count`");
    expect(summary).toContain("### More work items\n\n- [ ] `Test the third retry`");
  });

  it("says when a verdict was reused from another commit with the identical tree", () => {
    const d = decideGate(
      gateFacts({ config: LLM, evidence: [passed], evaluation: verdict(true, 0.9) }),
    );
    expect(d.state).toBe("accepted");
    const reused = decideGate(
      gateFacts({
        config: LLM,
        evidence: [passed],
        evaluation: judged(
          { status: "verdict", verdict: { complete: true, score: 0.9, missing: [], evidence: [] } },
          "9".repeat(40),
        ),
      }),
    );
    expect(reused.requirements.find((r) => r.id === "evaluator")?.reason).toContain(
      "judged on 9999999 with the identical tree",
    );
  });

  it("an evaluator that failed blocks with the fix; a spent budget caps, naming it", () => {
    const blocked = decideGate(
      gateFacts({
        config: LLM,
        evidence: [passed],
        evaluation: judged({
          status: "failed",
          error: "HTTP 401 from http://llm/v1/chat/completions",
          fix: "set AGATE_EVALUATOR_API_KEY",
        }),
      }),
    );
    expect([blocked.state, blocked.conclusion]).toEqual(["blocked", "failure"]);
    expect(blocked.title).toBe(
      "Blocked on 1111111: evaluator unavailable (llm openai judge-1): HTTP 401 from http://llm/v1/chat/completions",
    );
    // The fix once, as the work item (the first line's Next), not in the row and the title too.
    expect(blocked.missing).toEqual([
      'Ask agate\'s operator to fix the evaluator: set AGATE_EVALUATOR_API_KEY. Then choose "Re-run evaluator" on this check',
    ]);
    const capped = decideGate(
      gateFacts({
        config: LLM,
        evidence: [passed],
        evaluation: {
          status: "over_budget",
          budget: "evaluator_calls_per_pr_per_day",
          detail: "10 evaluator calls ... budgets.evaluator_calls_per_pr_per_day (10)",
        },
      }),
    );
    expect([capped.state, capped.conclusion]).toEqual(["capped", "failure"]);
    expect(capped.title).toContain("budgets.evaluator_calls_per_pr_per_day");
    // A bundle over budget is an outcome stored for the tree: capped, never accepted.
    const tooLarge = decideGate(
      gateFacts({
        config: LLM,
        evidence: [passed],
        evaluation: judged({
          status: "over_budget",
          budget: "evaluator_bundle_tokens",
          detail: "about 900 tokens, over budgets.evaluator_bundle_tokens (500)",
          estimated_tokens: 900,
          token_limit: 500,
        }),
      }),
    );
    expect([tooLarge.state, tooLarge.conclusion]).toEqual(["capped", "failure"]);
    expect(tooLarge.title).toBe(
      "Capped on 1111111: budgets.evaluator_bundle_tokens reached: about 900 tokens, over budgets.evaluator_bundle_tokens (500)",
    );
  });
});

describe("the review evaluator", () => {
  const REVIEW = configOf("{ kind: review }");
  const review = (overrides: Partial<ReviewVerdictFact>): ReviewVerdictFact => ({
    login: "octocat",
    state: "APPROVED",
    commit_id: HEAD,
    submitted_at: "2026-12-02T11:00:00Z",
    body: "",
    maintainer: true,
    ...overrides,
  });
  const decide = (reviews: ReviewVerdictFact[]) =>
    decideGate(gateFacts({ config: REVIEW, evidence: [passed], reviews }));

  it("a maintainer's approval on the head signs off; on an older commit it does not", () => {
    expect(decide([review({})]).state).toBe("accepted");
    const old = decide([review({ commit_id: "6".repeat(40) })]);
    expect(old.state).toBe("pending");
    expect(old.requirements.find((r) => r.id === "evaluator")?.reason).toContain(
      "octocat's approval is for 6666666, an older commit",
    );
  });

  it("a bot's or the author's approval does not count", () => {
    const bot = decide([review({ login: "helper[bot]", maintainer: false })]);
    expect(bot.state).toBe("pending");
    expect(bot.title).toContain("helper[bot]'s approval does not count (a bot)");
  });

  it("a maintainer's request for changes rejects, its list items become the work", () => {
    const d = decide([
      review({
        state: "CHANGES_REQUESTED",
        body: "Two things:\n- [ ] handle the empty list\n* document the flag\n",
      }),
      review({ login: "hubot", commit_id: HEAD }),
    ]);
    expect([d.state, d.conclusion]).toEqual(["rejected", "failure"]);
    expect(d.missing).toEqual(["`handle the empty list`", "`document the flag`"]);
    const prose = decide([review({ state: "CHANGES_REQUESTED", body: "Please split this PR." })]);
    expect(prose.missing).toEqual(["Address what octocat asked for: `Please split this PR.`"]);
  });
});
