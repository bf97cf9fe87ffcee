/** The CheckRunLedger port on PostgreSQL (../ports/check-run-ledger.ts says what it promises). */
import type { CheckRunLedger } from "../ports/check-run-ledger.js";
import * as observationRows from "../rows/observation-store.js";
import type { PostgresContext } from "./context.js";

export class PostgresCheckRunLedger implements CheckRunLedger {
  constructor(private readonly c: PostgresContext) {}

  beginCheckRunWrite: CheckRunLedger["beginCheckRunWrite"] = async (query) => {
    await this.c.query(
      "UPDATE agate_check_runs SET known = false WHERE repository = $1 AND head_sha = $2",
      [query.repository, query.headSha],
    );
  };

  recordCheckRun: CheckRunLedger["recordCheckRun"] = async (entry) => {
    const known = observationRows.checkRunInput(entry);
    await this.c.query(
      `INSERT INTO agate_check_runs (repository, head_sha, known, check_run, written_at)
       VALUES ($1, $2, true, $3, $4)
       ON CONFLICT (repository, head_sha) DO UPDATE SET
         known = true, check_run = excluded.check_run, written_at = excluded.written_at`,
      [known.repository, known.head_sha, JSON.stringify(known.check), known.written_at],
    );
  };

  knownCheckRun: CheckRunLedger["knownCheckRun"] = async (query) => {
    const [row] = await this.c.rows<{ check_run: string }>(
      "SELECT check_run FROM agate_check_runs WHERE repository = $1 AND head_sha = $2 AND known",
      [query.repository, query.headSha],
    );
    return observationRows.checkRunFromRow(row, query);
  };
}
