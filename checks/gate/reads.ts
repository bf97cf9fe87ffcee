/**
 * The read plan: what a pull request's pass reads beyond its first reads (the config at the base,
 * the compare of base...head, the pull request), decided from the config and what was read so
 * far, and what the reads are as facts for the decision. app/gate/gather.ts executes it and
 * decides nothing of its own; each read here is one a decision needs (a read nobody needs costs
 * GitHub calls on every pass).
 */
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import type { Config } from "../../schemas/config.js";
import type {
  BaseConfigFact,
  ChangedFile,
  ChangedFilesListing,
  GateFacts,
  HandoffFacts,
  PullRequestDetail,
  PullRequestSnapshot,
  PullRequestView,
  ReviewVerdictFact,
  SetupFact,
} from "../../schemas/gate.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import type { StoredOverride } from "../../schemas/store.js";
import { handoffRequiredBy } from "../handoff/required.js";
import { attemptsOf, priorRecordOf } from "./attempts.js";
import { linkedEntries } from "./entries.js";
import { believesRun, pullRequestEvidence } from "./evidence.js";
import { COMPARE_FILES_LIMIT, judgeListing, PULL_FILES_LIMIT } from "./listing.js";
import { protectedChanges } from "./protected-paths.js";
import { viewDigest } from "./sighting.js";

/** Which local workflows and actions the pinned workflow uses: the files gather reads next. */
export { localUses } from "./workflow-uses.js";

/**
 * Whether an event's view of the pull request can stand for a fresh read of it, against the last
 * view a pass acted on (checks/gate/sighting.ts): GitHub's `updated_at` orders views, so an older
 * event delivered late is not believed over a newer one already acted on; two views of the same
 * second are one only when they show the same.
 */
export function seenViewIsNewest(
  view: PullRequestView,
  last: { updated_at: string; digest: string },
): boolean {
  const ours = Date.parse(view.detail.updated_at);
  const theirs = Date.parse(last.updated_at);
  return ours > theirs || (ours === theirs && last.digest === viewDigest(view));
}

/**
 * Whether the compare's file list is the whole change. It lists at most 300 files: past that, or
 * short of GitHub's count for the pull request, the pull request's own list is read (pullListing).
 */
export function compareIsWhole(listed: number, changedFiles: number): boolean {
  return listed < COMPARE_FILES_LIMIT && listed >= changedFiles;
}

/** The pull request's own list (at most 3,000 files): whole, or maybe cut, and then not decided on. */
export function pullListing(listed: number, changedFiles: number): ChangedFilesListing {
  return judgeListing({
    source: "GitHub's file list of a pull request",
    count: listed,
    limit: PULL_FILES_LIMIT,
    expected: changedFiles,
  });
}

/** A merge group's compare (at most 300 files, and no count of GitHub's to hold it against). */
export function groupListing(listed: number): ChangedFilesListing {
  return judgeListing({
    source: "GitHub's compare of the merge group",
    count: listed,
    limit: COMPARE_FILES_LIMIT,
    expected: null,
  });
}

/** What the pass reads once it has the changed files, under a valid base config. */
export interface ReadPlan {
  /** The reviews: the `review` evaluator is one, and a protected path changed needs one. */
  reviews: boolean;
  /** The stored evaluations of the head's tree: agate asks an evaluator (llm or command). */
  evaluations: boolean;
  /** The evidence runs are not read: the event was the push itself, of a head never decided. */
  skipRuns: boolean;
}

export function planReads(input: {
  config: Config;
  changedFiles: readonly ChangedFile[];
  /** The event was the push itself (opened, synchronize): no run for it can have finished. */
  pushEvent: boolean;
  /** The head being graded, and the pull request's earlier decisions (its prior records). */
  head: string;
  decided: readonly { head_sha: string }[];
}): ReadPlan {
  const { config } = input;
  const kind = config.evaluator.kind;
  // agate decided on this head before: a late or repeated push event for a head it knows must
  // not hide the runs it already read.
  const headDecided = input.decided.some((r) => r.head_sha === input.head);
  return {
    reviews: kind === "review" || protectedChanges(input.changedFiles, config).length > 0,
    evaluations: kind === "llm" || kind === "command",
    skipRuns: input.pushEvent && !headDecided,
  };
}

/**
 * Whether the evidence run's trace reports are read: only beside a record the decision will
 * believe (the same run and attempt), since nothing else binds them to the head, and an
 * artifact of a refused run is not worth a download. The verdict itself is the decision's
 * (evidence.ts, from the same facts): this only says whether there is anything to read.
 */
export function readsTrace(facts: Parameters<typeof pullRequestEvidence>[0]): boolean {
  const run = facts.evidence_run;
  if (run?.job?.status !== "completed") return false;
  return believesRun(pullRequestEvidence(facts), run.run.id);
}

/**
 * Whether the base branch's rules are read (where a pass counts, checks/gate/base-requirement.ts):
 * a neutral is a pass too, so also for a base without a config; not under an invalid one, which
 * blocks whatever the rules say.
 */
export function readsSetup(config: BaseConfigFact): boolean {
  return config.status !== "invalid";
}

/**
 * Whether the default branch's rules are read too: the base requires agate from nobody (or only
 * from another App), so where a pass computed for it could stand next matters.
 */
export function readsDefaultSetup(base: SetupFact): boolean {
  return base.requires === "none" || base.requires === "other_app";
}

/**
 * Where the handoff file is read: at the head; at the merge base when the pull request did not
 * touch it (the head has the merge base's file, read once for every pull request on it); or not
 * at all (null) when the pull request removed it, or did not touch it and no rule requires it: it
 * was written for earlier work, and what it says could only be informational here. A listing
 * that may be cut cannot tell whether the file was touched, so it is read at the head.
 */
export function handoffReadAt(input: {
  config: Config;
  labels: string[];
  /** The handoff facts read so far (no file yet): what the rules that require it read. */
  facts: HandoffFacts;
  changed: { files: readonly ChangedFile[]; listing: ChangedFilesListing };
  mergeBase: string;
  head: string;
}): string | null {
  const path = input.config.handoff.path;
  const touched = input.changed.files.find(
    (f) => f.filename === path || f.previous_filename === path,
  );
  if (touched?.filename === path && touched.status === "removed") return null;
  if (touched || !input.changed.listing.complete) return input.head;
  const required = handoffRequiredBy(input.config.handoff.required_when, {
    labels: input.labels,
    facts: input.facts,
  });
  return required.length > 0 ? input.mergeBase : null;
}

/**
 * The commits whose changed files tell whether the handoff file is stale: the newest non-empty one
 * decides, so they are read newest first, at most five (the head alone without commits).
 */
export function newestChangeCandidates(
  commits: readonly { sha: string }[],
  head: string,
): string[] {
  const newestFirst = commits.length > 0 ? commits.map((c) => c.sha).reverse() : [head];
  return newestFirst.slice(0, 5);
}

/**
 * The commits of the comparison the handoff rules read: only a `sessions_over` rule counts
 * sessions by them, so without one none are kept (they would only fill the stored facts).
 */
export function handoffCommits(
  config: Config,
  commits: readonly { sha: string; message: string; committed_at: string | null }[],
): HandoffFacts["commits"] {
  if (config.handoff.required_when.sessions_over === null) return [];
  return commits.map(({ sha, message, committed_at }) => ({ sha, message, committed_at }));
}

/** What the stored rows of a pull request and its head are, read before anything else. */
export interface StoredReads {
  /** The pull request's acceptance records, oldest first. */
  records: readonly AcceptanceRecord[];
  /** Test merge commits reported for the head, oldest first. */
  mergeCommits: readonly string[];
  /** The head's overrides, oldest first. */
  overrides: readonly StoredOverride[];
  /** The pull requests and bases a pass saw the head in, and those events named it with. */
  sightings: readonly { pull_number: number; base_ref: string }[];
  bases: readonly { pull_number: number; base_ref: string }[];
  /** The repository's handoff entries as agate decided them. */
  entries: readonly HandoffEntry[];
}

/** The facts the stored rows and the pull request's own view give, before any further read. */
export type StoredFacts = Pick<
  GateFacts,
  | "merge_commits"
  | "override"
  | "head_shared_with"
  | "prior_records"
  | "previously_gated"
  | "attempts"
  | "entries"
>;

/**
 * The stored rows as the decision reads them (checks/gate/attempts.ts, entries.ts), with what the
 * pull request's view adds: the test merge commit GitHub reports now, the issues its description
 * mentions (`mentions`, checks/entries/mentions.ts).
 */
export function storedFacts(
  pr: PullRequestSnapshot,
  detail: Pick<PullRequestDetail, "merge_commit_sha">,
  stored: StoredReads,
  mentions: readonly number[],
): StoredFacts {
  const merge = detail.merge_commit_sha;
  const prior_records = stored.records.map(priorRecordOf);
  // An override holds for the head on the base it was given on: a retarget voids it too.
  const override = stored.overrides.filter((o) => o.base_ref === pr.base_ref).at(-1);
  return {
    merge_commits:
      merge && !stored.mergeCommits.includes(merge)
        ? [...stored.mergeCommits, merge]
        : [...stored.mergeCommits],
    override: override
      ? {
          by: override.by,
          reason: override.reason,
          at: override.at,
          comment_url: override.comment_url,
        }
      : null,
    head_shared_with: sharedWith(pr, [...stored.sightings, ...stored.bases]),
    prior_records,
    previously_gated: prior_records.some((r) => r.state !== "not_gated"),
    attempts: attemptsOf(stored.records, pr.head_sha),
    entries: linkedEntries(stored.entries, pr.number, mentions),
  };
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

/** A review as GitHub lists it (github/pulls.ts): any state, maybe without a commit or time. */
export interface ListedReview extends Pick<ReviewVerdictFact, "login" | "body"> {
  state: string;
  user_type: string | null;
  commit_id: string | null;
  submitted_at: string | null;
}

/** A reviewer's latest decisive review, and whether to read if its reviewer is a maintainer. */
export interface DecisiveReview {
  verdict: Omit<ReviewVerdictFact, "maintainer">;
  user: { login: string; type: string | null };
  askMaintainer: boolean;
}

/**
 * Each reviewer's latest decisive review (a later review replaces an earlier one; comments do
 * not count), with whether its reviewer is to be asked about as a maintainer: the author never
 * is, so an agent cannot approve its own work (a bot is refused by the maintainer read itself).
 */
export function decisiveReviews(
  reviews: readonly ListedReview[],
  author: string,
): DecisiveReview[] {
  const latest = new Map<string, ListedReview>();
  for (const review of reviews) {
    if (review.state === "COMMENTED" || review.state === "PENDING") continue;
    latest.set(review.login.toLowerCase(), review);
  }
  const decisive: DecisiveReview[] = [];
  for (const [login, review] of latest) {
    if (review.state !== "APPROVED" && review.state !== "CHANGES_REQUESTED") continue;
    if (!review.commit_id || !review.submitted_at) continue;
    decisive.push({
      verdict: {
        login,
        state: review.state,
        commit_id: review.commit_id,
        submitted_at: review.submitted_at,
        body: review.body,
      },
      user: { login: review.login, type: review.user_type },
      askMaintainer: login !== author.toLowerCase(),
    });
  }
  return decisive;
}

/** The reviews as facts: every approval, and the verdicts themselves for the `review` evaluator. */
export function reviewFacts(
  config: Config,
  verdicts: readonly ReviewVerdictFact[],
): Pick<GateFacts, "approvals" | "reviews"> {
  return {
    approvals: verdicts
      .filter((r) => r.state === "APPROVED")
      .map(({ login, commit_id, submitted_at, maintainer }) => ({
        login,
        commit_id,
        submitted_at,
        maintainer,
      })),
    reviews: config.evaluator.kind === "review" ? [...verdicts] : [],
  };
}
