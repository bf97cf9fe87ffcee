/**
 * `npm run store:copy -- <sqlite database> [postgres URL]`: copySqliteToPostgres from the
 * command line. The PostgreSQL URL may be left to AGATE_DATABASE_URL, so its password need not
 * appear in the process list. Exits 0 with a line per table, or 1 with what to fix.
 */
import { copySqliteToPostgres } from "./copy-to-postgres.js";
import { redactUrl } from "./postgres/connection.js";

const USAGE =
  "usage: npm run store:copy -- <sqlite database: file:./agate.db or a path> [postgres://user:password@host:5432/database]\n" +
  "       the PostgreSQL URL defaults to AGATE_DATABASE_URL; stop every App first (docs/operations.md)";

const [from, given, ...rest] = process.argv.slice(2);
const to = given ?? process.env.AGATE_DATABASE_URL;
if (!from || !to || rest.length > 0 || from.startsWith("-")) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(1);
}
try {
  const result = await copySqliteToPostgres({
    from,
    to,
    log: (line) => process.stdout.write(`  ${line}\n`),
  });
  const total = result.tables.reduce((sum, t) => sum + t.rows, 0);
  process.stdout.write(
    `copied ${total} rows of ${result.tables.length} tables from ${from} to ${redactUrl(to)}, ` +
      "counts and digests checked; point AGATE_DATABASE_URL at it and start the App\n",
  );
} catch (error) {
  process.stderr.write(`agate store copy: ${(error as Error).message}\n`);
  process.exit(1);
}
