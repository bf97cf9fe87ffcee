/**
 * agate's own `agate` check run on a commit. Only the App that made a check run can change it,
 * so what agate last wrote is what GitHub shows: it is read from the ledger (no call), and
 * listed from GitHub only when the ledger does not know it. Every write goes through here, so
 * the ledger stays true: marked in flight before the write, recorded from GitHub's answer after.
 */
import type { CheckRunWrite } from "../../schemas/effects.js";
import type { AgateCheckRun } from "../../schemas/store.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { CheckRunLedger } from "../store/ports/check-run-ledger.js";

export class AgateChecks {
  private readonly repository: string;

  constructor(
    private readonly github: GitHubAdapter,
    private readonly ledger: CheckRunLedger,
    private readonly now: () => Date,
  ) {
    this.repository = `${github.owner}/${github.repo}`;
  }

  /**
   * The commit's check as it is now. `mayExist: false` says agate never saw the commit, so it
   * has no check of agate's unless the ledger knows one: nothing is listed.
   */
  async current(sha: string, mayExist = true): Promise<AgateCheckRun | null> {
    const known = await this.ledger.knownCheckRun({ repository: this.repository, headSha: sha });
    if (known || !mayExist) return known;
    // Not recorded: another process may be writing it, and its record is the one to keep.
    return this.github.agateCheckRun(sha);
  }

  /** Creates the check (no `existing`) or updates it, and records what GitHub now shows. */
  async write(
    sha: string,
    existing: AgateCheckRun | null,
    write: CheckRunWrite,
  ): Promise<AgateCheckRun> {
    const key = { repository: this.repository, headSha: sha };
    await this.ledger.beginCheckRunWrite(key);
    const written = await this.github.writeAgateCheckRun(sha, existing, write);
    await this.ledger.recordCheckRun({
      repository: this.repository,
      head_sha: sha,
      check: written,
      written_at: this.now().toISOString(),
    });
    return written;
  }
}
