/**
 * Facts GitHub showed agate, kept because GitHub forgets or does not say them later: the test
 * merge commits reported for a head (what a record may have tested besides the head), the
 * pull requests and bases a head was seen in (a head in two of them cannot be told apart), the
 * head and base each pull request was seen with last (what the evaluator job compares with), and
 * the newest view of each pull request a pass acted on (so an older webhook is never believed
 * over it).
 */
import type {
  HeadObservation,
  MergeCommitObservation,
  PullRequestSighting,
} from "../../../schemas/store.js";
import type { HeadKey, PullRequestKey } from "./keys.js";

/** One pull request and base a head was seen in. */
export type HeadSighting = Pick<HeadObservation, "pull_number" | "base_ref">;
/**
 * One head and base a pull request was seen with: the base's branch, and the commit it was at
 * (null: not known where it was seen, or seen before store migration 12).
 */
export type HeadAndBase = Pick<HeadObservation, "head_sha" | "base_ref" | "base_sha">;

export interface ObservationStore {
  /** Idempotent: observing the same commit for the same head again changes nothing. */
  recordMergeCommit(observation: MergeCommitObservation): Promise<void>;
  /** Merge SHAs observed for the head, oldest first. */
  listMergeCommits(query: HeadKey): Promise<string[]>;
  /**
   * Kept once per head, pull request and base (its first sighting). It becomes the pull
   * request's newest head too, unless the one kept there is newer (times compared as instants).
   */
  recordHeadObservation(observation: HeadObservation): Promise<void>;
  /** Every pull request and base the head was seen in, oldest first. */
  listHeadObservations(query: { repository: string; headSha: string }): Promise<HeadSighting[]>;
  /**
   * The head and base the pull request was seen with last (a head it moved back to included),
   * or null when none was seen: whether its head moved on, or it was retargeted, after a pass
   * read it.
   */
  newestHead(query: PullRequestKey): Promise<HeadAndBase | null>;
  /**
   * Keeps the sighting when it is at least as new (GitHub's `updated_at`) as the one kept; an
   * older one changes nothing.
   */
  recordPullRequestSighting(sighting: PullRequestSighting): Promise<void>;
  /** The newest sighting of the pull request, or null when no pass has seen it. */
  latestPullRequestSighting(query: PullRequestKey): Promise<PullRequestSighting | null>;
}
