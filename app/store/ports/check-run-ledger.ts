/**
 * agate's own `agate` check run on each commit, as agate last wrote it. Only the App that made a
 * check run can change it, so what agate wrote is what GitHub shows, and a pass reads it here
 * instead of listing the commit's check runs. A write in flight is marked first: a crash between
 * GitHub's write and the ledger's leaves the entry unknown (read from GitHub again), never an
 * older view believed current.
 */
import type { AgateCheckRun, CheckRunEntry } from "../../../schemas/store.js";

export interface CheckRunLedger {
  /** Before a write to GitHub: the entry for the commit is unknown until the write is recorded. */
  beginCheckRunWrite(query: { repository: string; headSha: string }): Promise<void>;
  /** After GitHub answered a write (or a listing found the check): the commit's check as it is. */
  recordCheckRun(entry: CheckRunEntry): Promise<void>;
  /** The commit's check as agate last wrote it; null when unknown or a write is in flight. */
  knownCheckRun(query: { repository: string; headSha: string }): Promise<AgateCheckRun | null>;
}
