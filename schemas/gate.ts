import { z } from "zod";
import { decisionStateSchema, handoffCheckSchema } from "./acceptance-record.js";
import { commandRecordSchema } from "./command-record.js";
import type { configSchema } from "./config.js";
import { evaluationSchema } from "./evaluation.js";
import {
  gitShaSchema,
  isoDateTimeSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "./primitives.js";

/** The gate: the App's own check run of this name is what branch protection requires. */
export const GATE_CHECK_NAME = "agate";

/** The live pull request, as GitHub reports it when the gate is evaluated. */
export const pullRequestSnapshotSchema = z.strictObject({
  repository: repositoryFullNameSchema,
  number: positiveIntSchema,
  state: z.enum(["open", "closed"]),
  draft: z.boolean(),
  head_sha: gitShaSchema,
  head_ref: z.string(),
  base_sha: gitShaSchema,
  base_ref: z.string(),
  author: z.strictObject({ login: z.string(), type: z.string() }),
  labels: z.array(z.string()),
});

/** The config at the base commit, as the App read it (never the head's). */
export const baseConfigFactSchema = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("ok"),
    path: z.string(),
    blob_sha: gitShaSchema,
    digest: z.string(),
    config: z.custom<z.output<typeof configSchema>>(),
  }),
  z.strictObject({ status: z.literal("missing"), path: z.string() }),
  z.strictObject({ status: z.literal("invalid"), path: z.string(), message: z.string() }),
]);

export const changedFileSchema = z.strictObject({
  filename: z.string(),
  previous_filename: z.string().nullable(),
  status: z.string(),
});

/** One `agate/commands` check run on the head, with the App's verdict on where it came from. */
export const commandEvidenceSchema = z.strictObject({
  check_run_id: positiveIntSchema,
  created_at: isoDateTimeSchema,
  record: commandRecordSchema.nullable(),
  /** null: the record is believed. Otherwise why not, shown in the summary. */
  refused: z.string().nullable(),
  /** The record is believable but its run has not finished, so the runner's word is not in yet. */
  waiting: z.string().nullable(),
});

/** An approving review, latest per reviewer. */
export const approvalSchema = z.strictObject({
  login: z.string(),
  commit_id: gitShaSchema,
  submitted_at: isoDateTimeSchema,
  maintainer: z
    .boolean()
    .meta({ description: "Write access or a listed team, and not the author." }),
});

/** An earlier record of this pull request, for the history and the carry-over rule. */
export const priorRecordSchema = z.strictObject({
  id: positiveIntSchema,
  head_sha: gitShaSchema,
  tree_sha: gitShaSchema.nullable(),
  state: decisionStateSchema,
  config_digest: z.string(),
  agate_version: z.string(),
  decided_at: isoDateTimeSchema,
  stale: z.strictObject({ superseded_by: gitShaSchema, at: isoDateTimeSchema }).nullable(),
});

/** A commit of the pull request, as `pulls/list-commits` reports it. */
export const pullCommitSchema = z.strictObject({
  sha: gitShaSchema,
  message: z.string(),
  committed_at: isoDateTimeSchema.nullable(),
});

/**
 * What the handoff requirement is judged on, read live: the file at the head commit, the pull
 * request's size and age, its commits, and which files the newest non-empty commit touched
 * (the file is fresh only if that commit touched it too, or touched nothing but it).
 */
export const handoffFactsSchema = z.strictObject({
  file: z.strictObject({ path: z.string(), blob_sha: gitShaSchema, text: z.string() }).nullable(),
  /** When the facts were read: the clock for the "open longer than" rule. */
  observed_at: isoDateTimeSchema,
  opened_at: isoDateTimeSchema,
  /** The pull request's own counts (GitHub's `commits`, `additions + deletions`). */
  commit_count: z.number().int().nonnegative(),
  changed_lines: z.number().int().nonnegative(),
  /** Up to 250 commits, oldest first (GitHub's limit for `pulls/list-commits`). */
  commits: z.array(pullCommitSchema),
  newest_change: z.strictObject({ sha: gitShaSchema, files: z.array(z.string()) }).nullable(),
});

/** A reviewer's latest decisive review, for the `review` evaluator. */
export const reviewVerdictFactSchema = z.strictObject({
  login: z.string(),
  state: z.enum(["APPROVED", "CHANGES_REQUESTED"]),
  commit_id: gitShaSchema,
  submitted_at: isoDateTimeSchema,
  body: z.string(),
  maintainer: z
    .boolean()
    .meta({ description: "Write access or a listed team, not the author and not a bot." }),
});

/**
 * The evaluator's verdict on the head's tree, as the store has it. `not_asked`: nothing stored
 * for this tree, config and prompt version, so the App asks (after the deterministic checks pass).
 */
export const evaluationFactSchema = z.discriminatedUnion("status", [
  z.strictObject({ status: z.literal("not_asked") }),
  z.strictObject({ status: z.literal("judged"), evaluation: evaluationSchema }),
  z.strictObject({
    status: z.literal("over_budget"),
    budget: z.enum(["evaluator_calls_per_pr_per_day", "evaluator_bundle_tokens"]),
    detail: z.string(),
  }),
]);

/** Everything the gate decision is computed from; stored beside it so it can be replayed. */
export const gateFactsSchema = z.strictObject({
  pull_request: pullRequestSnapshotSchema,
  head_tree_sha: gitShaSchema.nullable(),
  config: baseConfigFactSchema,
  previously_gated: z.boolean(),
  changed_files: z.array(changedFileSchema),
  evidence: z.array(commandEvidenceSchema),
  approvals: z.array(approvalSchema),
  prior_records: z.array(priorRecordSchema),
  agate_version: z.string(),
  /** null when the config is not readable. */
  handoff: handoffFactsSchema.nullable(),
  reviews: z.array(reviewVerdictFactSchema),
  evaluation: evaluationFactSchema,
});

export const requirementSchema = z.strictObject({
  id: z.enum(["config", "commands", "protected_paths", "evaluator", "handoff"]),
  name: z.string(),
  /** blocked and capped end the gate as those states: the fix is outside the pull request. */
  status: z.enum(["pass", "fail", "waiting", "blocked", "capped"]),
  reason: z.string(),
});

export const checkConclusionSchema = z.enum(["success", "failure", "action_required", "neutral"]);

export const gateDecisionSchema = z.strictObject({
  state: decisionStateSchema,
  /** null: the check stays in progress. */
  conclusion: checkConclusionSchema.nullable(),
  title: z.string(),
  requirements: z.array(requirementSchema),
  /** Concrete open items for the agent's next session. */
  missing: z.array(z.string()),
  reasons: z.array(z.string()),
  gated: z.strictObject({ gated: z.boolean(), reason: z.string() }),
  /** The prior record whose acceptance this decision carries over, when it does. */
  carried_over_from: positiveIntSchema.nullable(),
  /** The handoff file as verified, for the acceptance record; null when not looked at. */
  handoff: handoffCheckSchema.nullable(),
});

export type PullRequestSnapshot = z.infer<typeof pullRequestSnapshotSchema>;
export type BaseConfigFact = z.infer<typeof baseConfigFactSchema>;
export type ChangedFile = z.infer<typeof changedFileSchema>;
export type CommandEvidence = z.infer<typeof commandEvidenceSchema>;
export type Approval = z.infer<typeof approvalSchema>;
export type PriorRecord = z.infer<typeof priorRecordSchema>;
export type GateFacts = z.infer<typeof gateFactsSchema>;
export type PullCommit = z.infer<typeof pullCommitSchema>;
export type HandoffFacts = z.infer<typeof handoffFactsSchema>;
export type ReviewVerdictFact = z.infer<typeof reviewVerdictFactSchema>;
export type EvaluationFact = z.infer<typeof evaluationFactSchema>;
export type Requirement = z.infer<typeof requirementSchema>;
export type CheckConclusion = z.infer<typeof checkConclusionSchema>;
export type GateDecision = z.infer<typeof gateDecisionSchema>;

/** A workflow run and its jobs as the Actions API reports them: GitHub's own word on a run. */
export const workflowRunFactSchema = z.strictObject({
  id: positiveIntSchema,
  run_attempt: positiveIntSchema,
  head_sha: gitShaSchema,
  path: z.string(),
  status: z.string().nullable(),
  conclusion: z.string().nullable(),
  jobs: z.array(
    z.strictObject({
      name: z.string(),
      status: z.string(),
      conclusion: z.string().nullable(),
      steps: z.array(
        z.strictObject({
          name: z.string(),
          number: z.number().int(),
          status: z.string(),
          conclusion: z.string().nullable(),
          started_at: isoDateTimeSchema.nullable(),
          completed_at: isoDateTimeSchema.nullable(),
        }),
      ),
    }),
  ),
});

/** The `agate/commands` check run as GitHub reports it (who made it and when, not what it says). */
export const commandsCheckRunFactSchema = z.strictObject({
  id: positiveIntSchema,
  app_slug: z.string().nullable(),
  head_sha: gitShaSchema,
  started_at: isoDateTimeSchema.nullable(),
  completed_at: isoDateTimeSchema.nullable(),
  text: z.string().nullable(),
});

export type WorkflowRunFact = z.infer<typeof workflowRunFactSchema>;
export type CommandsCheckRunFact = z.infer<typeof commandsCheckRunFactSchema>;
