import { randomBytes } from "node:crypto";
import { buildBundle, referencedIssues } from "../../checks/evaluator/bundle.js";
import { buildEvaluatorPrompt } from "../../checks/evaluator/prompt.js";
import type { CommandRecord } from "../../schemas/command-record.js";
import type { Config } from "../../schemas/config.js";
import type { EvaluationOutcome, EvaluatorRun } from "../../schemas/evaluation.js";
import type { EvaluationFact, GateFacts } from "../../schemas/gate.js";
import { createJudge, type Judge, type JudgeOptions } from "../evaluator/judge.js";
import { type EvaluatorPolicy, policyRefusal } from "../evaluator/policy.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { Store } from "../store/store.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The repository's own instructions, read from the base commit when present. */
const INSTRUCTION_FILES = ["AGENTS.md", "CONTRIBUTING.md", ".github/CONTRIBUTING.md"];

type AskedConfig = Extract<Config["evaluator"], { kind: "llm" | "command" }>;

/** How the App reaches its evaluator; tests point it at local servers and scripts. */
export interface EvaluatorDeps {
  policy: EvaluatorPolicy;
  judgeOptions: JudgeOptions;
  /** Fresh randomness for the fences; replaced only to make a test's request predictable. */
  boundary?: () => string;
  /** Replaced only in tests that count judges made. */
  createJudge?: (config: AskedConfig, options: JudgeOptions) => Judge;
}

/**
 * Asks the evaluator about the head's tree and stores what came of it: a verdict, or a failure
 * that never accepts. Budgets are counters checked before anything is sent.
 */
export async function askEvaluator(options: {
  github: GitHubAdapter;
  store: Store;
  facts: GateFacts;
  config: Config;
  configDigest: string;
  record: CommandRecord | null;
  deps: EvaluatorDeps;
  now: () => Date;
}): Promise<EvaluationFact> {
  const { github, store, facts, config, deps, now } = options;
  const evaluator = config.evaluator;
  if (evaluator.kind !== "llm" && evaluator.kind !== "command") return facts.evaluation;
  const pr = facts.pull_request;
  const tree = facts.head_tree_sha;
  if (!tree) return facts.evaluation;

  const dayBudget = config.budgets.evaluator_calls_per_pr_per_day;
  const since = new Date(now().getTime() - DAY_MS).toISOString();
  const today = (
    await store.listEvaluations({ repository: pr.repository, pullNumber: pr.number, since })
  ).filter((e) => e.run.requests > 0);
  if (today.length >= dayBudget) {
    const oldest = today[0]?.at ?? now().toISOString();
    return {
      status: "over_budget",
      budget: "evaluator_calls_per_pr_per_day",
      detail: `${today.length} evaluator calls for this pull request in the last 24 h reached budgets.evaluator_calls_per_pr_per_day (${dayBudget}); raise it in .github/agate.yml on the base branch, or wait until ${new Date(Date.parse(oldest) + DAY_MS).toISOString()}`,
    };
  }

  const detail = await github.pullRequestDetail(pr.number);
  const issueNumbers = referencedIssues(`${detail.title}\n${detail.body}`, pr.repository).filter(
    (n) => n !== pr.number,
  );
  const [issues, instructions, diff] = await Promise.all([
    Promise.all(issueNumbers.map((n) => github.issue(n))),
    Promise.all(
      INSTRUCTION_FILES.map(async (path) => {
        const file = await github.fileAt(path, pr.base_sha);
        return file ? { path, text: file.text } : null;
      }),
    ),
    github.compareDiff(pr.base_sha, pr.head_sha),
  ]);
  const listed = new Set(diff.map((f) => f.filename));
  const bundle = buildBundle({
    repository: pr.repository,
    pullNumber: pr.number,
    baseSha: pr.base_sha,
    headSha: pr.head_sha,
    treeSha: tree,
    title: detail.title,
    body: detail.body,
    issues: issues.filter((i) => i !== null),
    instructions: instructions.filter((i) => i !== null),
    rubric: evaluator.rubric,
    minScore: evaluator.min_score,
    files: diff,
    unlisted: facts.changed_files
      .filter((f) => !listed.has(f.filename))
      .map((f) => ({ filename: f.filename, status: f.status })),
    commands: options.record?.commands ?? [],
    handoff: facts.handoff?.file
      ? { path: facts.handoff.file.path, text: facts.handoff.file.text }
      : null,
    tokenLimit: config.budgets.evaluator_bundle_tokens,
  });
  if (bundle.budget.estimated_tokens > bundle.budget.token_limit) {
    return {
      status: "over_budget",
      budget: "evaluator_bundle_tokens",
      detail: `even cut down, what the evaluator must see is about ${bundle.budget.estimated_tokens} tokens, over budgets.evaluator_bundle_tokens (${bundle.budget.token_limit}); raise it in .github/agate.yml on the base branch`,
    };
  }

  const started = Date.now();
  let outcome: EvaluationOutcome;
  let run: EvaluatorRun;
  const refusal = policyRefusal(evaluator, deps.policy);
  if (refusal) {
    outcome = { status: "failed", ...refusal };
    run = {
      kind: evaluator.kind,
      provider: evaluator.kind === "llm" ? evaluator.provider : null,
      model: evaluator.kind === "llm" ? evaluator.model : null,
      prompt_version: bundle.prompt_version,
      input_tokens: null,
      output_tokens: null,
      latency_ms: Date.now() - started,
      requests: 0,
    };
  } else {
    const judge = (deps.createJudge ?? createJudge)(evaluator, deps.judgeOptions);
    const prompt = buildEvaluatorPrompt(bundle, freshBoundary(deps, bundle));
    ({ outcome, run } = await judge.judge({ bundle, prompt }));
  }
  const evaluation = await store.appendEvaluation({
    repository: pr.repository,
    pull_number: pr.number,
    head_sha: pr.head_sha,
    tree_sha: tree,
    config_digest: options.configDigest,
    run,
    outcome,
    at: now().toISOString(),
  });
  return { status: "judged", evaluation };
}

/** A boundary no text in the bundle contains (a collision is astronomically unlikely; be sure). */
function freshBoundary(deps: EvaluatorDeps, bundle: unknown): string {
  const text = JSON.stringify(bundle);
  for (;;) {
    const boundary = deps.boundary?.() ?? randomBytes(16).toString("hex");
    if (!text.includes(boundary)) return boundary;
  }
}

/**
 * Whether to ask now: the gate is waiting on nothing but the evaluator (commands and handoff
 * hold), nothing is stored for this tree, or a person asked again after a failure, or asked
 * again about a verdict while the per-tree budget allows another call.
 */
export async function evaluatorDue(options: {
  facts: GateFacts;
  config: Config;
  store: Store;
  rerun: boolean;
}): Promise<boolean> {
  const { facts, config } = options;
  if (config.evaluator.kind !== "llm" && config.evaluator.kind !== "command") return false;
  const fact = facts.evaluation;
  if (fact.status === "not_asked") return true;
  if (!options.rerun || fact.status !== "judged") return false;
  if (fact.evaluation.outcome.status === "failed") return true;
  const sameTree = await options.store.listEvaluations({
    repository: facts.pull_request.repository,
    pullNumber: facts.pull_request.number,
    treeSha: fact.evaluation.tree_sha,
  });
  const verdicts = sameTree.filter(
    (e) => e.outcome.status === "verdict" && e.config_digest === fact.evaluation.config_digest,
  ).length;
  return verdicts < config.budgets.evaluator_calls_per_tree;
}
