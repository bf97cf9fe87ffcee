/**
 * Moving up from one machine to replicas: copies every table of an agate SQLite database into
 * an empty PostgreSQL one, in one PostgreSQL transaction, and checks every table's row count
 * and digest before it commits. Either the whole copy is there or nothing is.
 *
 * Both databases are first brought to this agate's schema (as starting agate on them would), so
 * "the same version" means the same tables; a table either side has and this copy does not know
 * is refused, not skipped (a new migration's table must be added to COPY_ORDER).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { StoreError } from "./errors.js";
import { parseDatabaseUrl } from "./open-store.js";
import { AGATE_TYPES, redactUrl } from "./postgres/connection.js";
import { PostgresStore } from "./postgres/postgres-store.js";
import { SqliteStore } from "./sqlite-store.js";

/** Every table, parents before the rows that refer to them. */
export const COPY_ORDER = [
  "deliveries",
  "delivery_payloads",
  "jobs",
  // After jobs: the database refuses a prune while a job of its delivery is pending.
  "delivery_payload_prunes",
  "acceptance_records",
  "acceptance_record_stale_marks",
  "evaluations",
  "maintainer_overrides",
  "merge_commits",
  "head_observations",
  "pull_request_heads",
  "base_sightings",
  "pull_request_sightings",
  "agate_check_runs",
  "handoff_entries",
  "handoff_entry_events",
  "handoff_entry_event_posts",
  "entry_mentions",
  "audit_log",
  "write_intents",
] as const;

/** The copy was refused or did not check out; nothing was written to PostgreSQL. */
export class CopyError extends StoreError {
  constructor(message: string, options?: ErrorOptions) {
    super("copy_refused", message, options);
  }
}

export interface CopyResult {
  /** Rows per table, in COPY_ORDER, as counted in both databases after the copy. */
  tables: { table: string; rows: number }[];
}

export interface CopyOptions {
  /** The SQLite database: a file: URL or a path, as AGATE_DATABASE_URL takes it. */
  from: string;
  /** The PostgreSQL database: postgres://… */
  to: string;
  cwd?: string;
  log?: (line: string) => void;
}

type Row = Record<string, unknown>;

interface TargetColumn {
  name: string;
  boolean: boolean;
  identity: boolean;
}

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for any table here. */
const MAX_PARAMETERS = 30_000;

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyResult> {
  const source = parseDatabaseUrl(options.from, options.cwd);
  const target = parseDatabaseUrl(options.to, options.cwd);
  if (source.kind !== "sqlite") {
    throw new CopyError(
      `copy from ${source.kind === "postgres" ? redactUrl(options.from) : options.from}: the ` +
        "source must be a SQLite database file (file:./agate.db or a path)",
    );
  }
  if (target.kind !== "postgres") {
    throw new CopyError(
      `copy to ${options.to}: the target must be a PostgreSQL URL (postgres://user:password@host:5432/database)`,
    );
  }
  if (!existsSync(source.filename)) {
    throw new CopyError(
      `copy from ${options.from}: there is no file ${source.filename}; name the SQLite database the App used (its AGATE_DATABASE_URL)`,
    );
  }
  const where = redactUrl(target.url);
  // Both at this agate's schema version: opening migrates, and refuses a newer database.
  await (await SqliteStore.open(source.filename, { location: options.from })).close();
  await (await PostgresStore.open({ url: target.url, poolSize: 1 })).close();

  const sqlite = new Database(source.filename, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: target.url, types: AGATE_TYPES });
  await client.connect();
  try {
    // One read transaction: a snapshot, even if an App still wrote (it should be stopped).
    sqlite.exec("BEGIN");
    await client.query("BEGIN");
    await checkTables(sqlite, client, where);
    // Nothing else writes while the copy runs; readers may still read.
    await client.query(`LOCK TABLE ${COPY_ORDER.join(", ")} IN EXCLUSIVE MODE`);
    const held = [];
    for (const table of COPY_ORDER) {
      const n = await countTarget(client, table);
      if (n > 0) held.push(`${table}: ${n}`);
    }
    if (held.length > 0) {
      throw new CopyError(
        `the PostgreSQL database ${where} already holds agate data (${held.join(", ")}): copy ` +
          "into an empty database (create a new one; agate migrates it). Nothing was written",
      );
    }
    const tables: CopyResult["tables"] = [];
    for (const table of COPY_ORDER) {
      const rows = await copyTable(sqlite, client, table);
      options.log?.(`${table}: ${rows} rows`);
      tables.push({ table, rows });
    }
    await verify(sqlite, client, where);
    await client.query("COMMIT");
    return { tables };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    if (sqlite.inTransaction) sqlite.exec("COMMIT");
    sqlite.close();
    await client.end();
  }
}

/** The same tables on both sides, and all of them known here. */
async function checkTables(sqlite: Database.Database, client: pg.Client, where: string) {
  const known = new Set<string>(COPY_ORDER);
  const fromSqlite = (
    sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'",
      )
      .pluck()
      .all() as string[]
  ).sort();
  const fromPostgres = (
    await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
         AND table_name <> 'schema_migrations'`,
    )
  ).rows
    .map((r) => r.name)
    .sort();
  for (const [side, names] of [
    ["the SQLite database", fromSqlite],
    [`the PostgreSQL database ${where}`, fromPostgres],
  ] as const) {
    const unknown = names.filter((n) => !known.has(n));
    const missing = COPY_ORDER.filter((n) => !names.includes(n));
    if (unknown.length > 0 || missing.length > 0) {
      throw new CopyError(
        `${side} has ${unknown.length > 0 ? `tables this copy does not know (${unknown.join(", ")})` : ""}` +
          `${unknown.length > 0 && missing.length > 0 ? " and " : ""}` +
          `${missing.length > 0 ? `no table ${missing.join(", ")}` : ""}: it is not an agate ` +
          "database of this version; nothing was written",
      );
    }
  }
}

async function countTarget(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]?.n ?? 0);
}

async function targetColumns(client: pg.Client, table: string): Promise<TargetColumn[]> {
  const { rows } = await client.query<{ name: string; type: string; identity: string }>(
    `SELECT column_name AS name, data_type AS type, is_identity AS identity
     FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
     ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => ({
    name: r.name,
    boolean: r.type === "boolean",
    identity: r.identity === "YES",
  }));
}

async function copyTable(
  sqlite: Database.Database,
  client: pg.Client,
  table: string,
): Promise<number> {
  const columns = await targetColumns(client, table);
  // table_info lists stored columns only; generated ones are computed again by PostgreSQL.
  const sourceNames = (sqlite.pragma(`table_info(${table})`) as { name: string }[]).map(
    (c) => c.name,
  );
  const names = columns.map((c) => c.name);
  if (sourceNames.length !== names.length || sourceNames.some((n) => !names.includes(n))) {
    throw new CopyError(
      `table ${table} has columns ${sourceNames.join(", ")} in SQLite and ${names.join(", ")} in ` +
        "PostgreSQL: the two schemas disagree; nothing was written",
    );
  }
  const identity = columns.some((c) => c.identity);
  const perInsert = Math.max(1, Math.min(500, Math.floor(MAX_PARAMETERS / columns.length)));
  const orderBy = names.includes("id") ? "id" : "rowid";
  let batch: Row[] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    if (table === "delivery_payload_prunes") await placeholderPayloads(client, batch);
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      const slots = columns.map((column) => {
        const value = row[column.name];
        values.push(column.boolean && value !== null ? value === 1 : value);
        return `$${values.length}`;
      });
      return `(${slots.join(", ")})`;
    });
    await client.query(
      `INSERT INTO ${table} (${names.join(", ")}) ${identity ? "OVERRIDING SYSTEM VALUE " : ""}` +
        `VALUES ${tuples.join(", ")}`,
      values,
    );
    copied += batch.length;
    batch = [];
  };
  for (const row of sqlite.prepare(`SELECT * FROM ${table} ORDER BY ${orderBy}`).iterate()) {
    batch.push(row as Row);
    if (batch.length >= perInsert) await flush();
  }
  await flush();
  for (const column of columns.filter((c) => c.identity)) {
    // New rows continue after the copied ids: an id is never reused.
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), max_id)
       FROM (SELECT max(${column.name}) AS max_id FROM ${table}) m WHERE max_id IS NOT NULL`,
      [table, column.name],
    );
  }
  return copied;
}

/**
 * A prune is accepted only while its payload is stored, and it deletes the payload itself (the
 * database's rule, which this copy keeps): a pruned delivery's payload is gone from SQLite, so
 * an empty one stands in for the moment between the two.
 */
async function placeholderPayloads(client: pg.Client, prunes: Row[]): Promise<void> {
  await client.query(
    "INSERT INTO delivery_payloads (delivery_id, payload) SELECT unnest($1::text[]), ''",
    [prunes.map((p) => p.delivery_id)],
  );
}

/**
 * Every table's row count and digest agree, or the transaction is rolled back. A row's digest
 * is the SHA-256 of its stored columns as agate reads them (times as ISO instants, JSON as its
 * text, booleans as 0 and 1); a table's is over its rows' digests sorted, since the two
 * databases order text differently.
 */
async function verify(sqlite: Database.Database, client: pg.Client, where: string) {
  const wrong: string[] = [];
  for (const table of COPY_ORDER) {
    const columns = await targetColumns(client, table);
    const names = columns.map((c) => c.name).join(", ");
    const fromSqlite: string[] = [];
    for (const row of sqlite.prepare(`SELECT ${names} FROM ${table}`).raw().iterate()) {
      fromSqlite.push(rowDigest(row as unknown[]));
    }
    const fromPostgres: string[] = [];
    await client.query(`DECLARE agate_verify NO SCROLL CURSOR FOR SELECT ${names} FROM ${table}`);
    for (;;) {
      const { rows } = await client.query({
        text: "FETCH 1000 FROM agate_verify",
        rowMode: "array",
      });
      for (const row of rows as unknown[][]) {
        fromPostgres.push(rowDigest(row.map((v) => (typeof v === "boolean" ? Number(v) : v))));
      }
      if (rows.length < 1000) break;
    }
    await client.query("CLOSE agate_verify");
    const a = tableDigest(fromSqlite);
    const b = tableDigest(fromPostgres);
    if (fromSqlite.length !== fromPostgres.length || a !== b) {
      wrong.push(
        `${table}: ${fromSqlite.length} rows in SQLite, ${fromPostgres.length} in PostgreSQL` +
          (a === b ? "" : `, digests ${a.slice(0, 12)} and ${b.slice(0, 12)}`),
      );
    }
  }
  if (wrong.length > 0) {
    throw new CopyError(
      `the copy into ${where} does not check out (${wrong.join("; ")}): it was rolled back, ` +
        "nothing was written; stop every App on the SQLite database and copy again",
    );
  }
}

function rowDigest(values: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(values)).digest("hex");
}

function tableDigest(rows: string[]): string {
  return createHash("sha256").update(rows.sort().join("\n")).digest("hex");
}
