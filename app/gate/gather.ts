/**
 * gather: everything the gate decision needs about one pull request, read once, through the
 * adapter, at the exact SHAs being graded (the config at the base, never the head), plus what the
 * store remembers. It writes nothing: what GitHub reported that later passes need (the test merge
 * commit, the pull request and base the head was seen in) is returned as observations for apply.
 */

import { entryMentions } from "../../checks/entries/mentions.js";
import { attemptsOf, priorRecordOf } from "../../checks/gate/attempts.js";
import { linkedEntries } from "../../checks/gate/entries.js";
import {
  compareIsWhole,
  handoffReadAt,
  newestChangeCandidates,
  planReads,
  pullListing,
  readsDefaultSetup,
  readsSetup,
  seenViewIsNewest,
} from "../../checks/gate/reads.js";
import type { Config } from "../../schemas/config.js";
import type {
  BaseConfigFact,
  ChangedFile,
  ChangedFilesListing,
  EvaluationFact,
  EvidenceJob,
  GateFacts,
  HandoffFacts,
  PullRequestDetail,
  PullRequestSnapshot,
  PullRequestView,
  ReviewVerdictFact,
  TestedCommitFact,
} from "../../schemas/gate.js";
import type { Comparison, GitHubAdapter, ReviewFact } from "../github/adapter.js";
import { isMaintainer } from "../github/maintainers.js";
import type { ImmutableReads } from "../github/reads.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { BaseSightingStore } from "../store/ports/base-sighting-store.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { EvaluationStore } from "../store/ports/evaluation-store.js";
import type { ObservationStore } from "../store/ports/observation-store.js";
import type { OverrideStore } from "../store/ports/override-store.js";
import type { RecordStore } from "../store/ports/record-store.js";
import { dailyBudgetSpent, evaluatorIsDue, storedEvaluation } from "./evaluation-facts.js";
import { collectEvidence, type EvidenceCache } from "./evidence.js";
import type { RequiredCheckReader } from "./required-check.js";
import { readTraceFact, TraceReportCache, traceReaderOf } from "./trace-report.js";

export type GatherStore = RecordStore &
  EvaluationStore &
  OverrideStore &
  ObservationStore &
  BaseSightingStore &
  AuditLog &
  Pick<EntryStore, "listEntries">;

export interface GatherDeps {
  github: GitHubAdapter;
  store: GatherStore;
  reads: ImmutableReads;
  evidence: EvidenceCache;
  agateVersion: string;
  now: () => Date;
  /** Trace-report reads kept across passes; a fresh one per pass when absent. */
  traceReports?: TraceReportCache;
  /** Whether the base branch requires agate; absent: not read (no `setup` fact). */
  setup?: RequiredCheckReader;
}

/** What GitHub reported in this pass that later passes need and GitHub does not keep. */
export interface Observations {
  merge_commit: { head_sha: string; merge_sha: string } | null;
  head: { head_sha: string; base_ref: string };
  /** The view of the pull request this pass acted on: an older one is never believed after it. */
  view: PullRequestView;
  /** The issues its description mentions (checks/entries/mentions.ts): entries it links. */
  entry_mentions: number[];
}

export interface Gathered {
  facts: GateFacts;
  observations: Observations;
  /** Nothing stored for the head's tree answers the evaluator, or a person asked again. */
  evaluatorDue: boolean;
  /**
   * agate saw this head before (in any pull request), so it may have a check on it. A head never
   * seen has none of agate's: its check is created without listing first.
   */
  headSeen: boolean;
}

/** The head or base moved while facts were read: a decision on them would mix two commits. */
class HeadMovedError extends Error {
  constructor(number: number, what: string) {
    super(`${what} of #${number} moved while agate read it; starting over`);
    this.name = "HeadMovedError";
  }
}

/**
 * The files the pull request changes, at the exact base and head SHAs. The compare of base...head
 * is read by SHA and so cannot mix two heads; it lists at most 300 files, so a larger change is
 * read from the pull request's own list (at most 3,000, read by number), after which the pull
 * request is read again to make sure neither end moved meanwhile. A listing that may be cut is
 * marked incomplete: the gate does not decide on it.
 */
async function changedFilesAt(
  github: GitHubAdapter,
  pr: PullRequestSnapshot,
  detail: PullRequestDetail,
  comparison: Comparison,
): Promise<{ files: ChangedFile[]; listing: ChangedFilesListing }> {
  const compared = comparison.files.map(({ filename, previous_filename, status }) => ({
    filename,
    previous_filename,
    status,
  }));
  if (compareIsWhole(compared.length, detail.changed_files)) {
    return { files: compared, listing: { complete: true, reason: null } };
  }
  const listed = await github.changedFiles(pr.number);
  const after = await github.pullRequest(pr.number);
  if (after.head_sha !== pr.head_sha) throw new HeadMovedError(pr.number, "the head");
  if (after.base_sha !== pr.base_sha) throw new HeadMovedError(pr.number, "the base");
  const count = (await github.pullRequestDetail(pr.number)).changed_files;
  return {
    files: listed,
    listing: pullListing(listed.length, count),
  };
}

/** A commit of the comparison as GitHub has it, without another call when the compare had it. */
function commitOf(comparison: Comparison, sha: string): TestedCommitFact | null {
  const commit = comparison.commits.find((c) => c.sha === sha);
  return commit ? { sha: commit.sha, tree_sha: commit.tree_sha, parents: commit.parents } : null;
}

function headTreeOf(comparison: Comparison): string | null {
  const head = comparison.head_sha;
  if (head === comparison.merge_base_sha) return comparison.merge_base_tree_sha;
  return commitOf(comparison, head)?.tree_sha ?? null;
}

type GatherOutcome = ({ status: "gathered" } & Gathered) | { status: "skipped"; reason: string };

/**
 * Whether an event's view of the pull request can stand for a fresh read: no pass acted on a
 * newer one (checks/gate/reads.ts). A pull request agate decided on before any sighting was kept
 * is read afresh.
 */
async function viewIsCurrent(store: GatherStore, view: PullRequestView): Promise<boolean> {
  const key = { repository: view.snapshot.repository, pullNumber: view.snapshot.number };
  const last = await store.latestPullRequestSighting(key);
  if (!last) return (await store.listRecords(key)).length === 0;
  return seenViewIsNewest(view, last);
}

/**
 * Gathers the facts for one pull request. When the event named the head and base, everything
 * that is read by SHA is read first and the pull request after: if either end moved meanwhile,
 * the pass starts over on what GitHub now shows, so facts never mix two commits. The event's own
 * view of the pull request stands in for that read when it is current (viewIsCurrent). Without
 * a head and base, the live pull request comes first.
 */
export async function gatherPullRequest(
  deps: GatherDeps,
  target: {
    number: number;
    head_sha: string | null;
    base_sha: string | null;
    seen?: PullRequestView | null;
  },
  options: {
    /** The event was the push itself (opened, synchronize): no run for it can have finished. */
    skipRuns: boolean;
    rerunEvaluator: boolean;
    /** The event matters only under some base configs (a workflow event of another workflow). */
    relevant?: ((config: Config) => boolean) | undefined;
    /** A completed job as its own event showed it (see collectEvidence's `completedJob`). */
    completedJob?: { runId: number; job: EvidenceJob } | null;
  },
): Promise<GatherOutcome> {
  const { github, reads } = deps;
  let read: PullRequestView | null = null;
  let expected =
    target.head_sha && target.base_sha ? { head: target.head_sha, base: target.base_sha } : null;
  let seen =
    target.seen &&
    expected &&
    target.seen.snapshot.head_sha === expected.head &&
    target.seen.snapshot.base_sha === expected.base &&
    (await viewIsCurrent(deps.store, target.seen))
      ? target.seen
      : null;
  for (let attempt = 1; ; attempt++) {
    if (!expected) {
      read = await github.pullRequestView(target.number);
      expected = { head: read.snapshot.head_sha, base: read.snapshot.base_sha };
    }
    const [config, comparison] = await Promise.all([
      reads.config(github, expected.base),
      reads.compare(github, expected.base, expected.head),
    ]);
    const view: PullRequestView = read ?? seen ?? (await github.pullRequestView(target.number));
    const live = view.snapshot;
    if (live.state !== "open") return { status: "skipped", reason: `#${live.number} is closed` };
    if (live.head_sha === expected.head && live.base_sha === expected.base) {
      if (options.relevant && config.status === "ok" && !options.relevant(config.config)) {
        return {
          status: "skipped",
          reason: `#${live.number}: not the evidence workflow or job of its base config`,
        };
      }
      return { status: "gathered", ...(await gatherAt(deps, view, config, comparison, options)) };
    }
    if (attempt >= 3) throw new HeadMovedError(target.number, "the head");
    // Moved: start over on what GitHub now shows (this read is fresh; no second one).
    read = view;
    seen = null;
    expected = { head: live.head_sha, base: live.base_sha };
  }
}

async function gatherAt(
  deps: GatherDeps,
  view: PullRequestView,
  config: BaseConfigFact,
  comparison: Comparison,
  options: {
    skipRuns: boolean;
    rerunEvaluator: boolean;
    completedJob?: { runId: number; job: EvidenceJob } | null;
  },
): Promise<Gathered> {
  const { github, store } = deps;
  const { snapshot: pr, detail } = view;
  const key = { repository: pr.repository, pullNumber: pr.number };
  const head = { repository: pr.repository, headSha: pr.head_sha };
  const [stored, mergeCommits, overrides, sightings, bases, entries] = await Promise.all([
    store.listRecords(key),
    store.listMergeCommits({ ...key, headSha: pr.head_sha }),
    store.listOverrides({ ...key, headSha: pr.head_sha }),
    store.listHeadObservations(head),
    store.listBaseSightings(head),
    store.listEntries({ repository: pr.repository }),
  ]);
  const observations: Observations = {
    merge_commit: detail.merge_commit_sha
      ? { head_sha: pr.head_sha, merge_sha: detail.merge_commit_sha }
      : null,
    head: { head_sha: pr.head_sha, base_ref: pr.base_ref },
    view,
    entry_mentions: entryMentions(detail.body, pr.repository),
  };
  const merge_commits =
    detail.merge_commit_sha && !mergeCommits.includes(detail.merge_commit_sha)
      ? [...mergeCommits, detail.merge_commit_sha]
      : mergeCommits;
  const changed = await changedFilesAt(github, pr, detail, comparison);
  const head_tree_sha = headTreeOf(comparison) ?? (await github.treeOf(pr.head_sha));
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
    head_shared_with: sharedWith(pr, [...sightings, ...bases]),
    prior_records,
    attempts: attemptsOf(stored, pr.head_sha),
    agate_version: deps.agateVersion,
    handoff: null,
    reviews: [],
    evaluation: { status: "not_asked" },
    entries: linkedEntries(entries, pr.number, observations.entry_mentions),
    trace: null,
    setup: null,
  };
  const headSeen = sightings.length > 0;
  // Where a pass counts (checks/gate/base-requirement.ts): a neutral is a pass too, so it is
  // read for a base without a config as well. Kept for ten minutes per branch (required-check.ts).
  if (deps.setup && readsSetup(config)) await readSetup(deps, deps.setup, facts);
  if (config.status !== "ok") return { facts, observations, evaluatorDue: false, headSeen };
  const cfg = config.config;
  const plan = planReads({
    config: cfg,
    changedFiles: changed.files,
    pushEvent: options.skipRuns,
    headDecided: stored.some((r) => r.head_sha === pr.head_sha),
  });
  const collected = await collectEvidence(github, deps.evidence, {
    target: {
      kind: "pull_request",
      number: pr.number,
      baseRef: pr.base_ref,
      headSha: pr.head_sha,
      mergeCommits: merge_commits,
    },
    repository: pr.repository,
    config: cfg,
    configDigest: config.digest,
    baseSha: pr.base_sha,
    changedFiles: changed.files,
    listing: changed.listing,
    skipRuns: plan.skipRuns,
    knownCommit: (sha) => commitOf(comparison, sha),
    completedJob: options.completedJob ?? null,
  });
  facts.evidence_source = collected.source;
  facts.evidence_run = collected.run;
  facts.evidence = collected.evidence;
  facts.trace = await readTraceFact(
    traceReaderOf(github),
    deps.traceReports ?? new TraceReportCache(),
    collected.run,
    collected.evidence,
  );
  const [reviews, handoff, evaluation] = await Promise.all([
    plan.reviews ? latestReviews(github, pr, cfg.escalation.maintainers) : Promise.resolve([]),
    handoffFactsFor(deps, pr, cfg, detail, comparison, changed),
    plan.evaluations
      ? storedEvaluation(store, pr, head_tree_sha, config.digest, stored)
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
  let evaluatorDue =
    plan.evaluations && (await evaluatorIsDue(store, facts, cfg, options.rerunEvaluator));
  if (evaluatorDue) {
    const spent = await dailyBudgetSpent(store, pr, cfg, deps.now());
    if (spent) {
      facts.evaluation = spent;
      evaluatorDue = false;
    }
  }
  return { facts, observations, evaluatorDue, headSeen };
}

/**
 * Whether the base requires agate, and, when it requires it from nobody, whether the default
 * branch does: where a pass computed for this base could stand next.
 */
async function readSetup(
  deps: GatherDeps,
  setup: RequiredCheckReader,
  facts: GateFacts,
): Promise<void> {
  const pr = facts.pull_request;
  facts.setup = await setup.read(deps.github, pr.repository, pr.base_ref);
  if (!readsDefaultSetup(facts.setup)) return;
  const name = await setup.defaultBranch(deps.github, pr.repository);
  if (name !== pr.base_ref)
    facts.default_setup = await setup.read(deps.github, pr.repository, name);
}

/**
 * Every other pull request, or other base of this one, the head was seen with: by a pass's own
 * read, or named by an event (app/gate/event-bases.ts), once each.
 */
function sharedWith(
  pr: PullRequestSnapshot,
  seen: readonly { pull_number: number; base_ref: string }[],
): { pull_number: number; base_ref: string }[] {
  const others = new Map<string, { pull_number: number; base_ref: string }>();
  for (const { pull_number, base_ref } of seen) {
    if (pull_number === pr.number && base_ref === pr.base_ref) continue;
    others.set(`${pull_number}\n${base_ref}`, { pull_number, base_ref });
  }
  return [...others.values()];
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
    // The author's, or a bot's (by GitHub's account type), review is never a maintainer's: an
    // agent must not approve its own work.
    const maintainer =
      login !== pr.author.login.toLowerCase() &&
      (await isMaintainer(github, { login: review.login, type: review.user_type }, maintainers));
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

/**
 * The handoff file at the head and what its rules and verification need; the commits are the
 * compare's. Where the file is read, if at all, is the read plan's (checks/gate/reads.ts).
 */
async function handoffFactsFor(
  deps: GatherDeps,
  pr: PullRequestSnapshot,
  config: Config,
  detail: PullRequestDetail,
  comparison: Comparison,
  changed: { files: ChangedFile[]; listing: ChangedFilesListing },
): Promise<HandoffFacts> {
  const { github, reads } = deps;
  const path = config.handoff.path;
  const commits =
    config.handoff.required_when.sessions_over === null
      ? []
      : comparison.commits.map(({ sha, message, committed_at }) => ({
          sha,
          message,
          committed_at,
        }));
  const facts: HandoffFacts = {
    file: null,
    observed_at: deps.now().toISOString(),
    opened_at: detail.created_at,
    commit_count: detail.commits,
    changed_lines: detail.additions + detail.deletions,
    commits,
    newest_change: null,
  };
  const at = handoffReadAt({
    config,
    labels: pr.labels,
    facts,
    changed,
    mergeBase: comparison.merge_base_sha,
    head: pr.head_sha,
  });
  const file = at ? await reads.file(github, path, at) : null;
  if (!file) return facts;
  // Only a file that exists can be stale; its freshness needs the newest non-empty commit.
  let newest_change: HandoffFacts["newest_change"] = null;
  for (const sha of newestChangeCandidates(commits, pr.head_sha)) {
    const files = await github.commitFiles(sha);
    if (files.length > 0) {
      newest_change = { sha, files };
      break;
    }
  }
  return { ...facts, file: { path, blob_sha: file.blobSha, text: file.text }, newest_change };
}
