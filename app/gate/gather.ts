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
import { CONFIG_PATH, type Config } from "../../schemas/config.js";
import { EVALUATOR_PROMPT_VERSION } from "../../schemas/evaluation.js";
import type {
  BaseConfigFact,
  ChangedFile,
  CommandEvidence,
  EvaluationFact,
  GateFacts,
  HandoffFacts,
  PriorRecord,
  PullRequestSnapshot,
  ReviewVerdictFact,
  WorkflowRunFact,
} from "../../schemas/gate.js";
import type { GitHubAdapter, ReviewFact } from "../github/adapter.js";
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
  now: () => Date;
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
    handoff: null,
    reviews: [],
    evaluation: { status: "not_asked" },
  };
  if (config.status !== "ok") return facts;
  facts.evidence = await collectEvidence(github, {
    headSha: pr.head_sha,
    changedFiles: changed_files,
    configDigest: config.digest,
  });
  const cfg = config.config;
  const needsReviews =
    cfg.evaluator.kind === "review" || protectedChanges(changed_files, cfg).length > 0;
  const [reviews, handoff, evaluation] = await Promise.all([
    needsReviews ? latestReviews(github, pr, cfg.escalation.maintainers) : Promise.resolve([]),
    handoffFactsFor(github, pr, cfg, options.now()),
    cfg.evaluator.kind === "llm" || cfg.evaluator.kind === "command"
      ? storedEvaluation(store, pr, head_tree_sha, config.digest)
      : Promise.resolve<EvaluationFact>({ status: "not_asked" }),
  ]);
  facts.approvals = reviews
    .filter((r) => r.state === "APPROVED")
    .map(({ login, commit_id, submitted_at, maintainer }) => ({
      login,
      commit_id,
      submitted_at,
      maintainer,
    }));
  if (cfg.evaluator.kind === "review") facts.reviews = reviews;
  facts.handoff = handoff;
  facts.evaluation = evaluation;
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
 * Each reviewer's latest decisive review (a later review replaces an earlier one; comments do
 * not count), marked as a maintainer's or not: write access or a listed maintainer or team
 * member, and never the author or a bot.
 */
async function latestReviews(
  github: GitHubAdapter,
  pr: PullRequestSnapshot,
  maintainers: string[],
): Promise<ReviewVerdictFact[]> {
  const latest = new Map<string, ReviewFact>();
  for (const review of await github.reviews(pr.number)) {
    if (review.state === "COMMENTED" || review.state === "PENDING") continue;
    latest.set(review.login.toLowerCase(), review);
  }
  const verdicts: ReviewVerdictFact[] = [];
  for (const [login, review] of latest) {
    if (review.state !== "APPROVED" && review.state !== "CHANGES_REQUESTED") continue;
    if (!review.commit_id || !review.submitted_at) continue;
    // A bot's review is never a maintainer's: an agent must not approve its own work.
    const bot = review.user_type === "Bot" || login.endsWith("[bot]");
    const maintainer =
      !bot &&
      login !== pr.author.login.toLowerCase() &&
      (await isMaintainer(github, login, maintainers));
    verdicts.push({
      login,
      state: review.state,
      commit_id: review.commit_id,
      submitted_at: review.submitted_at,
      body: review.body,
      maintainer,
    });
  }
  return verdicts;
}

/** What the handoff rules and the file's verification need, read live at the head. */
async function handoffFactsFor(
  github: GitHubAdapter,
  pr: PullRequestSnapshot,
  config: Config,
  now: Date,
): Promise<HandoffFacts> {
  const rules = config.handoff.required_when;
  const [file, detail, commits] = await Promise.all([
    github.fileAt(config.handoff.path, pr.head_sha),
    github.pullRequestDetail(pr.number),
    rules.sessions_over === null ? Promise.resolve([]) : github.pullCommits(pr.number),
  ]);
  // Only a file that exists can be stale; its freshness needs the newest non-empty commit.
  let newest_change: HandoffFacts["newest_change"] = null;
  if (file) {
    const candidates = commits.length > 0 ? commits.map((c) => c.sha).reverse() : [pr.head_sha];
    for (const sha of candidates.slice(0, 5)) {
      const files = await github.commitFiles(sha);
      if (files.length > 0) {
        newest_change = { sha, files };
        break;
      }
    }
  }
  return {
    file: file ? { path: config.handoff.path, blob_sha: file.blobSha, text: file.text } : null,
    observed_at: now.toISOString(),
    opened_at: detail.created_at,
    commit_count: detail.commits,
    changed_lines: detail.additions + detail.deletions,
    commits,
    newest_change,
  };
}

/**
 * The stored evaluation of the head's tree under this config and prompt version: a verdict
 * binds to the tree it judged, so a new SHA with the same tree reuses it.
 */
async function storedEvaluation(
  store: Store,
  pr: PullRequestSnapshot,
  treeSha: string | null,
  configDigest: string,
): Promise<EvaluationFact> {
  if (!treeSha) return { status: "not_asked" };
  const stored = await store.listEvaluations({
    repository: pr.repository,
    pullNumber: pr.number,
    treeSha,
  });
  const latest = stored
    .filter(
      (e) => e.config_digest === configDigest && e.run.prompt_version === EVALUATOR_PROMPT_VERSION,
    )
    .at(-1);
  return latest ? { status: "judged", evaluation: latest } : { status: "not_asked" };
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
