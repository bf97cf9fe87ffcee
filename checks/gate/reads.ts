/**
 * The read plan: what a pull request's pass reads beyond its first reads (the config at the base,
 * the compare of base...head, the pull request), decided from the config and what was read so
 * far. app/gate/gather.ts executes it and decides nothing of its own; each read here is one a
 * decision needs (a read nobody needs costs GitHub calls on every pass).
 */
import type { Config } from "../../schemas/config.js";
import type {
  BaseConfigFact,
  ChangedFile,
  ChangedFilesListing,
  HandoffFacts,
  PullRequestView,
  SetupFact,
} from "../../schemas/gate.js";
import { handoffRequiredBy } from "../handoff/required.js";
import { COMPARE_FILES_LIMIT, judgeListing, PULL_FILES_LIMIT } from "./listing.js";
import { protectedChanges } from "./protected-paths.js";
import { viewDigest } from "./sighting.js";

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
  /**
   * agate decided on this head before: a late or repeated push event for a head it knows must not
   * hide the runs it already read.
   */
  headDecided: boolean;
}): ReadPlan {
  const { config } = input;
  const kind = config.evaluator.kind;
  return {
    reviews: kind === "review" || protectedChanges(input.changedFiles, config).length > 0,
    evaluations: kind === "llm" || kind === "command",
    skipRuns: input.pushEvent && !input.headDecided,
  };
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
