import { z } from "zod";

/**
 * Agent traces (issue 14, per-agent half): the normalised step every format is read into, the
 * thresholds the detectors use, and the progress report they produce. Hashes are short (16 hex
 * characters, 64 bits of sha256): they are compared within one trace, never across trust
 * boundaries, and a 1 GB trace must fit its seen-sets in bounded memory.
 */

export const TRACE_FORMATS = [
  "claude-code",
  "codex",
  "openhands",
  "swe-agent",
  "mini-swe-agent",
] as const;
export const traceFormatSchema = z.enum(TRACE_FORMATS);
export type TraceFormat = z.infer<typeof traceFormatSchema>;

/** What a tool call did, as far as the trace lets us tell; shell commands are `command`. */
export const stepKindSchema = z.enum(["read", "write", "command", "search", "other"]);

const shortHashSchema = z.string().regex(/^[0-9a-f]{16}$/);
const countSchema = z.number().int().nonnegative();

export const traceStepSchema = z.strictObject({
  /** 1-based number of the tool call in the trace. */
  index: z.number().int().positive(),
  /** Where the call was read from: `line 12` for JSONL, `messages[7]` for one JSON document. */
  at: z.string(),
  tool: z.string().meta({ description: "Tool name as the agent called it (Bash, shell, bash)." }),
  kind: stepKindSchema,
  /** The command's program (`python`, `grep`) for shell calls, else the tool name. */
  name: z.string(),
  /** Arguments as canonical JSON (sorted keys, cosmetic fields such as descriptions dropped). */
  args: z.string(),
  args_hash: shortHashSchema,
  /** A short, single-line preview for people (the command, or the path). */
  preview: z.string(),
  /** File the call read or wrote, when the format says. */
  path: z.string().nullable(),
  result: z.strictObject({
    /** Hash of the result after volatile fields are stripped and the text normalised. */
    hash: shortHashSchema.nullable(),
    exit_code: z.number().int().nullable(),
    /** The tool reported an error (is_error, a non-zero exit, an error observation). */
    error: z.boolean(),
    bytes: countSchema,
  }),
  /** Content hashes around a write, when the format carries them (before null: a new file). */
  write: z
    .strictObject({ before: shortHashSchema.nullable(), after: shortHashSchema.nullable() })
    .nullable(),
  /** Paths this call put back to the base commit (`git checkout -- f`, `git stash`; `*`: all). */
  revert: z.array(z.string()).nullable(),
  /** Every file the call wrote, as far as it says (a shell line can write several). */
  writes: z.array(z.string()),
  /** Files put back from a copy (`cp f.orig f`, an editor's undo: `from` null). */
  restores: z.array(z.strictObject({ from: z.string().nullable(), to: z.string() })),
  /** Copies made (`cp f f.bak`), so that copying back is seen as a restore. */
  copies: z.array(z.strictObject({ from: z.string(), to: z.string() })),
  /** `git stash pop`/`apply`: stashed work comes back (a baseline check ends). */
  unstash: z.boolean(),
  /**
   * The call with its volatile and free-text parts masked (numbers, ids, quoted text), so the
   * same action reworded hashes the same; `args_hash` keeps the exact call.
   */
  action_hash: shortHashSchema,
  /**
   * The result with what the call itself said removed (an `echo` of its own words tells
   * nothing), volatile parts masked; null without a result.
   */
  echo_free_hash: shortHashSchema.nullable(),
  /** What kind of failure this was (`AssertionError`, `exit 2`), for "a new failure mode". */
  failure: z.string().nullable(),
  /** Infrastructure failure seen in this call's result (timeouts, 5xx, rate limits). */
  infrastructure: z.enum(["timeout", "server-error", "rate-limit", "network"]).nullable(),
  /** The model call that issued this step (its id, or a running number). */
  model_call: z.string().nullable(),
  /** The human turn it belongs to (1-based). */
  turn: z.number().int().nonnegative(),
  /** When it happened as the trace says (never evidence; shown only). */
  time: z.string().nullable(),
});
export type TraceStep = z.infer<typeof traceStepSchema>;

/** Token usage of one model call, in the provider's units. */
export const modelUsageSchema = z.strictObject({
  input_tokens: countSchema,
  cached_input_tokens: countSchema,
  cache_creation_input_tokens: countSchema,
  output_tokens: countSchema,
  cost_usd: z.number().nonnegative().nullable(),
});
export type ModelUsage = z.infer<typeof modelUsageSchema>;

/** Every threshold the detectors use; the config's `progress` section has the same shape. */
export const progressThresholdsSchema = z.strictObject({
  identical_streak: z.number().int().min(2).default(3).meta({
    description:
      "Flag the same call with the same (volatile-stripped) result this many times in a row.",
  }),
  cycle_repeats: z.number().int().min(2).default(3).meta({
    description:
      "Flag a cycle of 2 or 3 different calls with unchanged results repeated this many times (A-B-A-B-A-B is 3).",
  }),
  reverts: z.number().int().min(1).default(3).meta({
    description:
      "Flag edit-run-restore cycles once the agent has restored earlier work this many times (git checkout/restore/stash, a copy back from a backup, an editor's undo; one clean-up of several files is one restore, a baseline check that puts the work back is none) without a command newly passing.",
  }),
  no_new_information: z.number().int().min(2).default(12).meta({
    description: "Flag this many tool calls in a row that brought no new information.",
  }),
  steps_without_milestone: z.number().int().min(2).default(50).meta({
    description:
      "Flag this many tool calls after the last milestone (a command newly passing, a new failure mode of the same call, an edit that survived to the end), or from the start when there was none.",
  }),
  idle_tail_share: z.number().min(0).max(1).default(0.72).meta({
    description:
      "Flag a run whose last calls, at least this share of all its calls (and at least 10), came after its last milestone (or from the start, when it reached none) and reached no other (seed 001: a run that reaches a milestone, then idles). 0 turns it off.",
  }),
  no_milestone_stale_share: z.number().min(0).max(1).default(0).meta({
    description:
      "Share of calls without new information a milestone-less stretch also needs to be flagged (0: the stretch's length alone, measured from the last milestone).",
  }),
  max_model_calls: z.number().int().positive().nullable().default(null),
  max_tool_calls: z.number().int().positive().nullable().default(null),
  max_tool_calls_per_turn: z.number().int().positive().nullable().default(null),
  max_input_tokens: z.number().int().positive().nullable().default(null),
  max_context_tokens: z.number().int().positive().nullable().default(null),
  max_cost_usd: z.number().positive().nullable().default(null),
});
export type ProgressThresholds = z.output<typeof progressThresholdsSchema>;

export const findingKindSchema = z.enum([
  "identical-streak",
  "short-cycle",
  "revert-cycle",
  "no-new-information",
  "no-milestone",
  "budget",
]);
export type FindingKind = z.infer<typeof findingKindSchema>;

export const progressFindingSchema = z.strictObject({
  kind: findingKindSchema,
  /** First and last step (TraceStep.index) of the flagged segment; budgets: the step that crossed. */
  from_step: z.number().int().nonnegative(),
  to_step: z.number().int().nonnegative(),
  /** Where in the file the segment starts, as the parser names it. */
  at: z.string(),
  why: z.string(),
  /**
   * A short excerpt for people: the call that repeated, the programs a milestone-less stretch
   * kept running and its first call, the restores of a cycle. The agent's text: shown as data.
   */
  excerpt: z.string().max(400).nullable().default(null),
});
export type ProgressFinding = z.infer<typeof progressFindingSchema>;

export const budgetsSchema = z.strictObject({
  model_calls: countSchema,
  tool_calls: countSchema.meta({ description: "Tool calls issued." }),
  executed_tool_calls: countSchema.meta({ description: "Tool calls that returned a result." }),
  max_tool_calls_per_turn: countSchema,
  max_tool_calls_per_model_call: countSchema,
  turns: countSchema,
  input_tokens: countSchema.meta({
    description:
      "Billed input tokens over all model calls (cache reads and writes included), each call once.",
  }),
  cached_input_tokens: countSchema,
  output_tokens: countSchema,
  peak_context_tokens: countSchema.meta({
    description: "The largest input of a single model call.",
  }),
  cost_usd: z.number().nonnegative().nullable(),
});
export type Budgets = z.infer<typeof budgetsSchema>;

export const PROGRESS_REPORT_VERSION = 1;

export const progressReportSchema = z.strictObject({
  version: z.literal(PROGRESS_REPORT_VERSION),
  format: traceFormatSchema,
  /** Records (lines, messages, events) read, and those skipped as not tool-related. */
  records: countSchema,
  steps: countSchema,
  /** How the run ended, when the trace says (exit_status, a final error). */
  exit_status: z.string().nullable(),
  counters: z.strictObject({
    new_information: countSchema,
    no_new_information: countSchema,
    milestones: countSchema,
    steps_since_last_milestone: countSchema,
    longest_without_milestone: countSchema,
    longest_without_new_information: countSchema,
    reverts: countSchema,
  }),
  budgets: budgetsSchema,
  infrastructure_failures: z.array(
    z.strictObject({ kind: z.string(), at: z.string(), message: z.string() }),
  ),
  infrastructure_failure_count: countSchema,
  findings: z.array(progressFindingSchema),
  /** Findings past the report's list limit, counted only. */
  findings_not_listed: countSchema,
  /** A no-progress finding (not a loop or budget finding alone): the evaluator is told. */
  stalled: z.boolean(),
  thresholds: progressThresholdsSchema,
});
export type ProgressReport = z.infer<typeof progressReportSchema>;

/** At most this many trace files are read for one `trace` input of the Action. */
export const TRACE_FILES_LIMIT = 20;

/**
 * The Action's trace reports leave the job in an artifact of their own, one per run attempt: the
 * command record's artifact must hold exactly one file, so the reports never go there.
 */
export const TRACE_REPORT_FILE_NAME = "trace-report.json";
export const TRACE_REPORT_ARTIFACT_PREFIX = "agate-trace-report";
export const traceReportArtifactName = (runAttempt: number): string =>
  `${TRACE_REPORT_ARTIFACT_PREFIX}-attempt-${runAttempt}`;

/**
 * `trace-report.json`: one outcome per trace file the `trace` input named. Everything in it is
 * agent-influenced (the agent wrote the trace, and code in the job can upload an artifact of this
 * name first), so a reader shows it as data and never decides on it.
 */
export const traceOutcomeSchema = z.strictObject({
  /** The trace file, relative to the working directory when it is inside it. */
  source: z.string(),
  report: progressReportSchema.nullable(),
  /** Why the trace could not be read; null when `report` is there. */
  error: z.string().nullable(),
});
export const traceReportFileSchema = z.array(traceOutcomeSchema).max(TRACE_FILES_LIMIT);
export type TraceOutcomeReport = z.infer<typeof traceOutcomeSchema>;
export type TraceReportFile = z.infer<typeof traceReportFileSchema>;
