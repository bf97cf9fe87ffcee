/**
 * Whether an agent waits on a handoff entry, which makes it `agate:blocking` (docs/entries.md,
 * "Priority"; checks/entries/priority.ts): it is not resolved, and either a pull request linked
 * to it is open and held by the gate, or its author declared that it waits (`/wait DURATION`,
 * posted and renewed by `agate-gate entry status --wait`) and the declaration has not run out.
 * Read, never stored: the entry's pass and the dashboard derive it alike.
 */
import { declaredWaitUntil, holdingPulls } from "../../checks/entries/priority.js";
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import type { GitHubAdapter, IssueCommentFact } from "../github/adapter.js";
import type { EntryMentionStore } from "../store/ports/entry-mention-store.js";
import type { RecordStore } from "../store/ports/record-store.js";

export interface WaitingDeps {
  github: Pick<GitHubAdapter, "issueComments">;
  store: EntryMentionStore & Pick<RecordStore, "listRecords">;
  now: () => Date;
}

/** Who waits: a held pull request, or the author's declaration until `until`; null: nobody. */
export type Waiting = { by: "pull_request"; number: number } | { by: "author"; until: Date } | null;

/** How the caller reads what it may have read already for its whole pass. */
export interface WaitingReads {
  /** The entry's issue comments (an entry's pass lists them once); absent: listed here. */
  comments?: () => Promise<readonly IssueCommentFact[]>;
  /**
   * Whether a pull request is open now: an entry's pass asks GitHub for each (`pulls/get`), the
   * dashboard answers from its one list of the open ones.
   */
  isOpen: (number: number) => Promise<boolean>;
  /** A pull request's records, every head's (the dashboard reads each once); absent: read here. */
  records?: (pullNumber: number) => Promise<readonly AcceptanceRecord[]>;
}

/**
 * The pull requests first: only those the gate holds are asked about, one at a time until one
 * is open. Then the author's declaration, from the issue's comments.
 */
export async function agentWaits(
  deps: WaitingDeps,
  entry: HandoffEntry,
  reads: WaitingReads,
): Promise<Waiting> {
  if (entry.state === "resolved") return null;
  const { repository } = entry;
  const named = entry.fields.blocking_pull;
  const mentioning = await deps.store.listMentioningPullRequests({
    repository,
    issueNumber: entry.issue_number,
  });
  const numbers = [...new Set([...(named === null ? [] : [named]), ...mentioning])];
  const pulls = await Promise.all(
    numbers.map(async (number) => ({
      number,
      decisions: (
        await (reads.records?.(number) ??
          deps.store.listRecords({ repository, pullNumber: number }))
      ).map((r) => ({ state: r.decision.state, stale: r.stale })),
    })),
  );
  for (const number of holdingPulls(pulls)) {
    if (await reads.isOpen(number)) return { by: "pull_request", number };
  }
  const read = await (reads.comments?.() ?? deps.github.issueComments(entry.issue_number));
  const until = declaredWaitUntil(read, entry.author, deps.now());
  return until ? { by: "author", until } : null;
}
