/** The CheckRunLedger port on SQLite (../ports/check-run-ledger.ts says what it promises). */
import type { CheckRunLedger } from "../ports/check-run-ledger.js";
import * as observationRows from "../rows/observation-store.js";
import type { SqliteContext } from "./context.js";

export class SqliteCheckRunLedger implements CheckRunLedger {
  constructor(private readonly c: SqliteContext) {}

  beginCheckRunWrite: CheckRunLedger["beginCheckRunWrite"] = async (query) => {
    this.c.write(() =>
      this.c
        .sql("UPDATE agate_check_runs SET known = 0 WHERE repository = ? AND head_sha = ?")
        .run(query.repository, query.headSha),
    );
  };

  recordCheckRun: CheckRunLedger["recordCheckRun"] = async (entry) => {
    const known = observationRows.checkRunInput(entry);
    this.c.write(() =>
      this.c
        .sql(
          `INSERT INTO agate_check_runs (repository, head_sha, known, check_run, written_at)
         VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (repository, head_sha) DO UPDATE SET
           known = 1, check_run = excluded.check_run, written_at = excluded.written_at`,
        )
        .run(known.repository, known.head_sha, JSON.stringify(known.check), known.written_at),
    );
  };

  knownCheckRun: CheckRunLedger["knownCheckRun"] = async (query) => {
    const row = this.c
      .sql(
        "SELECT check_run FROM agate_check_runs WHERE repository = ? AND head_sha = ? AND known = 1",
      )
      .get(query.repository, query.headSha) as { check_run: string } | undefined;
    return observationRows.checkRunFromRow(row, query);
  };
}
