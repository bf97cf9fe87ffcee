import { randomBytes } from "node:crypto";
import {
  answeringEvaluation,
  bundleOverBudget,
  dailyBudget,
  dayStart,
} from "../../checks/evaluator/budget.js";
import { buildBundle, referencedIssues } from "../../checks/evaluator/bundle.js";

type BundleInput = Parameters<typeof buildBundle>[0];

import { buildEvaluatorPrompt } from "../../checks/evaluator/prompt.js";
import type { Config } from "../../schemas/config.js";
import {
  EVALUATOR_PROMPT_VERSION,
  type EvaluationOutcome,
  type EvaluatorRun,
} from "../../schemas/evaluation.js";
import { type PullRequestSnapshot, type TraceFact, traceFactSchema } from "../../schemas/gate.js";
import { type EvaluatorJob, GATE_JOBS } from "../../schemas/jobs/gate.js";
import { jobOf } from "../../schemas/jobs/index.js";
import { createJudge, type Judge, type JudgeOptions } from "../evaluator/judge.js";
import { type EvaluatorPolicy, policyRefusal } from "../evaluator/policy.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { EvaluationStore } from "../store/ports/evaluation-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";

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
  store: EvaluationStore & RecordStore & AuditLog & Pick<JobQueue, "enqueue">;
  reads: ImmutableReads;
  /** How to reach the evaluator; absent: a configured llm or command evaluator is unavailable. */
  evaluator: EvaluatorDeps | undefined;
  now: () => Date;
  /** The job: what it appends to the audit log is appended once, whichever run gets there. */
  jobId?: number;
}

/**
 * The `gate.evaluator` job: asks the evaluator about one tree under its own lease (a slow model
 * holds no gate worker and not the pull request's queue), stores what came of it (a verdict, or
 * a failure that never accepts), and queues a fresh gate pass, which decides on it. Budgets are
 * counters checked before anything is sent.
 */
export async function runEvaluatorJob(
  deps: EvaluatorJobDeps,
  job: EvaluatorJob,
): Promise<{ asked: boolean; outcome: string }> {
  const { github, store, now } = deps;
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
  const pr = await github.pullRequest(job.number);
  // A newer head has a pass of its own, which asks about its own tree.
  if (pr.state !== "open" || pr.head_sha !== job.head_sha) {
    return { asked: false, outcome: "the head moved on; nothing asked" };
  }
  const config = await deps.reads.config(github, pr.base_sha);
  if (config.status !== "ok" || config.digest !== job.config_digest) {
    return done("the base config changed; the next pass decides", false);
  }
  const evaluator = config.config.evaluator;
  if (evaluator.kind !== "llm" && evaluator.kind !== "command") {
    return done("no evaluator is configured now", false);
  }
  const key = { repository: pr.repository, pullNumber: pr.number };
  const [sameTree, records] = await Promise.all([
    store.listEvaluations({ ...key, treeSha: job.tree_sha }),
    store.listRecords(key),
  ]);
  // Queued twice (a redelivery, two passes), the tree is judged once: "judged" as the pass reads
  // it, or a verdict the pass does not take (another base's) sends it back here, for ever.
  if (!job.rerun && answeringEvaluation(sameTree, pr, job.config_digest, records)) {
    return done("already judged", false);
  }
  const record = records
    .filter((r) => r.head_sha === pr.head_sha && r.provenance?.verified && r.commands.length > 0)
    .at(-1);
  const appended = await askEvaluator({
    github,
    reads: deps.reads,
    store,
    audit: store,
    pr,
    treeSha: job.tree_sha,
    config: config.config,
    configDigest: config.digest,
    commands: (record?.commands ?? []).map((c) => ({
      ...c,
      changed_paths: c.changed_paths ?? [],
      changed_paths_count: c.changed_paths_count ?? 0,
    })),
    trace: await decidedTrace(store, pr),
    deps: deps.evaluator,
    now,
    ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
  });
  return done(appended, true);
}

/**
 * The trace reports the head's newest gate decision read beside its believed record (the pass
 * that queued this job stored them with its facts): no second download, and the same reports the
 * summary shows.
 */
export async function decidedTrace(
  store: AuditLog,
  pr: PullRequestSnapshot,
): Promise<TraceFact | null> {
  const [last] = await store.listAudit({
    kind: "gate.decision",
    subject: `${pr.repository}#${pr.number}@${pr.head_sha}`,
    order: "desc",
    limit: 1,
  });
  const stored = (last?.facts as { trace?: unknown } | undefined)?.trace;
  const parsed = traceFactSchema.nullable().safeParse(stored ?? null);
  return parsed.success ? parsed.data : null;
}

/** Builds the bundle, checks the budgets, calls the judge and stores the evaluation. */
async function askEvaluator(options: {
  github: GitHubAdapter;
  reads: ImmutableReads;
  store: EvaluationStore;
  audit: AuditLog;
  pr: PullRequestSnapshot;
  treeSha: string;
  config: Config;
  configDigest: string;
  commands: BundleInput["commands"];
  trace: TraceFact | null;
  deps: EvaluatorDeps | undefined;
  now: () => Date;
  jobId?: number;
}): Promise<string> {
  const { store, pr, config, now } = options;
  const evaluator = config.evaluator as AskedConfig;
  const storeEvaluation = (run: EvaluatorRun, outcome: EvaluationOutcome) =>
    store.appendEvaluation({
      repository: pr.repository,
      pull_number: pr.number,
      head_sha: pr.head_sha,
      tree_sha: options.treeSha,
      config_digest: options.configDigest,
      run,
      outcome,
      at: now().toISOString(),
    });
  const idle = (latency: number): EvaluatorRun => ({
    kind: evaluator.kind,
    provider: evaluator.kind === "llm" ? evaluator.provider : null,
    model: evaluator.kind === "llm" ? evaluator.model : null,
    prompt_version: EVALUATOR_PROMPT_VERSION,
    input_tokens: null,
    output_tokens: null,
    latency_ms: latency,
    requests: 0,
  });
  if (!options.deps) {
    await storeEvaluation(idle(0), {
      status: "failed",
      error: "this agate process was started without an evaluator",
      fix: "start the App with `npm start` (which wires the evaluator from AGATE_EVALUATOR_* settings)",
    });
    return "no evaluator in this process";
  }
  const deps = options.deps;

  const at = now();
  const key = { repository: pr.repository, pullNumber: pr.number };
  const today = await store.listEvaluations({ ...key, since: dayStart(at) });
  // The pass that queued this job saw the day's budget open; another call may have spent it.
  if (dailyBudget(today, config, at)) return "over the daily budget; the next pass says so";

  const bundle = await readBundle(options);
  const overBudget = bundleOverBudget(bundle.budget);
  // Nothing is sent; the outcome answers the tree under this config, and the next pass says capped.
  if (overBudget) {
    await storeEvaluation(idle(0), overBudget);
    return "over the bundle budget";
  }

  const started = Date.now();
  const refusal = policyRefusal(evaluator, deps.policy);
  if (refusal) {
    await storeEvaluation(idle(Date.now() - started), { status: "failed", ...refusal });
    return "refused by the operator's policy";
  }
  const judge = (deps.createJudge ?? createJudge)(evaluator, deps.judgeOptions);
  const prompt = buildEvaluatorPrompt(bundle, freshBoundary(deps, bundle));
  const { outcome, run } = await judge.judge({ bundle, prompt });
  await storeEvaluation(run, outcome);
  return outcome.status;
}

type AskOptions = Parameters<typeof askEvaluator>[0];

/**
 * What the evaluator is shown, read at the pass's SHAs: the pull request's words and the issues
 * it names, the base's instruction files, the diff (named beyond GitHub's 300 listed files), the
 * handoff file, the believed commands and the trace.
 */
async function readBundle(options: AskOptions): Promise<ReturnType<typeof buildBundle>> {
  const { github, pr, config } = options;
  const evaluator = config.evaluator as AskedConfig;
  const detail = await github.pullRequestDetail(pr.number);
  const issueNumbers = referencedIssues(`${detail.title}\n${detail.body}`, pr.repository).filter(
    (n) => n !== pr.number,
  );
  const [issues, instructions, comparison] = await Promise.all([
    Promise.all(issueNumbers.map((n) => github.issue(n))),
    Promise.all(
      INSTRUCTION_FILES.map(async (path) => {
        const file = await options.reads.file(github, path, pr.base_sha);
        return file ? { path, text: file.text } : null;
      }),
    ),
    options.reads.compare(github, pr.base_sha, pr.head_sha),
  ]);
  // GitHub's compare lists at most 300 files: the rest are named (without patches) from the pull
  // request's own list, so the evaluator knows what it was not shown.
  const listed = new Set(comparison.files.map((f) => f.filename));
  const unlisted =
    detail.changed_files > comparison.files.length
      ? (await github.changedFiles(pr.number))
          .filter((f) => !listed.has(f.filename))
          .map((f) => ({ filename: f.filename, status: f.status }))
      : [];
  const handoffPath = config.handoff.path;
  const touched = comparison.files.some((f) => f.filename === handoffPath);
  const handoff = await options.reads.file(
    github,
    handoffPath,
    touched ? pr.head_sha : comparison.merge_base_sha,
  );
  return buildBundle({
    repository: pr.repository,
    pullNumber: pr.number,
    baseSha: pr.base_sha,
    headSha: pr.head_sha,
    treeSha: options.treeSha,
    title: detail.title,
    body: detail.body,
    issues: issues.filter((i) => i !== null),
    instructions: instructions.filter((i) => i !== null),
    rubric: evaluator.rubric,
    minScore: evaluator.min_score,
    files: comparison.files,
    unlisted,
    commands: options.commands,
    handoff: handoff ? { path: handoffPath, text: handoff.text } : null,
    trace: options.trace,
    tokenLimit: config.budgets.evaluator_bundle_tokens,
  });
}

/** A boundary no text in the bundle contains (a collision is astronomically unlikely; be sure). */
function freshBoundary(deps: EvaluatorDeps, bundle: unknown): string {
  const text = JSON.stringify(bundle);
  for (;;) {
    const boundary = deps.boundary?.() ?? randomBytes(16).toString("hex");
    if (!text.includes(boundary)) return boundary;
  }
}
