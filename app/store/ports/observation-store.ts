/**
 * Facts GitHub showed agate, kept because GitHub forgets or does not say them later: the test
 * merge commits reported for a head (what a record may have tested besides the head), and the
 * pull requests and bases a head was seen in (a head in two of them cannot be told apart).
 */
import type { HeadObservation, MergeCommitObservation } from "../../../schemas/store.js";
import type { HeadKey } from "./keys.js";

/** One pull request and base a head was seen in. */
export type HeadSighting = Pick<HeadObservation, "pull_number" | "base_ref">;

export interface ObservationStore {
  /** Idempotent: observing the same commit for the same head again changes nothing. */
  recordMergeCommit(observation: MergeCommitObservation): Promise<void>;
  /** Merge SHAs observed for the head, oldest first. */
  listMergeCommits(query: HeadKey): Promise<string[]>;
  /** Idempotent per head, pull request and base. */
  recordHeadObservation(observation: HeadObservation): Promise<void>;
  /** Every pull request and base the head was seen in, oldest first. */
  listHeadObservations(query: { repository: string; headSha: string }): Promise<HeadSighting[]>;
}
