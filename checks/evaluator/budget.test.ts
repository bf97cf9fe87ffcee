import { describe, expect, it } from "vitest";
import { EVALUATOR_PROMPT_VERSION, type Evaluation } from "../../schemas/evaluation.js";
import type { EvaluationFact } from "../../schemas/gate.js";
import { loadedConfig } from "../../test/support/gate-facts.js";
import {
  answeringEvaluation,
  bundleOverBudget,
  DAY_MS,
  dailyBudget,
  dayStart,
  evaluationFact,
  evaluatorDue,
} from "./budget.js";

const HEAD = "1".repeat(40);
const OTHER_HEAD = "2".repeat(40);
const MAIN = "3".repeat(40);
const EVIL = "4".repeat(40);
const TREE = "5".repeat(40);
const DIGEST = "d".repeat(64);

let id = 0;
function evaluation(overrides: Partial<Evaluation> = {}): Evaluation {
  id += 1;
  return {
    id,
    repository: "octo/widgets",
    pull_number: 7,
    head_sha: HEAD,
    base_sha: MAIN,
    merge_base_sha: MAIN,
    tree_sha: TREE,
    config_digest: DIGEST,
    run: {
      kind: "llm",
      provider: "openai",
      model: "judge-1",
      prompt_version: EVALUATOR_PROMPT_VERSION,
      input_tokens: 10,
      output_tokens: 5,
      latency_ms: 100,
      requests: 1,
    },
    outcome: {
      status: "verdict",
      verdict: { complete: true, score: 0.9, missing: [], evidence: [] },
    },
    at: "2026-12-02T10:00:00.000Z",
    ...overrides,
  };
}

const failed = (): Evaluation =>
  evaluation({ outcome: { status: "failed", error: "timed out", fix: "raise the timeout" } });

function config(budgets: string) {
  const text = `version: 1\ncommands:\n  - { name: unit, run: npm test }\nbudgets:\n${budgets}`;
  return loadedConfig(text).config;
}

/** The pull request at HEAD on MAIN's commit, the diff from merge base `mergeBase`. */
const at = (baseSha = MAIN, mergeBaseSha: string | null = MAIN, headSha = HEAD) => ({
  headSha,
  baseSha,
  mergeBaseSha,
});

describe("the evaluation that answers a tree", () => {
  it("is the newest under this config and prompt version, on this base commit", () => {
    const older = evaluation();
    const newer = evaluation();
    expect(answeringEvaluation([older, newer], at(), DIGEST)).toBe(newer);
    expect(answeringEvaluation([older], at(), "e".repeat(64))).toBeNull();
    const oldPrompt = evaluation({ run: { ...older.run, prompt_version: "agate-eval-0" } });
    expect(answeringEvaluation([oldPrompt], at(), DIGEST)).toBeNull();
  });

  it("the same head judged against another base commit answers nothing here (issue 26)", () => {
    // The agent's pull request into its own branch (a copy of the config, the same digest) was
    // judged there, then retargeted to main with the same head: that verdict read another diff.
    const onEvil = evaluation({ base_sha: EVIL, merge_base_sha: EVIL });
    expect(answeringEvaluation([onEvil], at(), DIGEST)).toBeNull();
    expect(answeringEvaluation([onEvil], at(EVIL, EVIL), DIGEST)).toBe(onEvil);
    // The newest on this base answers, whatever was judged on another base since.
    const onMain = evaluation();
    expect(answeringEvaluation([onMain, onEvil], at(), DIGEST)).toBe(onMain);
  });

  it("another head of the same tree answers on the base commit it was judged against, only", () => {
    const theirs = evaluation({ head_sha: OTHER_HEAD });
    expect(answeringEvaluation([theirs], at(), DIGEST)).toBe(theirs);
    expect(
      answeringEvaluation([evaluation({ head_sha: OTHER_HEAD, base_sha: EVIL })], at(), DIGEST),
    ).toBeNull();
  });

  it("another head of the same tree answers only from the merge base its diff started at", () => {
    // main once held code X; its newest commit MAIN removed it. The agent's first head sat on
    // OLD, the commit before MAIN, with main's tree and X put back: its diff started at OLD,
    // where X already was, so X was no change. The same tree as a single commit on MAIN re-adds
    // X, and that diff was never shown: the first head's verdict must not answer it.
    const OLD = "6".repeat(40);
    const fromOld = evaluation({ head_sha: OTHER_HEAD, merge_base_sha: OLD });
    expect(answeringEvaluation([fromOld], at(MAIN, MAIN), DIGEST)).toBeNull();
    expect(answeringEvaluation([fromOld], at(MAIN, OLD), DIGEST)).toBe(fromOld);
    // Unknown here (null), only the same head answers; a row without one answers its head only.
    expect(answeringEvaluation([fromOld], at(MAIN, null), DIGEST)).toBeNull();
    const unknown = evaluation({ head_sha: OTHER_HEAD, merge_base_sha: null });
    expect(answeringEvaluation([unknown], at(MAIN, null), DIGEST)).toBeNull();
    expect(answeringEvaluation([unknown], at(MAIN, null, OTHER_HEAD), DIGEST)).toBe(unknown);
    // The same head on the same base commit has the same merge base: it answers as before.
    expect(answeringEvaluation([fromOld], at(MAIN, null, OTHER_HEAD), DIGEST)).toBe(fromOld);
  });

  it("one stored before agate kept the base answers nothing: the tree is asked once more", () => {
    expect(answeringEvaluation([evaluation({ base_sha: null })], at(), DIGEST)).toBeNull();
  });
});

describe("whether to ask now", () => {
  const judged = (e: Evaluation): EvaluationFact => ({ status: "judged", evaluation: e });
  const once = config("  evaluator_calls_per_tree: 1\n");
  const twice = config("  evaluator_calls_per_tree: 2\n");

  it("a tree nothing answers is asked; an answered one is not, without a person's re-run", () => {
    expect(evaluatorDue({ status: "not_asked" }, false, [], once)).toBe(true);
    const verdict = evaluation();
    expect(evaluatorDue(judged(verdict), false, [verdict], twice)).toBe(false);
    expect(evaluatorDue(judged(failed()), false, [], twice)).toBe(false);
  });

  it("a re-run asks again after a failure, and about a verdict only within the calls per tree", () => {
    expect(evaluatorDue(judged(failed()), true, [failed(), failed()], once)).toBe(true);
    const verdict = evaluation();
    expect(evaluatorDue(judged(verdict), true, [verdict], once)).toBe(false);
    expect(evaluatorDue(judged(verdict), true, [verdict], twice)).toBe(true);
    expect(evaluatorDue(judged(verdict), true, [evaluation(), verdict], twice)).toBe(false);
    // Failures cost no verdict, and another config's verdicts are not this one's.
    const elsewhere = evaluation({ config_digest: "e".repeat(64) });
    expect(evaluatorDue(judged(verdict), true, [failed(), elsewhere, verdict], twice)).toBe(true);
  });

  it("the calls per tree count on every base: retargeting does not refill them", () => {
    const onEvil = evaluation({ base_sha: EVIL });
    const verdict = evaluation();
    expect(evaluatorDue(judged(verdict), true, [onEvil, verdict], twice)).toBe(false);
  });

  it("a budget reached is not asked again, re-run or not", () => {
    const over: EvaluationFact = {
      status: "over_budget",
      budget: "evaluator_bundle_tokens",
      detail: "",
    };
    expect(evaluatorDue(over, true, [], twice)).toBe(false);
  });
});

describe("the calls per pull request per day", () => {
  const now = new Date("2026-12-02T12:00:00.000Z");
  const daily = config("  evaluator_calls_per_pr_per_day: 2\n");

  it("the day is the 24 hours before now", () => {
    expect(dayStart(now)).toBe("2026-12-01T12:00:00.000Z");
    expect(DAY_MS).toBe(86_400_000);
  });

  it("counts only calls that sent a request; reached, it says when the oldest leaves the day", () => {
    const refused = evaluation({ run: { ...evaluation().run, requests: 0 } });
    const first = evaluation({ at: "2026-12-02T09:30:00.000Z" });
    expect(dailyBudget([refused, first, refused], daily, now)).toBeNull();
    expect(dailyBudget([first, evaluation()], daily, now)).toEqual({
      status: "over_budget",
      budget: "evaluator_calls_per_pr_per_day",
      detail:
        "2 evaluator calls for this pull request in the last 24 h reached budgets.evaluator_calls_per_pr_per_day (2); raise it in .github/agate.yml on the base branch, or wait until 2026-12-03T09:30:00.000Z",
    });
  });

  it("with more calls than the budget (it was lowered), it opens when enough have left the day", () => {
    const at = (hour: string) => evaluation({ at: `2026-12-02T${hour}:00:00.000Z` });
    const three = [at("08"), at("09"), at("10")];
    expect(dailyBudget(three, daily, now)?.detail).toMatch(/wait until 2026-12-03T09:00:00.000Z$/);
  });
});

describe("the tokens per bundle", () => {
  it("a bundle that fits, at the limit too, is asked about; one over it is not", () => {
    expect(bundleOverBudget({ token_limit: 100, estimated_tokens: 100, cuts: [] })).toBeNull();
    expect(bundleOverBudget({ token_limit: 100, estimated_tokens: 101, cuts: [] })).toEqual({
      status: "over_budget",
      budget: "evaluator_bundle_tokens",
      detail:
        "even cut down, what the evaluator must see is about 101 tokens, over budgets.evaluator_bundle_tokens (100); raise it in .github/agate.yml on the base branch",
      estimated_tokens: 101,
      token_limit: 100,
    });
  });

  it("a tree whose stored outcome is over budget reads as over budget, and is not asked again, not even on a re-run", () => {
    const over = bundleOverBudget({ token_limit: 100, estimated_tokens: 101, cuts: [] });
    if (!over) throw new Error("over budget expected");
    const stored = evaluation({ run: { ...evaluation().run, requests: 0 }, outcome: over });
    const fact = evaluationFact(stored);
    expect(fact).toEqual({ status: "over_budget", budget: over.budget, detail: over.detail });
    expect(evaluatorDue(fact, true, [stored], config("  evaluator_calls_per_tree: 3\n"))).toBe(
      false,
    );
    expect(evaluationFact(null)).toEqual({ status: "not_asked" });
    const judged = evaluation();
    expect(evaluationFact(judged)).toEqual({ status: "judged", evaluation: judged });
  });
});
