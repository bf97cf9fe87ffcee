/**
 * The gate's verdict as data, for agents (docs/agents.md): what the App writes into its `agate`
 * check run beside the summary, what the Action gives as its `status` output, and what
 * `agate-gate status --json` prints. One shape, versioned; a reader never scrapes Markdown.
 */
import { z } from "zod";
import { checkConclusionSchema, requirementSchema } from "./gate.js";
import { GATE_STATUS_VERSION, STATUS_TAIL_CHARS } from "./gate-status-constants.js";
import { gitShaSchema, positiveIntSchema, repositoryFullNameSchema } from "./primitives.js";

export { GATE_STATUS_VERSION, STATUS_TAIL_CHARS } from "./gate-status-constants.js";

/**
 * The states an agent reads. `waiting` is the gate's `pending`; `stale` is said by the CLI only:
 * the verdict it found is about another commit than the one the agent has checked out.
 */
export const statusStateSchema = z.enum([
  "accepted",
  "rejected",
  "stale",
  "stalled",
  "capped",
  "blocked",
  "escalated",
  "waiting",
  "not_gated",
]);

/**
 * What an agent's loop does next, and `status`'s exit code: `done` (0) accepted; `work` (1) there
 * is something the agent can do; `person` (3) only a person can move it (a maintainer, the App's
 * operator); `spent` (4) a budget is spent or attempts stopped making progress: hand over;
 * `wait` (5) nothing to do but wait; `none` (6) agate does not gate the pull request.
 */
export const statusActionSchema = z.enum(["done", "work", "person", "spent", "wait", "none"]);

/** Who can act on a requirement that does not pass; `nobody` while it only waits. */
export const actorSchema = z.enum(["agent", "maintainer", "operator", "nobody"]);

export const statusRequirementSchema = requirementSchema.extend({
  who: actorSchema,
});

/** A required command that did not pass on the graded commit, with the end of its output. */
export const failingCommandSchema = z.strictObject({
  name: z.string(),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().int().nonnegative().nullable(),
  /** The end of its output, terminal escapes removed; the whole output is in the run's log. */
  output_tail: z.string().max(STATUS_TAIL_CHARS),
});

/** The verdict as the App (`source: app`) or the Action (`source: action`) wrote it. */
export const gateStatusSchema = z.strictObject({
  version: z.literal(GATE_STATUS_VERSION),
  /**
   * `app`: the gate's decision (only the App's own `agate` check run carries it). `action`: the
   * Action's view from its own commands alone; the App may still refuse the record or ask more.
   */
  source: z.enum(["app", "action"]),
  repository: repositoryFullNameSchema,
  pull_request: positiveIntSchema.nullable(),
  /** The commit this verdict is about (a pull request's head; the Action: its tested commit). */
  head_sha: gitShaSchema,
  state: statusStateSchema.exclude(["stale"]),
  action: statusActionSchema,
  /** gate.report_only: the state is what agate would decide; the check never blocks a merge. */
  report_only: z.boolean(),
  /** The check's conclusion; null while it is in progress (and from the Action). */
  conclusion: checkConclusionSchema.nullable(),
  title: z.string(),
  /** The next work items, in order; short text that may hold `code spans`. */
  next: z.array(z.string()),
  requirements: z.array(statusRequirementSchema),
  failing_commands: z.array(failingCommandSchema),
  /** What the evaluator said is missing, when it did not sign off. */
  evaluator_missing: z.array(z.string()),
  /** What is wrong with the handoff file, when it is required and does not hold. */
  handoff_problems: z.array(z.string()),
  budgets: z
    .strictObject({
      graded_attempts: z.number().int().nonnegative(),
      graded_attempts_limit: positiveIntSchema,
      unchanged_failures_before_stalled: positiveIntSchema,
    })
    .nullable(),
});

/** Where the CLI read the verdict: the App's own check run, as GitHub reports it. */
export const statusCheckRunSchema = z.strictObject({
  id: positiveIntSchema,
  url: z.string().nullable(),
  app: z.string(),
  status: z.string(),
  conclusion: z.string().nullable(),
});

/** `agate-gate status --json`: the pull request's live head, the verdict on it, what to do. */
export const statusReportSchema = z.strictObject({
  version: z.literal(GATE_STATUS_VERSION),
  repository: repositoryFullNameSchema,
  pull_request: positiveIntSchema,
  /** The pull request's head as GitHub shows it now. */
  head_sha: gitShaSchema,
  state: statusStateSchema,
  action: statusActionSchema,
  /** The agent's checked-out commit is not the head the verdict is about. */
  stale: z.boolean(),
  /** The one line a person reads. */
  line: z.string(),
  /** What to do next, in order: the CLI's own (push, fetch) first, then the gate's. */
  next: z.array(z.string()),
  /** The checkout `status` ran in, when it is the pull request's branch. */
  local: z
    .strictObject({
      sha: gitShaSchema,
      branch: z.string(),
      uncommitted: z.boolean(),
      /**
       * HEAD against the pull request's head: `ahead` HEAD has commits the head lacks (push
       * them), `behind` the head has commits HEAD lacks, `diverged` both, `unknown` the head is
       * not in the checkout to compare.
       */
      relation: z.enum(["same", "ahead", "behind", "diverged", "unknown"]),
    })
    .nullable(),
  /** The App's `agate` check run on the head; null when it has none (yet). */
  check: statusCheckRunSchema.nullable(),
  /** The App's verdict as the check run carries it; null when it carries none. */
  gate: gateStatusSchema.nullable(),
  /** The exit code `status` ends with (by action; 2 is a usage or access error). */
  exit_code: z.number().int(),
});

export type StatusState = z.infer<typeof statusStateSchema>;
export type StatusAction = z.infer<typeof statusActionSchema>;
export type Actor = z.infer<typeof actorSchema>;
export type StatusRequirement = z.infer<typeof statusRequirementSchema>;
export type FailingCommand = z.infer<typeof failingCommandSchema>;
export type GateStatus = z.infer<typeof gateStatusSchema>;
export type StatusCheckRun = z.infer<typeof statusCheckRunSchema>;
export type StatusReport = z.infer<typeof statusReportSchema>;

/** `status`'s exit code for each action (docs/agents.md). */
export const STATUS_EXIT_CODES: Record<StatusAction, number> = {
  done: 0,
  work: 1,
  person: 3,
  spent: 4,
  wait: 5,
  none: 6,
};
