import { z } from "zod";
import {
  gitShaSchema,
  isoDateTimeSchema,
  nonNegativeIntSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "./primitives.js";
import { budgetsSchema, findingKindSchema, traceFormatSchema } from "./trace.js";
import { verdictSchema } from "./verdict.js";

/** Bumped whenever the evaluator's instructions or the bundle's layout change meaning. */
export const EVALUATOR_PROMPT_VERSION = "agate-eval-5";

/**
 * What the agent's own trace of the evidence run reported (the Action's `trace` input), cut to
 * what matters to a reviewer: whether agate's detector found it busy without progress, where, and
 * the budgets used. Agent-influenced (the agent wrote the trace): a reason to look closer, never
 * a verdict.
 */
export const bundleTraceSchema = z.strictObject({
  run_id: positiveIntSchema,
  run_attempt: positiveIntSchema,
  traces: z.array(
    z.strictObject({
      source: z.string(),
      format: traceFormatSchema.nullable(),
      steps: nonNegativeIntSchema,
      stalled: z.boolean(),
      findings: z.array(
        z.strictObject({
          kind: findingKindSchema,
          from_step: nonNegativeIntSchema,
          to_step: nonNegativeIntSchema,
          why: z.string(),
          /** What repeated, in the agent's own words (a call, the programs run, the restores). */
          excerpt: z.string().nullable().default(null),
        }),
      ),
      findings_not_listed: nonNegativeIntSchema,
      budgets: budgetsSchema.nullable(),
      /** Why the trace could not be read; null when it was. */
      error: z.string().nullable(),
    }),
  ),
});

/** One changed file as the evaluator sees it; `patch` is null when it was left out or binary. */
export const bundleFileSchema = z.strictObject({
  filename: z.string(),
  previous_filename: z.string().nullable(),
  status: z.string(),
  additions: nonNegativeIntSchema,
  deletions: nonNegativeIntSchema,
  patch: z.string().nullable(),
  /** null: shown whole. Otherwise why the patch is not shown (budget, binary, too large). */
  omitted: z.string().nullable(),
});

/** A required command as the evaluator sees it: its output's tail only, cut to the bundle's share. */
export const bundleCommandSchema = z.strictObject({
  name: z.string(),
  run: z.string(),
  exit_code: z.number().int().nullable(),
  tail: z.string(),
});

/**
 * Everything the fresh-context evaluator is shown, built from GitHub at exact SHAs. Never the
 * agent's transcript. Text written by the agent is untrusted data; the prompt fences it.
 * The `command` evaluator gets exactly this as JSON on stdin.
 */
export const evaluationBundleSchema = z.strictObject({
  prompt_version: z.string(),
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  base_sha: gitShaSchema,
  head_sha: gitShaSchema,
  tree_sha: gitShaSchema,
  task: z.strictObject({
    title: z.string(),
    body: z.string(),
    /** Issues the pull request closes or references, read from GitHub. */
    issues: z.array(
      z.strictObject({ number: positiveIntSchema, title: z.string(), body: z.string() }),
    ),
  }),
  /** The repository's own instructions, from the base commit (AGENTS.md, CONTRIBUTING.md). */
  instructions: z.array(z.strictObject({ path: z.string(), text: z.string() })),
  /** Acceptance criteria from the base config. */
  rubric: z.string(),
  min_score: z.number().min(0).max(1),
  diff: z.strictObject({
    files: z.array(bundleFileSchema),
    total_files: nonNegativeIntSchema,
    total_additions: nonNegativeIntSchema,
    total_deletions: nonNegativeIntSchema,
  }),
  commands: z.array(bundleCommandSchema),
  handoff: z.strictObject({ path: z.string(), text: z.string() }).nullable(),
  /** The agent's trace reports of the evidence run; null when it uploaded none. */
  agent_trace: bundleTraceSchema.nullable().default(null),
  budget: z.strictObject({
    token_limit: positiveIntSchema,
    estimated_tokens: nonNegativeIntSchema,
    /** What was shortened or left out to stay within the budget, in words. */
    cuts: z.array(z.string()),
  }),
  /** For a retry after a malformed answer: what came back and why it was refused. */
  previous_attempt: z
    .strictObject({ output: z.string(), error: z.string() })
    .nullable()
    .default(null),
});

export const evaluatorKindSchema = z.enum(["none", "llm", "command", "review"]);

/** Which evaluator judged, and what it cost. */
export const evaluatorRunSchema = z.strictObject({
  kind: evaluatorKindSchema,
  provider: z.string().nullable(),
  model: z.string().nullable(),
  prompt_version: z.string(),
  input_tokens: nonNegativeIntSchema.nullable(),
  output_tokens: nonNegativeIntSchema.nullable(),
  latency_ms: nonNegativeIntSchema,
  /** Requests made, transport retries and the malformed-answer retry included. */
  requests: nonNegativeIntSchema,
});

/**
 * What one evaluation came to: a parsed verdict, a failure that never accepts, or the tree's
 * bundle over budgets.evaluator_bundle_tokens (nothing was sent: `run.requests` is 0). The last
 * answers the tree under its config like a verdict does, so it is not asked again until the
 * config (its digest) changes; the gate shows it as capped.
 */
export const evaluationOutcomeSchema = z.discriminatedUnion("status", [
  z.strictObject({ status: z.literal("verdict"), verdict: verdictSchema }),
  z.strictObject({
    status: z.literal("failed"),
    /** What went wrong, such as "HTTP 401 from https://api.openai.com/v1/chat/completions". */
    error: z.string(),
    /** The exact config or environment change that fixes it, when one is known. */
    fix: z.string(),
  }),
  z.strictObject({
    status: z.literal("over_budget"),
    budget: z.literal("evaluator_bundle_tokens"),
    /** What the capped row says: how large the bundle is, and what to change. */
    detail: z.string(),
    estimated_tokens: nonNegativeIntSchema,
    token_limit: positiveIntSchema,
  }),
]);

/**
 * One stored evaluation of one tree on one base commit: the verdict binds to the tree and to the
 * base it was judged against (the diff, the instructions and the rubric the evaluator read are
 * the base's), so a new SHA with the same tree reuses it on that base only.
 */
export const evaluationSchema = z.strictObject({
  id: positiveIntSchema,
  repository: repositoryFullNameSchema,
  pull_number: positiveIntSchema,
  head_sha: gitShaSchema,
  /** The base commit the evaluator was shown; null: stored before agate kept it, answers nothing. */
  base_sha: gitShaSchema.nullable().default(null),
  /**
   * Where the diff the evaluator was shown started: GitHub's merge base of base_sha and the head,
   * which the head's history chooses. Null: nothing was shown, or stored before agate kept it;
   * then only the same head answers.
   */
  merge_base_sha: gitShaSchema.nullable().default(null),
  tree_sha: gitShaSchema,
  config_digest: z.string(),
  run: evaluatorRunSchema,
  outcome: evaluationOutcomeSchema,
  at: isoDateTimeSchema,
});

/** A new evaluation always names its base. */
export const evaluationInputSchema = evaluationSchema
  .omit({ id: true })
  .extend({ base_sha: gitShaSchema });

export type BundleFile = z.infer<typeof bundleFileSchema>;
export type BundleCommand = z.infer<typeof bundleCommandSchema>;
export type BundleTrace = z.infer<typeof bundleTraceSchema>;
export type EvaluationBundle = z.output<typeof evaluationBundleSchema>;
export type EvaluatorRun = z.infer<typeof evaluatorRunSchema>;
export type EvaluationOutcome = z.infer<typeof evaluationOutcomeSchema>;
export type Evaluation = z.infer<typeof evaluationSchema>;
export type EvaluationInput = z.infer<typeof evaluationInputSchema>;
