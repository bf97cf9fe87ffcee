import { parseConfig } from "../../checks/config/parse-config.js";
import { embedRecord } from "../../checks/record-embedding.js";
import { type CommandRecord, commandRecordSchema } from "../../schemas/command-record.js";
import type {
  CommandsCheckRunFact,
  GateFacts,
  HandoffFacts,
  WorkflowRunFact,
} from "../../schemas/gate.js";

/** SHAs that read as what they are in failure messages. */
export const HEAD = "1".repeat(40);
export const BASE = "2".repeat(40);
export const MERGE = "3".repeat(40);
export const TREE = "4".repeat(40);

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
    version: 1,
    repository: "octo/widgets",
    tested: { sha: MERGE, tree_sha: TREE, parents: [BASE, HEAD], clean: true, dirty_digest: null },
    pull_request: { number: 7, head_sha: HEAD, base_sha: BASE },
    merge_group: null,
    commands: exitCodes.map((exit_code, i) => ({
      name: ["unit", "lint", "extra"][i] ?? `c${i}`,
      run: "x",
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
    })),
    runner: { os: "Linux", arch: "X64", image_version: null, node_version: "v24.0.0" },
    grader: { agate_version: "0.1.0", config_digest: digest },
    workflow: {
      run_id: 99,
      run_attempt: 1,
      workflow_ref: "octo/widgets/.github/workflows/ci.yml@refs/pull/7/merge",
      job: "gate",
      event_name: "pull_request",
    },
    cut: [],
    created_at: "2026-12-02T10:00:03.000Z",
    ...overrides,
  });
}

export function commandsCheckRun(
  record: CommandRecord | null,
  overrides: Partial<CommandsCheckRunFact> = {},
): CommandsCheckRunFact {
  return {
    id: 501,
    app_slug: "github-actions",
    head_sha: HEAD,
    started_at: "2026-12-02T10:00:03Z",
    completed_at: "2026-12-02T10:00:03Z",
    text: record ? embedRecord(record, 65_535) : null,
    ...overrides,
  };
}

/** The workflow run the record names: completed, the agate step running 10:00:00–10:00:04. */
export function workflowRun(
  stepConclusion = "success",
  overrides: Partial<WorkflowRunFact> = {},
): WorkflowRunFact {
  return {
    id: 99,
    run_attempt: 1,
    head_sha: HEAD,
    path: ".github/workflows/ci.yml",
    status: "completed",
    conclusion: stepConclusion,
    jobs: [
      {
        name: "gate",
        status: "completed",
        conclusion: stepConclusion,
        steps: [
          {
            name: "Set up job",
            number: 1,
            status: "completed",
            conclusion: "success",
            started_at: "2026-12-02T09:59:50Z",
            completed_at: "2026-12-02T10:00:00Z",
          },
          {
            name: "Run OWNER/agate@v1",
            number: 2,
            status: "completed",
            conclusion: stepConclusion,
            started_at: "2026-12-02T10:00:00Z",
            completed_at: "2026-12-02T10:00:04Z",
          },
        ],
      },
    ],
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
    evidence: [],
    approvals: [],
    prior_records: [],
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
