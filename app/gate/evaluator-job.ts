import { randomBytes } from "node:crypto";
import {
  answeringEvaluation,
  bundleOverBudget,
  dailyBudget,
  dayStart,
} from "../../checks/evaluator/budget.js";
import { type BundleInput, buildBundle, referencedIssues } from "../../checks/evaluator/bundle.js";
import { buildEvaluatorPrompt } from "../../checks/evaluator/prompt.js";
import type { Config } from "../../schemas/config.js";
import {
  EVALUATOR_PROMPT_VERSION,
  type Evaluation,
  type EvaluationBundle,
  type EvaluationOutcome,
  type EvaluatorRun,
} from "../../schemas/evaluation.js";
import { type EvaluatorInputs, type EvaluatorJob, GATE_JOBS } from "../../schemas/jobs/gate.js";
import { jobOf } from "../../schemas/jobs/index.js";
import { createJudge, type Judge, type JudgeOptions } from "../evaluator/judge.js";
import { type EvaluatorPolicy, policyRefusal } from "../evaluator/policy.js";
import type { Comparison, GitHubAdapter } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import type { EvaluationStore } from "../store/ports/evaluation-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { ObservationStore } from "../store/ports/observation-store.js";

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

export interface EvaluatorJobDeps {
  github: GitHubAdapter;
  store: EvaluationStore & Pick<ObservationStore, "newestHead"> & Pick<JobQueue, "enqueue">;
  reads: ImmutableReads;
  /** How to reach the evaluator; absent: a configured llm or command evaluator is unavailable. */
  evaluator: EvaluatorDeps | undefined;
  now: () => Date;
}

/** One job's ask: what it is about, under which config, and what it is shown. */
interface Ask {
  job: EvaluatorJob;
  inputs: EvaluatorInputs;
  config: Config;
  evaluator: AskedConfig;
}

/**
 * The `gate.evaluator` job: asks the evaluator about one tree under its own lease (a slow model
 * holds no gate worker and not the pull request's queue), stores what came of it (a verdict, a
 * failure that never accepts, or a bundle over budget), and queues a fresh gate pass, which
 * decides on it. It is shown what the pass that asked read and believed (the payload's inputs)
 * and what is read by SHA; it reads the pull request no more. Budgets are checked before
 * anything is sent.
 */
export async function runEvaluatorJob(
  deps: EvaluatorJobDeps,
  job: EvaluatorJob,
): Promise<{ asked: boolean; outcome: string }> {
  const { github, store } = deps;
  const done = async (outcome: string, asked: boolean) => {
    await store.enqueue(
      jobOf(GATE_JOBS.pullRequest, {
        repository: job.repository,
        installation: job.installation,
        number: job.number,
        trigger: { event: GATE_JOBS.evaluator.kind, action: null, delivery_id: null },
      }),
    );
    return { asked, outcome };
  };
  const { inputs } = job;
  // Queued by an agate before issue 30: its pass queues one that carries them.
  if (!inputs) return done("queued without its inputs; the next pass asks again", false);
  const key = { repository: job.repository, pullNumber: job.number };
  // The pull request seen last with another head or base (a push, a retarget, a head that moved
  // back to one seen before, the base branch moved on): the pass that saw it asks about its own
  // tree, against its own base commit, and the one queued here finds what the pull request has
  // now. A base commit not known where it was seen last (null) leaves the branch to compare.
  const newest = await store.newestHead(key);
  if (
    newest &&
    (newest.head_sha !== job.head_sha ||
      newest.base_ref !== inputs.base_ref ||
      (newest.base_sha !== null && newest.base_sha !== inputs.base_sha))
  ) {
    return done("the head moved on; nothing asked", false);
  }
  const config = await deps.reads.config(github, inputs.base_sha);
  if (config.status !== "ok" || config.digest !== job.config_digest) {
    return done("the base config changed; the next pass decides", false);
  }
  const evaluator = config.config.evaluator;
  if (evaluator.kind !== "llm" && evaluator.kind !== "command") {
    return done("no evaluator is configured now", false);
  }
  // Queued twice (a redelivery, two passes), the tree is judged once on this base: by the pass's
  // own rule, so the job never calls "judged" what the pass does not take (which would send it
  // back for ever), nor asks again what the pass would take.
  const sameTree = await store.listEvaluations({ ...key, treeSha: job.tree_sha });
  if (!job.rerun && (await judgedHere(deps, job, inputs, sameTree))) {
    return done("already judged", false);
  }
  const outcome = await askEvaluator(deps, { job, inputs, config: config.config, evaluator });
  return done(outcome, true);
}

/**
 * Whether a stored evaluation answers the job's tree as the pass would take it. Another head's
 * answers only from the same merge base, so the comparison (read again for the bundle, from the
 * reads' memory) is read only when one of another head could.
 */
async function judgedHere(
  deps: EvaluatorJobDeps,
  job: EvaluatorJob,
  inputs: EvaluatorInputs,
  sameTree: readonly Evaluation[],
): Promise<boolean> {
  const at = { headSha: job.head_sha, baseSha: inputs.base_sha, mergeBaseSha: null };
  if (answeringEvaluation(sameTree, at, job.config_digest)) return true;
  if (!sameTree.some((e) => e.head_sha !== job.head_sha && e.merge_base_sha !== null)) {
    return false;
  }
  const comparison = await deps.reads.compare(deps.github, inputs.base_sha, job.head_sha);
  const mergeBaseSha = comparison.merge_base_sha;
  return answeringEvaluation(sameTree, { ...at, mergeBaseSha }, job.config_digest) !== null;
}

/**
 * Bundle inputs → budget check → ask: what the evaluator would be shown, whether the budgets let
 * it be sent (the day's calls read fresh from the store: another job may have spent them since
 * the pass looked), and the call; whatever came of it is stored for the tree.
 */
async function askEvaluator(deps: EvaluatorJobDeps, ask: Ask): Promise<string> {
  if (!deps.evaluator) {
    await storeEvaluation(deps, ask, null, idleRun(ask.evaluator, 0), {
      status: "failed",
      error: "this agate process was started without an evaluator",
      fix: "start the App with `npm start` (which wires the evaluator from AGATE_EVALUATOR_* settings)",
    });
    return "no evaluator in this process";
  }
  const at = deps.now();
  const key = { repository: ask.job.repository, pullNumber: ask.job.number };
  const today = await deps.store.listEvaluations({ ...key, since: dayStart(at) });
  if (dailyBudget(today, ask.config, at)) return "over the daily budget; the next pass says so";
  const comparison = await deps.reads.compare(deps.github, ask.inputs.base_sha, ask.job.head_sha);
  // The diff shown starts at this merge base: another head's tree answers from it only.
  const store = (run: EvaluatorRun, outcome: EvaluationOutcome) =>
    storeEvaluation(deps, ask, comparison.merge_base_sha, run, outcome);
  const bundle = buildBundle(await bundleInputs(deps, ask, comparison));
  const overBudget = bundleOverBudget(bundle.budget);
  // Nothing is sent; the outcome answers the tree under this config: the next pass says capped.
  if (overBudget) {
    await store(idleRun(ask.evaluator, 0), overBudget);
    return "over the bundle budget";
  }
  return judgeBundle(deps.evaluator, ask.evaluator, bundle, store);
}

/** The operator's policy, then the judge; what it answered (or why not) is stored. */
async function judgeBundle(
  deps: EvaluatorDeps,
  evaluator: AskedConfig,
  bundle: EvaluationBundle,
  store: (run: EvaluatorRun, outcome: EvaluationOutcome) => Promise<unknown>,
): Promise<string> {
  const started = Date.now();
  const refusal = policyRefusal(evaluator, deps.policy);
  if (refusal) {
    await store(idleRun(evaluator, Date.now() - started), { status: "failed", ...refusal });
    return "refused by the operator's policy";
  }
  const judge = (deps.createJudge ?? createJudge)(evaluator, deps.judgeOptions);
  const prompt = buildEvaluatorPrompt(bundle, freshBoundary(deps, bundle));
  const { outcome, run } = await judge.judge({ bundle, prompt });
  await store(run, outcome);
  return outcome.status;
}

function storeEvaluation(
  deps: EvaluatorJobDeps,
  ask: Ask,
  mergeBaseSha: string | null,
  run: EvaluatorRun,
  outcome: EvaluationOutcome,
) {
  const { job } = ask;
  return deps.store.appendEvaluation({
    repository: job.repository,
    pull_number: job.number,
    head_sha: job.head_sha,
    // The base it was shown: the verdict answers for this base only (checks/evaluator/budget.ts).
    base_sha: ask.inputs.base_sha,
    merge_base_sha: mergeBaseSha,
    tree_sha: job.tree_sha,
    config_digest: job.config_digest,
    run,
    outcome,
    at: deps.now().toISOString(),
  });
}

/** A run that sent nothing. */
function idleRun(evaluator: AskedConfig, latency: number): EvaluatorRun {
  return {
    kind: evaluator.kind,
    provider: evaluator.kind === "llm" ? evaluator.provider : null,
    model: evaluator.kind === "llm" ? evaluator.model : null,
    prompt_version: EVALUATOR_PROMPT_VERSION,
    input_tokens: null,
    output_tokens: null,
    latency_ms: latency,
    requests: 0,
  };
}

/**
 * What the evaluator is shown: the pass's inputs (the pull request's words, the believed
 * commands, the trace, which files changed) and, read by SHA, the diff of base...head (files past
 * the compare's 300 named from the pass's list), the base's instruction files and the handoff
 * file; the issues the words name are read as they are now.
 */
async function bundleInputs(
  deps: EvaluatorJobDeps,
  ask: Ask,
  comparison: Comparison,
): Promise<BundleInput> {
  const { github, reads } = deps;
  const { job, inputs, config } = ask;
  const issueNumbers = referencedIssues(`${inputs.title}\n${inputs.body}`, job.repository).filter(
    (n) => n !== job.number,
  );
  const [issues, instructions] = await Promise.all([
    Promise.all(issueNumbers.map((n) => github.issue(n))),
    Promise.all(
      INSTRUCTION_FILES.map(async (path) => {
        const file = await reads.file(github, path, inputs.base_sha);
        return file ? { path, text: file.text } : null;
      }),
    ),
  ]);
  const listed = new Set(comparison.files.map((f) => f.filename));
  const handoffPath = config.handoff.path;
  const handoff = inputs.handoff_sha
    ? await reads.file(github, handoffPath, inputs.handoff_sha)
    : null;
  return {
    repository: job.repository,
    pullNumber: job.number,
    baseSha: inputs.base_sha,
    headSha: job.head_sha,
    treeSha: job.tree_sha,
    title: inputs.title,
    body: inputs.body,
    issues: issues.filter((i) => i !== null),
    instructions: instructions.filter((i) => i !== null),
    rubric: ask.evaluator.rubric,
    minScore: ask.evaluator.min_score,
    files: comparison.files,
    unlisted: inputs.changed_files.filter((f) => !listed.has(f.filename)),
    commands: inputs.commands,
    handoff: handoff ? { path: handoffPath, text: handoff.text } : null,
    trace: inputs.trace,
    tokenLimit: config.budgets.evaluator_bundle_tokens,
  };
}

/** A boundary no text in the bundle contains (a collision is astronomically unlikely; be sure). */
function freshBoundary(deps: EvaluatorDeps, bundle: unknown): string {
  const text = JSON.stringify(bundle);
  for (;;) {
    const boundary = deps.boundary?.() ?? randomBytes(16).toString("hex");
    if (!text.includes(boundary)) return boundary;
  }
}
