/**
 * Which handoff entries each pull request's description mentions (`#12`, its URL), as the gate
 * pass of that pull request last read it: the reverse of an entry's own "Blocking pull request".
 * An entry's pass reads it to know which pull requests link the entry from their side (its
 * priority, and whose gate its change must reach); the gate pass replaces a pull request's set
 * with what its description says now. Gate passes of one pull request run one at a time (its
 * concurrency key), so the newest pass is the newest description.
 */
import type { NewJob } from "../../../schemas/store.js";
import type { EntryKey } from "./entry-store.js";
import type { PullRequestKey } from "./keys.js";

export interface EntryMentionStore {
  /**
   * Replaces the pull request's mentioned issue numbers with `issues` (any order, repeats
   * ignored) and enqueues `jobs`, in one transaction, and returns the set it replaced, ascending:
   * the passes a change of mentions calls for are stored with it or not at all. InvalidInputError
   * when a number is not a positive integer or a job is malformed; nothing is written then.
   */
  replaceEntryMentions(
    input: PullRequestKey & { issues: readonly number[]; jobs?: readonly NewJob[] },
  ): Promise<number[]>;
  /** The issue numbers the pull request's description mentions, ascending. */
  listEntryMentions(query: PullRequestKey): Promise<number[]>;
  /** The pull requests whose description mentions the issue, ascending. */
  listMentioningPullRequests(query: EntryKey): Promise<number[]>;
}
