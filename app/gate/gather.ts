import { parseConfig } from "../../checks/config/parse-config.js";
import { ConfigurationError } from "../../checks/errors.js";
import { COMPARE_FILES_LIMIT, judgeListing, PULL_FILES_LIMIT } from "../../checks/gate/listing.js";
import { protectedChanges } from "../../checks/gate/protected-paths.js";
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import { CONFIG_PATH, type Config } from "../../schemas/config.js";
import { EVALUATOR_PROMPT_VERSION } from "../../schemas/evaluation.js";
import type {
  BaseConfigFact,
  ChangedFile,
  ChangedFilesListing,
  EvaluationFact,
  GateFacts,
  HandoffFacts,
  PriorRecord,
  PullRequestSnapshot,
  ReviewVerdictFact,
} from "../../schemas/gate.js";
import type { GitHubAdapter, ReviewFact } from "../github/adapter.js";
import type { Store } from "../store/store.js";
import { remember } from "./bounded-map.js";
import { collectEvidence, type EvidenceCache } from "./evidence.js";

const WRITE_PERMISSIONS = new Set(["admin", "maintain", "write"]);

/** Parsed base configs by blob SHA: a blob never changes, so neither does its parse. */
export class ConfigCache {
  private readonly parsed = new Map<string, BaseConfigFact>();
  /** By repository and commit: a commit's file never changes either, so it is read once. */
  private readonly atCommit = new Map<string, BaseConfigFact>();

  async read(github: GitHubAdapter, baseSha: string): Promise<BaseConfigFact> {
    const key = `${github.owner}/${github.repo}@${baseSha}`;
    const known = this.atCommit.get(key);
    if (known) return known;
    const fact = await this.readFile(github, baseSha);
    remember(this.atCommit, key, fact, 1_000);
    return fact;
  }

  private async readFile(github: GitHubAdapter, baseSha: string): Promise<BaseConfigFact> {
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

/** The head or base moved while facts were read: a decision on them would mix two commits. */
export class HeadMovedError extends Error {
  constructor(number: number, what: string) {
    super(`${what} of #${number} moved while agate read it; starting over`);
    this.name = "HeadMovedError";
  }
}

/**
 * The files the pull request changes, at the exact base and head SHAs being graded. The compare
 * of base...head is read by SHA and so cannot mix two heads; it lists at most 300 files, so a
 * larger change is read from the pull request's own list (at most 3,000, read by number), after
 * which the pull request is read again to make sure the head did not move meanwhile. A listing
 * that may be cut is marked incomplete: the gate does not decide on it.
 */
export async function changedFilesAt(
  github: GitHubAdapter,
  pr: PullRequestSnapshot,
): Promise<{ files: ChangedFile[]; listing: ChangedFilesListing }> {
  const detail = await github.pullRequestDetail(pr.number);
  const compared = await github.compareFiles(pr.base_sha, pr.head_sha);
  if (compared.length < COMPARE_FILES_LIMIT && compared.length >= detail.changed_files) {
    return { files: compared, listing: { complete: true, reason: null } };
  }
  const listed = await github.changedFiles(pr.number);
  const after = await github.pullRequest(pr.number);
  if (after.head_sha !== pr.head_sha) throw new HeadMovedError(pr.number, "the head");
  if (after.base_sha !== pr.base_sha) throw new HeadMovedError(pr.number, "the base");
  const count = (await github.pullRequestDetail(pr.number)).changed_files;
  return {
    files: listed,
    listing: judgeListing({
      source: "GitHub's file list of a pull request",
      count: listed.length,
      limit: PULL_FILES_LIMIT,
      expected: count,
    }),
  };
}

/**
 * Collects everything the gate decision needs about one pull request, live from GitHub (the
 * config at the base SHA, never the head), plus what the store remembers. Reads GitHub only;
 * it writes to the store what GitHub reported about the head (its test merge commit, the pull
 * request and base it was seen in), which later evaluations need and GitHub does not keep.
 */
export async function gatherGateFacts(options: {
  github: GitHubAdapter;
  store: Store;
  configs: ConfigCache;
  evidence: EvidenceCache;
  pullRequest: PullRequestSnapshot;
  agateVersion: string;
  now: () => Date;
}): Promise<GateFacts> {
  const { github, store, pullRequest: pr } = options;
  const key = { repository: pr.repository, pullNumber: pr.number };
  const detail = await github.pullRequestDetail(pr.number);
  if (detail.merge_commit_sha) {
    await store.recordMergeCommit({
      repository: pr.repository,
      pull_number: pr.number,
      head_sha: pr.head_sha,
      merge_sha: detail.merge_commit_sha,
      observed_at: options.now().toISOString(),
    });
  }
  await store.recordHeadObservation({
    repository: pr.repository,
    head_sha: pr.head_sha,
    pull_number: pr.number,
    base_ref: pr.base_ref,
    observed_at: options.now().toISOString(),
  });
  const config = await options.configs.read(github, pr.base_sha);
  const [changed, head_tree_sha, stored, merge_commits, overrides, heads] = await Promise.all([
    changedFilesAt(github, pr),
    github.treeOf(pr.head_sha),
    store.listRecords(key),
    store.listMergeCommits({ ...key, headSha: pr.head_sha }),
    store.listOverrides({ ...key, headSha: pr.head_sha }),
    store.listHeadObservations({ repository: pr.repository, headSha: pr.head_sha }),
  ]);
  const prior_records = stored.map(priorRecordOf);
  // An override holds for the head on the base it was given on: a retarget voids it too.
  const override = overrides.filter((o) => o.base_ref === pr.base_ref).at(-1);
  const facts: GateFacts = {
    pull_request: pr,
    head_tree_sha,
    config,
    previously_gated: prior_records.some((r) => r.state !== "not_gated"),
    changed_files: changed.files,
    changed_files_listing: changed.listing,
    merge_commits,
    evidence_source: null,
    evidence_run: null,
    evidence: [],
    approvals: [],
    override: override
      ? {
          by: override.by,
          reason: override.reason,
          at: override.at,
          comment_url: override.comment_url,
        }
      : null,
    head_shared_with: heads.filter(
      (h) => h.pull_number !== pr.number || h.base_ref !== pr.base_ref,
    ),
    prior_records,
    agate_version: options.agateVersion,
    handoff: null,
    reviews: [],
    evaluation: { status: "not_asked" },
  };
  if (config.status !== "ok") return facts;
  const collected = await collectEvidence(github, options.evidence, {
    target: { kind: "pull_request", headSha: pr.head_sha, mergeCommits: merge_commits },
    repository: pr.repository,
    config: config.config,
    configDigest: config.digest,
    baseSha: pr.base_sha,
    changedFiles: changed.files,
    listing: changed.listing,
  });
  facts.evidence_source = collected.source;
  facts.evidence_run = collected.run;
  facts.evidence = collected.evidence;
  const cfg = config.config;
  const needsReviews =
    cfg.evaluator.kind === "review" || protectedChanges(changed.files, cfg).length > 0;
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
  // Commits are read by pull request number: if they end elsewhere, the head moved meanwhile.
  const last = commits.at(-1)?.sha;
  if (last && commits.length < 250 && last !== pr.head_sha) {
    throw new HeadMovedError(pr.number, "the head");
  }
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
