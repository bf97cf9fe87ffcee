/**
 * gather: everything the gate decision needs about one pull request, read once, through the
 * adapter, at the exact SHAs being graded (the config at the base, never the head), plus what the
 * store remembers and the `agate` check GitHub shows on the head. It writes nothing: what GitHub
 * reported that later passes need (the test merge commit, the pull request and base the head was
 * seen in) is returned with what the pass saw, for the decision to list as effects.
 */

import { entryMentions } from "../../checks/entries/mentions.js";
import {
  planReads,
  readsDefaultSetup,
  readsSetup,
  readsTrace,
  reviewFacts,
  seenViewIsNewest,
  storedFacts,
} from "../../checks/gate/reads.js";
import type { Config } from "../../schemas/config.js";
import type { PassSeen } from "../../schemas/effects.js";
import type {
  BaseConfigFact,
  EvaluationFact,
  EvidenceJob,
  GatheredFacts,
  PullRequestView,
} from "../../schemas/gate.js";
import type { Comparison, GitHubAdapter } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { BaseSightingStore } from "../store/ports/base-sighting-store.js";
import type { CheckRunLedger } from "../store/ports/check-run-ledger.js";
import type { EntryMentionStore } from "../store/ports/entry-mention-store.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { EvaluationStore } from "../store/ports/evaluation-store.js";
import type { ObservationStore } from "../store/ports/observation-store.js";
import type { OverrideStore } from "../store/ports/override-store.js";
import type { RecordStore } from "../store/ports/record-store.js";
import { AgateChecks } from "./check-runs.js";
import { storedEvaluation } from "./evaluation-facts.js";
import { collectEvidence, type EvidenceCache } from "./evidence.js";
import { changedFilesAt, commitOf, HeadMovedError, headTreeAt } from "./gather/changed-files.js";
import { evaluatorDueNow } from "./gather/evaluation.js";
import { handoffFactsFor } from "./gather/handoff.js";
import { latestReviews } from "./gather/reviews.js";
import { readStored } from "./gather/stored.js";
import type { RequiredCheckReader } from "./required-check.js";
import { readTraceFact, TraceReportCache, traceReaderOf } from "./trace-report.js";

export type GatherStore = RecordStore &
  EvaluationStore &
  OverrideStore &
  ObservationStore &
  BaseSightingStore &
  AuditLog &
  CheckRunLedger &
  Pick<EntryStore, "listEntries"> &
  Pick<EntryMentionStore, "listEntryMentions">;

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

/** What gather saw besides the facts (the rest of PassSeen is the job's). */
export type GatheredSeen = Pick<
  PassSeen,
  | "existing"
  | "merge_commit"
  | "head"
  | "view"
  | "entry_mentions"
  | "mentioned_before"
  | "repository_entries"
  | "evaluator_due"
>;

export interface Gathered {
  /** What was read, with no verdict: the decision judges the evidence (checks/gate/evidence.ts). */
  facts: GatheredFacts;
  seen: GatheredSeen;
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

/**
 * The facts at the head and base being graded: the stored rows and the changed files first, then
 * the further reads the read plan (checks/gate/reads.ts) asks for, each at the SHA it names.
 */
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
  const stored = await readStored(store, pr);
  const seen: GatheredSeen = {
    existing: null,
    merge_commit: detail.merge_commit_sha
      ? { head_sha: pr.head_sha, merge_sha: detail.merge_commit_sha }
      : null,
    head: { head_sha: pr.head_sha, base_ref: pr.base_ref, base_sha: pr.base_sha },
    view,
    entry_mentions: entryMentions(detail.body, pr.repository),
    mentioned_before: stored.mentions,
    repository_entries: [...stored.entries],
    evaluator_due: false,
  };
  const changed = await changedFilesAt(github, pr, detail, comparison);
  const head_tree_sha = await headTreeAt(github, comparison, pr.head_sha);
  const known = storedFacts(pr, detail, stored, seen.entry_mentions);
  const facts: GatheredFacts = {
    pull_request: pr,
    head_tree_sha,
    config,
    previously_gated: known.previously_gated,
    changed_files: changed.files,
    changed_files_listing: changed.listing,
    merge_commits: known.merge_commits,
    evidence_source: null,
    evidence_run: null,
    approvals: [],
    override: known.override,
    head_shared_with: known.head_shared_with,
    prior_records: known.prior_records,
    attempts: known.attempts,
    agate_version: deps.agateVersion,
    handoff: null,
    reviews: [],
    evaluation: { status: "not_asked" },
    entries: known.entries,
    trace: null,
    setup: null,
  };
  // Where a pass counts (checks/gate/base-requirement.ts): a neutral is a pass too, so it is
  // read for a base without a config as well. Kept for ten minutes per branch (required-check.ts).
  if (deps.setup && readsSetup(config)) await readSetup(deps, deps.setup, facts);
  // The check as GitHub shows it, read last: what the decision's check is compared with. agate
  // saw this head before (in any pull request), so it may have a check on it; a head never seen
  // has none of agate's: nothing is listed, and its check is created.
  const checked = async (due: boolean): Promise<Gathered> => {
    const checks = new AgateChecks(github, store, deps.now);
    const existing = await checks.current(pr.head_sha, stored.sightings.length > 0);
    return { facts, seen: { ...seen, existing, evaluator_due: due } };
  };
  if (config.status !== "ok") return checked(false);
  const cfg = config.config;
  const plan = planReads({
    config: cfg,
    changedFiles: changed.files,
    pushEvent: options.skipRuns,
    head: pr.head_sha,
    decided: facts.prior_records,
  });
  await readEvidence(deps, facts, cfg, comparison, {
    skipRuns: plan.skipRuns,
    completedJob: options.completedJob ?? null,
  });
  const [reviews, handoff, evaluation] = await Promise.all([
    plan.reviews ? latestReviews(github, pr, cfg.escalation.maintainers) : Promise.resolve([]),
    handoffFactsFor(deps, pr, cfg, detail, comparison, changed),
    plan.evaluations
      ? storedEvaluation(store, pr, head_tree_sha, comparison.merge_base_sha, config.digest)
      : Promise.resolve<EvaluationFact>({ status: "not_asked" }),
  ]);
  Object.assign(facts, reviewFacts(cfg, reviews), { handoff, evaluation });
  const asked = plan.evaluations
    ? await evaluatorDueNow(store, facts, cfg, options.rerunEvaluator, deps.now)
    : { due: false, evaluation };
  facts.evaluation = asked.evaluation;
  return checked(asked.due);
}

/**
 * The evidence run and its command record at the head (or a test merge commit of it), and the
 * trace reports when the read plan says the record beside them will be believed; the runs are
 * not listed when the read plan skips them. Nothing here is judged: the decision does that.
 */
async function readEvidence(
  deps: GatherDeps,
  facts: GatheredFacts,
  config: Config,
  comparison: Comparison,
  options: { skipRuns: boolean; completedJob: { runId: number; job: EvidenceJob } | null },
): Promise<void> {
  const pr = facts.pull_request;
  const collected = await collectEvidence(deps.github, deps.evidence, {
    target: { kind: "pull_request", headSha: pr.head_sha },
    config,
    baseSha: pr.base_sha,
    skipRuns: options.skipRuns,
    knownCommit: (sha) => commitOf(comparison, sha),
    completedJob: options.completedJob,
  });
  facts.evidence_source = collected.source;
  facts.evidence_run = collected.run;
  facts.trace =
    collected.run && readsTrace(facts)
      ? await readTraceFact(
          traceReaderOf(deps.github),
          deps.traceReports ?? new TraceReportCache(),
          collected.run,
        )
      : null;
}

/**
 * Whether the base requires agate, and, when it requires it from nobody, whether the default
 * branch does: where a pass computed for this base could stand next.
 */
async function readSetup(
  deps: GatherDeps,
  setup: RequiredCheckReader,
  facts: GatheredFacts,
): Promise<void> {
  const pr = facts.pull_request;
  facts.setup = await setup.read(deps.github, pr.repository, pr.base_ref);
  if (!readsDefaultSetup(facts.setup)) return;
  const name = await setup.defaultBranch(deps.github, pr.repository);
  if (name !== pr.base_ref)
    facts.default_setup = await setup.read(deps.github, pr.repository, name);
}
