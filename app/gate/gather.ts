import { parseConfig } from "../../checks/config/parse-config.js";
import { ConfigurationError } from "../../checks/errors.js";
import { protectedChanges } from "../../checks/gate/protected-paths.js";
import {
  type ProvenanceInput,
  type ProvenanceVerdict,
  verifyProvenance,
} from "../../checks/gate/provenance.js";
import { extractRecord } from "../../checks/record-embedding.js";
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import { COMMANDS_CHECK_NAME } from "../../schemas/command-record.js";
import { CONFIG_PATH } from "../../schemas/config.js";
import type {
  Approval,
  BaseConfigFact,
  ChangedFile,
  CommandEvidence,
  GateFacts,
  PriorRecord,
  PullRequestSnapshot,
  WorkflowRunFact,
} from "../../schemas/gate.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { Store } from "../store/store.js";

const WRITE_PERMISSIONS = new Set(["admin", "maintain", "write"]);

/** Parsed base configs by blob SHA: a blob never changes, so neither does its parse. */
export class ConfigCache {
  private readonly parsed = new Map<string, BaseConfigFact>();

  async read(github: GitHubAdapter, baseSha: string): Promise<BaseConfigFact> {
    const file = await github.fileAt(CONFIG_PATH, baseSha);
    if (!file) return { status: "missing", path: CONFIG_PATH };
    const cached = this.parsed.get(file.blobSha);
    if (cached) return cached;
    let fact: BaseConfigFact;
    try {
      const { config, digest } = parseConfig(file.text, CONFIG_PATH);
      fact = { status: "ok", path: CONFIG_PATH, blob_sha: file.blobSha, digest, config };
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      fact = { status: "invalid", path: CONFIG_PATH, message: error.message };
    }
    this.parsed.set(file.blobSha, fact);
    return fact;
  }
}

export function priorRecordOf(record: AcceptanceRecord): PriorRecord {
  return {
    id: record.id,
    head_sha: record.head_sha,
    tree_sha: record.tested?.tree_sha ?? null,
    state: record.decision.state,
    config_digest: record.grader.config_digest,
    agate_version: record.grader.agate_version,
    decided_at: record.decided_at,
    stale: record.stale,
  };
}

/**
 * Collects everything the gate decision needs about one pull request, live from GitHub (the
 * config at the base SHA, never the head), plus what the store remembers. Reads only.
 */
export async function gatherGateFacts(options: {
  github: GitHubAdapter;
  store: Store;
  configs: ConfigCache;
  pullRequest: PullRequestSnapshot;
  agateVersion: string;
}): Promise<GateFacts> {
  const { github, store, pullRequest: pr } = options;
  const config = await options.configs.read(github, pr.base_sha);
  const [changed_files, head_tree_sha, stored] = await Promise.all([
    github.changedFiles(pr.number),
    github.treeOf(pr.head_sha),
    store.listRecords({ repository: pr.repository, pullNumber: pr.number }),
  ]);
  const prior_records = stored.map(priorRecordOf);
  const facts: GateFacts = {
    pull_request: pr,
    head_tree_sha,
    config,
    previously_gated: prior_records.some((r) => r.state !== "not_gated"),
    changed_files,
    evidence: [],
    approvals: [],
    prior_records,
    agate_version: options.agateVersion,
  };
  if (config.status !== "ok") return facts;
  facts.evidence = await collectEvidence(github, {
    headSha: pr.head_sha,
    changedFiles: changed_files,
    configDigest: config.digest,
  });
  if (protectedChanges(changed_files, config.config).length > 0) {
    facts.approvals = await approvalsFor(github, pr, config.config.escalation.maintainers);
  }
  return facts;
}

/**
 * The `agate/commands` check runs on a commit, each with the App's verdict on where it came from.
 * Each workflow run they name is read once, however many records name it.
 */
export async function collectEvidence(
  github: GitHubAdapter,
  input: { headSha: string; changedFiles: ChangedFile[]; configDigest: string },
  verify: (input: ProvenanceInput) => ProvenanceVerdict = verifyProvenance,
): Promise<CommandEvidence[]> {
  const checkRuns = await github.checkRunsNamed(COMMANDS_CHECK_NAME, input.headSha);
  const runs = new Map<number, Promise<WorkflowRunFact | null>>();
  const evidence: CommandEvidence[] = [];
  for (const checkRun of checkRuns) {
    const extracted = extractRecord(checkRun.text);
    const runId = extracted.ok ? extracted.record.workflow?.run_id : undefined;
    let run: WorkflowRunFact | null = null;
    if (runId !== undefined) {
      if (!runs.has(runId)) runs.set(runId, github.workflowRun(runId));
      run = (await runs.get(runId)) ?? null;
    }
    const verdict = verify({ checkRun, run, ...input });
    evidence.push({
      check_run_id: checkRun.id,
      created_at: checkRun.completed_at ?? checkRun.started_at ?? new Date(0).toISOString(),
      record: verdict.record,
      refused: verdict.status === "refused" ? verdict.reason : null,
      waiting: verdict.status === "waiting" ? verdict.reason : null,
    });
  }
  return evidence;
}

/**
 * Approvals that still stand (a reviewer's latest review decides), each marked as a maintainer's
 * or not: write access or a listed maintainer or team member, and never the author.
 */
async function approvalsFor(
  github: GitHubAdapter,
  pr: PullRequestSnapshot,
  maintainers: string[],
): Promise<Approval[]> {
  const latest = new Map<
    string,
    { state: string; commit_id: string | null; submitted_at: string | null }
  >();
  for (const review of await github.reviews(pr.number)) {
    if (review.state === "COMMENTED" || review.state === "PENDING") continue;
    latest.set(review.login.toLowerCase(), review);
  }
  const approvals: Approval[] = [];
  for (const [login, review] of latest) {
    if (review.state !== "APPROVED" || !review.commit_id || !review.submitted_at) continue;
    const maintainer =
      login !== pr.author.login.toLowerCase() && (await isMaintainer(github, login, maintainers));
    approvals.push({
      login,
      commit_id: review.commit_id,
      submitted_at: review.submitted_at,
      maintainer,
    });
  }
  return approvals;
}

async function isMaintainer(
  github: GitHubAdapter,
  login: string,
  maintainers: string[],
): Promise<boolean> {
  if (maintainers.length === 0) return WRITE_PERMISSIONS.has(await github.permission(login));
  for (const entry of maintainers) {
    const team = /^@([^/]+)\/(.+)$/.exec(entry);
    if (team?.[1] && team[2]) {
      if (await github.isTeamMember(team[1], team[2], login)) return true;
    } else if (entry.replace(/^@/, "").toLowerCase() === login) {
      return true;
    }
  }
  return false;
}
