import { parseConfig } from "../../checks/config/parse-config.js";
import {
  type CommandRecord,
  type CommandResult,
  commandRecordSchema,
  recordArtifactName,
} from "../../schemas/command-record.js";
import type { Evaluation } from "../../schemas/evaluation.js";
import type {
  AttemptFact,
  CommandEvidence,
  EvidenceRunFact,
  EvidenceSourceFact,
  GateFacts,
  HandoffFacts,
} from "../../schemas/gate.js";

/** SHAs that read as what they are in failure messages. */
export const HEAD = "1".repeat(40);
export const BASE = "2".repeat(40);
export const MERGE = "3".repeat(40);
export const TREE = "4".repeat(40);
/** The tree of the merge commit MERGE. */
export const MERGE_TREE = "6".repeat(40);
export const EVIDENCE_WORKFLOW = ".github/workflows/agate.yml";

export const CONFIG_TEXT =
  "version: 1\ncommands:\n  - { name: unit, run: npm test }\n  - { name: lint, run: npm run lint }\n";

export function loadedConfig(text = CONFIG_TEXT) {
  return parseConfig(text);
}

/** A command record as the Action would make it on the merge commit of HEAD into BASE. */
export function commandRecord(
  exitCodes: number[] = [0, 0],
  overrides: Partial<CommandRecord> = {},
): CommandRecord {
  const digest = loadedConfig().digest;
  return commandRecordSchema.parse({
    kind: "agate.command-record",
    version: 2,
    repository: "octo/widgets",
    tested: {
      sha: MERGE,
      tree_sha: MERGE_TREE,
      parents: [],
      clean_before: true,
      dirty_before: [],
      clean: true,
      dirty_digest: null,
    },
    pull_request: { number: 7, head_sha: HEAD, base_sha: BASE },
    merge_group: null,
    commands: exitCodes.map((exit_code, i) => ({
      name: ["unit", "lint", "extra"][i] ?? `c${i}`,
      run: ["npm test", "npm run lint", "true"][i] ?? "true",
      exit_code,
      signal: null,
      timed_out: false,
      started_at: "2026-12-02T10:00:01.000Z",
      duration_ms: 1200,
      output: {
        bytes: 3,
        sha256: "a".repeat(64),
        normalized_sha256: "b".repeat(64),
        tail: exit_code ? "boom\n" : "ok\n",
        truncated: false,
      },
      changed_paths: [],
      changed_paths_count: 0,
    })),
    runner: { os: "Linux", arch: "X64", image_version: null, node_version: "v24.0.0" },
    grader: { agate_version: "0.1.0", config_digest: digest },
    workflow: {
      run_id: 99,
      run_attempt: 1,
      workflow_ref: "octo/widgets/.github/workflows/agate.yml@refs/pull/7/merge",
      job: "agate-commands",
      event_name: "pull_request",
    },
    isolation: { mode: "user", user: "agate-0e31a4d2e9", uid: 999, reason: null, swept: "user" },
    cut: [],
    created_at: "2026-12-02T10:00:03.000Z",
    ...overrides,
  });
}

/** The base's evidence workflow, using nothing local. */
export function evidenceSource(overrides: Partial<EvidenceSourceFact> = {}): EvidenceSourceFact {
  return {
    workflow: EVIDENCE_WORKFLOW,
    exists: true,
    uses: [],
    error: null,
    runs_for_head: 1,
    ...overrides,
  };
}

/**
 * A completed pull_request run of the evidence workflow for HEAD whose job `agate` ran the step
 * `agate` with `stepConclusion`, and uploaded `record` as its one record artifact; GitHub has
 * MERGE with parents [BASE, HEAD] and tree MERGE_TREE.
 */
export function evidenceRun(
  record: CommandRecord | null,
  stepConclusion = "success",
  overrides: Partial<EvidenceRunFact> = {},
): EvidenceRunFact {
  return {
    run: {
      id: 99,
      run_attempt: 1,
      head_sha: HEAD,
      path: EVIDENCE_WORKFLOW,
      event: "pull_request",
      status: "completed",
      conclusion: stepConclusion,
      html_url: "https://github.com/octo/widgets/actions/runs/99",
      head_repository: "octo/widgets",
      pull_requests: [{ number: 7, base_ref: "main", base_sha: BASE }],
    },
    job: {
      id: 500,
      name: "agate-commands",
      run_attempt: 1,
      status: "completed",
      conclusion: stepConclusion,
      html_url: "https://github.com/octo/widgets/actions/runs/99/job/500",
      steps: [
        { name: "Set up job", number: 1, status: "completed", conclusion: "success" },
        { name: "Run actions/checkout", number: 2, status: "completed", conclusion: "success" },
        { name: "agate", number: 3, status: "completed", conclusion: stepConclusion },
      ],
    },
    artifacts: [{ id: 700, name: recordArtifactName(1), size_in_bytes: 900, expired: false }],
    record,
    record_error: null,
    tested_commit: { sha: MERGE, tree_sha: MERGE_TREE, parents: [BASE, HEAD] },
    ...overrides,
  };
}

/** Facts for a gated pull request (label agent) with no evidence yet; override what a test needs. */
export function gateFacts(overrides: Partial<GateFacts> = {}): GateFacts {
  const { config, digest } = loadedConfig();
  return {
    pull_request: {
      repository: "octo/widgets",
      number: 7,
      state: "open",
      draft: false,
      head_sha: HEAD,
      head_ref: "feature/x",
      base_sha: BASE,
      base_ref: "main",
      author: { login: "codex[bot]", type: "Bot" },
      labels: ["agent"],
    },
    head_tree_sha: TREE,
    config: { status: "ok", path: ".github/agate.yml", blob_sha: "5".repeat(40), digest, config },
    previously_gated: false,
    changed_files: [{ filename: "src/a.ts", previous_filename: null, status: "modified" }],
    changed_files_listing: { complete: true, reason: null },
    merge_commits: [MERGE],
    evidence_source: evidenceSource(),
    evidence_run: null,
    evidence: [],
    approvals: [],
    override: null,
    head_shared_with: [],
    prior_records: [],
    attempts: [],
    agate_version: "0.1.0",
    handoff: handoffFacts(),
    reviews: [],
    evaluation: { status: "not_asked" },
    ...overrides,
  };
}

/** A short pull request with no handoff file: opened an hour before it was read, one commit. */
export function handoffFacts(overrides: Partial<HandoffFacts> = {}): HandoffFacts {
  return {
    file: null,
    observed_at: "2026-12-02T11:00:00Z",
    opened_at: "2026-12-02T10:00:00Z",
    commit_count: 1,
    changed_lines: 10,
    commits: [{ sha: HEAD, message: "Add a", committed_at: "2026-12-02T09:59:00Z" }],
    newest_change: { sha: HEAD, files: ["src/a.ts"] },
    ...overrides,
  };
}

/** The App's verdict on an evidence run, believed unless overridden. */
export function commandEvidence(
  exitCodes: number[] = [0, 0],
  overrides: Partial<CommandEvidence> = {},
): CommandEvidence {
  return {
    run_id: 99,
    run_attempt: 1,
    run_url: "https://github.com/octo/widgets/actions/runs/99/job/500",
    record: commandRecord(exitCodes),
    refused: null,
    waiting: null,
    ...overrides,
  };
}

/** The base config fact for a config text (CONFIG_TEXT by default), as the App reads it. */
export function configFact(text = CONFIG_TEXT): GateFacts["config"] {
  const { config, digest } = loadedConfig(text);
  return { status: "ok", path: ".github/agate.yml", blob_sha: "5".repeat(40), digest, config };
}

/**
 * An earlier graded attempt of the pull request as gather keeps it: head `head` on tree `tree`
 * failed `unit` (exit 1) with the normalised output digest `outputDigest`, under CONFIG_TEXT.
 */
export function attemptFact(
  head: string,
  tree: string,
  outputDigest = "b".repeat(64),
  overrides: Partial<AttemptFact> = {},
): AttemptFact {
  return {
    head_sha: head,
    head_tree_sha: tree,
    base_sha: BASE,
    config_digest: loadedConfig().digest,
    agate_version: "0.1.0",
    failures: [
      { name: "unit", exit_code: 1, timed_out: false, output_digest: outputDigest, tail: "boom\n" },
    ],
    passed: ["lint"],
    missing: null,
    replayed_from: null,
    decided_at: "2026-12-02T10:00:00.000Z",
    ...overrides,
  };
}

/** The llm evaluator's stored verdict on HEAD's tree (openai judge-1). */
export function judgedEvaluation(verdict: {
  complete: boolean;
  score: number;
  missing: string[];
  evidence?: string[];
}): GateFacts["evaluation"] {
  const evaluation: Evaluation = {
    id: 1,
    repository: "octo/widgets",
    pull_number: 7,
    head_sha: HEAD,
    base_sha: BASE,
    merge_base_sha: BASE,
    tree_sha: TREE,
    config_digest: "d".repeat(64),
    run: {
      kind: "llm",
      provider: "openai",
      model: "judge-1",
      prompt_version: "agate-eval-1",
      input_tokens: 10,
      output_tokens: 5,
      latency_ms: 100,
      requests: 1,
    },
    outcome: { status: "verdict", verdict: { evidence: [], ...verdict } },
    at: "2026-12-02T10:01:00Z",
  };
  return { status: "judged", evaluation };
}

/** A command that exited 0 with `tail` as its output, for the evaluator's bundle and prompt. */
export function commandResult(name: string, run: string, tail: string): CommandResult {
  return {
    name,
    run,
    exit_code: 0,
    signal: null,
    timed_out: false,
    started_at: "2026-01-01T00:00:00.000Z",
    duration_ms: 10,
    output: {
      bytes: tail.length,
      sha256: "0".repeat(64),
      normalized_sha256: "0".repeat(64),
      tail,
      truncated: false,
    },
    changed_paths: [],
    changed_paths_count: 0,
  };
}
