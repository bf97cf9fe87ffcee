import { z } from "zod";
import {
  decisionStateSchema,
  handoffCheckSchema,
  maintainerOverrideSchema,
} from "./acceptance-record.js";
import { commandRecordSchema } from "./command-record.js";
import type { configSchema } from "./config.js";
import { findingStatusSchema } from "./doctor.js";
import { evaluationSchema } from "./evaluation.js";
import { escalationReasonSchema, handoffEntryStateSchema } from "./handoff-entry.js";
import {
  gitShaSchema,
  isoDateTimeSchema,
  positiveIntSchema,
  repositoryFullNameSchema,
} from "./primitives.js";
import { traceReportFileSchema } from "./trace.js";

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

/** What the evaluator and the handoff rules read of a pull request beyond its snapshot. */
export const pullRequestDetailSchema = z.strictObject({
  title: z.string(),
  body: z.string(),
  created_at: isoDateTimeSchema,
  /** GitHub's own time of the pull request's last change: which of two views is newer. */
  updated_at: isoDateTimeSchema,
  commits: z.number().int().nonnegative(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  /** GitHub's count of changed files, to tell a cut listing from a whole one. */
  changed_files: z.number().int().nonnegative(),
  /** The test merge commit GitHub made for the head and base; null while it computes it. */
  merge_commit_sha: gitShaSchema.nullable(),
});

/** A pull request as one read of it, or one webhook about it, showed it. */
export const pullRequestViewSchema = z.strictObject({
  snapshot: pullRequestSnapshotSchema,
  detail: pullRequestDetailSchema,
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

/** A workflow run as the Actions API reports it: GitHub's own word, not the record's. */
export const evidenceRunSchema = z.strictObject({
  id: positiveIntSchema,
  /** The run's newest attempt. */
  run_attempt: positiveIntSchema,
  head_sha: gitShaSchema,
  /** The workflow file, such as `.github/workflows/agate.yml`. */
  path: z.string(),
  event: z.string(),
  status: z.string().nullable(),
  conclusion: z.string().nullable(),
  html_url: z.string().nullable(),
  /** The repository the head came from (`head_repository`): another one for a fork's pull request. */
  head_repository: z.string().nullable().default(null),
  /**
   * The pull requests of this repository GitHub lists on the run, each with the base it had when
   * GitHub associated it with the run: what the run was made for. A fork's run lists none.
   */
  pull_requests: z
    .array(
      z.strictObject({ number: positiveIntSchema, base_ref: z.string(), base_sha: z.string() }),
    )
    .default([]),
});

/** One job of a run's newest attempt (`filter=latest`), with the runner's word on each step. */
export const evidenceJobSchema = z.strictObject({
  id: positiveIntSchema,
  name: z.string(),
  /** The attempt this job ran in (a re-run of other jobs keeps an earlier attempt's job). */
  run_attempt: positiveIntSchema,
  status: z.string(),
  conclusion: z.string().nullable(),
  html_url: z.string().nullable(),
  steps: z.array(
    z.strictObject({
      name: z.string(),
      number: z.number().int(),
      status: z.string(),
      conclusion: z.string().nullable(),
    }),
  ),
});

/** An artifact of the run whose name says it holds an agate command record. */
export const recordArtifactSchema = z.strictObject({
  id: positiveIntSchema,
  name: z.string(),
  size_in_bytes: z.number().int().nonnegative(),
  expired: z.boolean(),
});

/** The tested commit as GitHub has it (git/get-commit): its tree and parents. */
export const testedCommitFactSchema = z.strictObject({
  sha: gitShaSchema,
  tree_sha: gitShaSchema,
  parents: z.array(gitShaSchema),
});

/**
 * The newest run of the pinned evidence workflow for a head, and what it carries: everything the
 * provenance rules judge, as read from GitHub, so a decision can be replayed from it.
 */
export const evidenceRunFactSchema = z.strictObject({
  run: evidenceRunSchema,
  /** The job named by `evidence.job` in the newest attempt; null when the run has none (yet). */
  job: evidenceJobSchema.nullable(),
  /** Every artifact of the run named like a command record, any attempt. */
  artifacts: z.array(recordArtifactSchema),
  /** The record in the one artifact of the job's attempt, when there is exactly one. */
  record: commandRecordSchema.nullable(),
  /** Why the record could not be read (download, size, zip, schema), in words. */
  record_error: z.string().nullable(),
  /** GitHub's word on the commit the record says it tested; null when GitHub does not have it. */
  tested_commit: testedCommitFactSchema.nullable(),
});

/**
 * Where the evidence may come from, read at the base: the pinned workflow and every local path it
 * uses (`uses: ./...`, followed through local composite actions). A change to any of them by the
 * pull request means the workflow that tested it is not the base's.
 */
export const evidenceSourceFactSchema = z.strictObject({
  workflow: z.string(),
  /** The workflow file exists at the base commit. */
  exists: z.boolean(),
  /** Repository paths (files or directories) the workflow uses locally. */
  uses: z.array(z.string()),
  /** Why the uses could not all be read; the records are then not believed. */
  error: z.string().nullable(),
  /** How many runs of the workflow exist for the head (only the newest decides). */
  runs_for_head: z.number().int().nonnegative(),
});

/** Whether the changed-file listing is the whole change at the graded SHAs. */
export const changedFilesListingSchema = z.strictObject({
  complete: z.boolean(),
  /** Why not, in words (a capped listing, a count that disagrees). */
  reason: z.string().nullable(),
});

/** The App's verdict on the newest evidence run: believed, waited for, or refused with why. */
export const commandEvidenceSchema = z.strictObject({
  run_id: positiveIntSchema,
  run_attempt: positiveIntSchema,
  run_url: z.string().nullable(),
  record: commandRecordSchema.nullable(),
  /** null: the record is believed. Otherwise why not, shown in the summary. */
  refused: z.string().nullable(),
  /** The run has not finished what it must, so GitHub's word is not in yet. */
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
  /** The base commit it was decided on (null in facts stored before it was kept). */
  base_sha: gitShaSchema.nullable().default(null),
  tree_sha: gitShaSchema.nullable(),
  state: decisionStateSchema,
  config_digest: z.string(),
  agate_version: z.string(),
  decided_at: isoDateTimeSchema,
  stale: z.strictObject({ superseded_by: gitShaSchema, at: isoDateTimeSchema }).nullable(),
});

/** How much of a failing command's tail an attempt keeps, to show a replayed failure. */
export const ATTEMPT_TAIL_CHARS = 2_000;

/**
 * One earlier graded attempt of the pull request, from its stored records: a head with a believed
 * command record, or a head whose unchanged tree replayed an earlier failure.
 */
export const attemptFactSchema = z.strictObject({
  head_sha: gitShaSchema,
  /** The head's own tree (null for records from before agate kept it). */
  head_tree_sha: gitShaSchema.nullable(),
  base_sha: gitShaSchema,
  config_digest: z.string(),
  agate_version: z.string(),
  /** The commands that did not pass, with the digest of their normalised output. */
  failures: z.array(
    z.strictObject({
      name: z.string(),
      exit_code: z.number().int().nullable(),
      timed_out: z.boolean(),
      output_digest: z.string(),
      tail: z.string().max(ATTEMPT_TAIL_CHARS),
    }),
  ),
  passed: z.array(z.string()),
  /** The evaluator's open items on this attempt; null when it gave no verdict on it. */
  missing: z.array(z.string()).nullable(),
  /** The earlier head whose failure this attempt replayed (its tree was unchanged). */
  replayed_from: gitShaSchema.nullable(),
  decided_at: isoDateTimeSchema,
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
  newest_change: z
    .strictObject({
      sha: gitShaSchema,
      files: z.array(z.string()),
      /** GitHub lists 3,000 files of a commit at most, and listed that many: `files` may miss some. */
      cut: z.boolean().optional(),
    })
    .nullable(),
  /**
   * The commit the file was read at (checks/gate/reads.ts `handoffReadAt`); null: not read at
   * all. Absent in facts stored before agate kept it.
   */
  read_at_sha: gitShaSchema.nullable().optional(),
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

/**
 * A handoff entry linked to the pull request: its form's "Blocking pull request" names it. Read
 * from agate's store (what agate decided about the entry), never from the issue. Anyone who can
 * open an issue can name any pull request, so a link only ever holds a pull request back
 * (pending, blocked, escalated); it never lets one pass.
 */
export const linkedEntryFactSchema = z.strictObject({
  issue_number: positiveIntSchema,
  state: handoffEntryStateSchema,
  /** Who opened the entry (the agent that waits). */
  author: z.string(),
  owner: z.string().nullable(),
  escalation_reason: escalationReasonSchema.nullable(),
  /** Why it ended blocked or escalated, in the words of whoever did it. */
  why: z.string().nullable(),
  /** The entry's question, cut to LINKED_ENTRY_QUESTION_CHARS. */
  question: z.string(),
  state_changed_at: isoDateTimeSchema,
});

/**
 * Whether the base branch requires the `agate` check from this App (checks/setup/required-check.ts):
 * GitHub's rules and branch protection as the App's installation reads them. Shown in the summary
 * when it is a problem; it never changes the decision.
 */
export const setupFactSchema = z.strictObject({
  branch: z.string(),
  status: findingStatusSchema,
  summary: z.string(),
  fix: z.string().nullable(),
  /**
   * From whom the branch requires `agate` (checks/setup/required-check.ts gateRequirement): this
   * App, any source, another App only, nobody, or unknown (a read failed, or the App is unknown).
   */
  requires: z.enum(["this_app", "any_source", "other_app", "none", "unknown"]).default("unknown"),
  /** Whether an active ruleset requires a merge queue on the branch; null: not read. */
  merge_queue: z.boolean().nullable().default(null),
  /** When GitHub was read (the App reuses a reading for a while). */
  read_at: isoDateTimeSchema,
});

/** How much of an entry's question the facts keep: enough for one line of the summary. */
export const LINKED_ENTRY_QUESTION_CHARS = 300;

/**
 * The agent-trace reports of the evidence run (the Action's `trace` input), read from the run and
 * attempt whose command record agate believed. Agent-influenced: shown as data and told to the
 * evaluator, never decided on.
 */
export const traceFactSchema = z.strictObject({
  run_id: positiveIntSchema,
  run_attempt: positiveIntSchema,
  artifact: z.string(),
  /** null when the artifact could not be read or did not hold reports; `error` says why. */
  traces: traceReportFileSchema.nullable(),
  error: z.string().nullable(),
});

/** Everything the gate decision is computed from; stored beside it so it can be replayed. */
export const gateFactsSchema = z.strictObject({
  pull_request: pullRequestSnapshotSchema,
  head_tree_sha: gitShaSchema.nullable(),
  config: baseConfigFactSchema,
  previously_gated: z.boolean(),
  changed_files: z.array(changedFileSchema),
  changed_files_listing: changedFilesListingSchema,
  /** Test merge commits GitHub reported for this head (pulls/get `merge_commit_sha`), oldest first. */
  merge_commits: z.array(gitShaSchema),
  evidence_source: evidenceSourceFactSchema.nullable(),
  evidence_run: evidenceRunFactSchema.nullable(),
  /** The provenance verdict on `evidence_run` (at most one: the newest run decides). */
  evidence: z.array(commandEvidenceSchema),
  approvals: z.array(approvalSchema),
  /** A maintainer's explicit acceptance of this exact head on this base, if any. */
  override: maintainerOverrideSchema.nullable(),
  /**
   * Other pull requests (or this one under another base) this head was seen in. GitHub's check
   * runs and workflow runs are per commit, so such a head's evidence cannot be attributed.
   */
  head_shared_with: z.array(
    z.strictObject({ pull_number: positiveIntSchema, base_ref: z.string() }),
  ),
  prior_records: z.array(priorRecordSchema),
  /** Earlier graded attempts (other heads), oldest first: what progress is judged on. */
  attempts: z.array(attemptFactSchema).default([]),
  agate_version: z.string(),
  /** null when the config is not readable. */
  handoff: handoffFactsSchema.nullable(),
  reviews: z.array(reviewVerdictFactSchema),
  evaluation: evaluationFactSchema,
  /** Handoff entries linked to this pull request: named by their form or mentioned in its description (absent in decisions made before agate read them). */
  entries: z.array(linkedEntryFactSchema).optional(),
  /** The evidence run's agent-trace reports; null or absent: the run uploaded none. */
  trace: traceFactSchema.nullable().optional(),
  /** Whether the base branch requires agate (absent in decisions made before agate read it). */
  setup: setupFactSchema.nullable().optional(),
  /**
   * The default branch's, read when the base (another branch) requires agate from nobody: whether
   * the repository requires agate where a pass computed for this base could stand next.
   */
  default_setup: setupFactSchema.nullable().optional(),
});

/**
 * The facts as gather hands them over: what GitHub and the store said, with no verdict. The
 * decision judges the evidence run first (checks/gate/evidence.ts), so `evidence` is never read.
 */
export const gatheredFactsSchema = gateFactsSchema.omit({ evidence: true });

export const requirementSchema = z.strictObject({
  id: z.enum([
    "config",
    "commands",
    "progress",
    "protected_paths",
    "evaluator",
    "handoff",
    "entries",
    "override",
  ]),
  name: z.string(),
  /**
   * blocked and capped end the gate as those states: the fix is outside the pull request.
   * stalled: attempts stopped making progress (a failure, and a different one is needed).
   */
  status: z.enum(["pass", "fail", "waiting", "blocked", "capped", "stalled"]),
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
  /** The earlier head whose failure this decision shows again: the tree did not change. */
  replayed_from: gitShaSchema.nullable().optional(),
  /** gate.report_only: the state is what agate would decide; the check concludes neutral. */
  report_only: z.boolean().optional(),
  /**
   * Why a passing conclusion (success, neutral) was held in progress: it would not count on this
   * base, and could stand for the commit on one where it does (checks/gate/base-requirement.ts).
   */
  held: z.string().nullable().optional(),
  /** The handoff file as verified, for the acceptance record; null when not looked at. */
  handoff: handoffCheckSchema.nullable(),
});

export type PullRequestSnapshot = z.infer<typeof pullRequestSnapshotSchema>;
export type PullRequestDetail = z.infer<typeof pullRequestDetailSchema>;
export type PullRequestView = z.infer<typeof pullRequestViewSchema>;
export type BaseConfigFact = z.infer<typeof baseConfigFactSchema>;
export type ChangedFile = z.infer<typeof changedFileSchema>;
export type CommandEvidence = z.infer<typeof commandEvidenceSchema>;
export type PriorRecord = z.infer<typeof priorRecordSchema>;
export type GateFacts = z.infer<typeof gateFactsSchema>;
export type GatheredFacts = z.infer<typeof gatheredFactsSchema>;
export type AttemptFact = z.infer<typeof attemptFactSchema>;
export type HandoffFacts = z.infer<typeof handoffFactsSchema>;
export type ReviewVerdictFact = z.infer<typeof reviewVerdictFactSchema>;
export type EvaluationFact = z.infer<typeof evaluationFactSchema>;
export type LinkedEntryFact = z.infer<typeof linkedEntryFactSchema>;
export type TraceFact = z.infer<typeof traceFactSchema>;
export type SetupFact = z.infer<typeof setupFactSchema>;
export type Requirement = z.infer<typeof requirementSchema>;
export type GateDecision = z.infer<typeof gateDecisionSchema>;

export type EvidenceRun = z.infer<typeof evidenceRunSchema>;
export type EvidenceJob = z.infer<typeof evidenceJobSchema>;
export type RecordArtifact = z.infer<typeof recordArtifactSchema>;
export type TestedCommitFact = z.infer<typeof testedCommitFactSchema>;
export type EvidenceRunFact = z.infer<typeof evidenceRunFactSchema>;
export type EvidenceSourceFact = z.infer<typeof evidenceSourceFactSchema>;
export type ChangedFilesListing = z.infer<typeof changedFilesListingSchema>;
