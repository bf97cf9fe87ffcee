/**
 * The PostgreSQL side of opening a store: the URL as people may read it (no password), the
 * pool's settings, how node-postgres reads our column types, and errors that name the server
 * and what to check instead of a bare ECONNREFUSED.
 */
import pg from "pg";
import { InvalidInputError, StoreError, StoreOpenError } from "../errors.js";

/** The URL with its password replaced: safe for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the PostgreSQL URL in AGATE_DATABASE_URL";
  }
}

/** Host, port, database and user, for messages (what node-postgres will connect to by default). */
export function describeTarget(url: string): {
  host: string;
  port: string;
  database: string;
  user: string;
} {
  try {
    const parsed = new URL(url);
    return {
      host: decodeURIComponent(parsed.hostname) || parsed.searchParams.get("host") || "localhost",
      port: parsed.port || "5432",
      database: decodeURIComponent(parsed.pathname.slice(1)) || "(the user's name)",
      user: decodeURIComponent(parsed.username) || "(the operating system user)",
    };
  } catch {
    return { host: "?", port: "?", database: "?", user: "?" };
  }
}

const INT8_OID = 20;
const JSON_OID = 114;
const JSONB_OID = 3802;
const TIMESTAMPTZ_OID = 1184;

/**
 * Per pool (never pg's global defaults, which other code in the process may rely on): bigint
 * ids and counts as numbers (exact below 2^53, checked), timestamptz as the ISO text the
 * schemas expect, and json as its text, parsed by the same row validation SQLite's text goes
 * through.
 */
export const AGATE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8_OID) {
      return (text: string) => {
        const value = Number(text);
        if (!Number.isSafeInteger(value)) {
          throw new StoreError(
            "integer_overflow",
            `the database returned the integer ${text}, beyond what agate can count exactly (2^53)`,
          );
        }
        return value;
      };
    }
    if (oid === JSON_OID || oid === JSONB_OID) return (text: string) => text;
    if (oid === TIMESTAMPTZ_OID) {
      const parse = pg.types.getTypeParser(TIMESTAMPTZ_OID, "text") as (text: string) => Date;
      return (text: string) => parse(text).toISOString();
    }
    return pg.types.getTypeParser(oid, format ?? "text");
  }) as pg.CustomTypesConfig["getTypeParser"],
};

type PgError = Error & { code?: string; errno?: number; address?: string; port?: number };

const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);

/** Why a connection could not be made, naming the server and what to check. */
export function connectError(url: string, error: unknown): StoreOpenError {
  const location = redactUrl(url);
  const { host, port, database, user } = describeTarget(url);
  const err = error as PgError;
  const code = err.code ?? "";
  const message = err.message ?? String(error);
  const at = `PostgreSQL at ${host}:${port}`;
  let advice: string;
  if (UNREACHABLE.has(code)) {
    advice =
      `nothing accepts connections at ${host}:${port} (${code}): check that PostgreSQL is ` +
      "running there, that it listens on that address (listen_addresses, port), and that no " +
      "firewall or security group is in the way";
  } else if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    advice = `the host name ${host} does not resolve (${code}): check the host in AGATE_DATABASE_URL and this machine's DNS`;
  } else if (code === "ETIMEDOUT" || /timeout/i.test(message)) {
    advice =
      `${at} did not answer in time (${message}): check the host and port in ` +
      "AGATE_DATABASE_URL, and that no firewall drops the connection";
  } else if (code === "28P01" || code === "28000") {
    advice =
      `${at} refused user ${user} (${message}): check the user and password in ` +
      "AGATE_DATABASE_URL, and the server's pg_hba.conf";
  } else if (code === "3D000") {
    advice =
      `${at} has no database ${database}: create it (createdb ${database}, or CREATE DATABASE) ` +
      "or correct its name in AGATE_DATABASE_URL";
  } else if (code === "53300") {
    advice =
      `${at} has no connection slot left (${message}): lower AGATE_DATABASE_POOL on each ` +
      "replica, or raise max_connections";
  } else if (/SSL|TLS|certificate/i.test(message)) {
    advice =
      `the TLS handshake with ${at} failed (${message}): check sslmode and sslrootcert in ` +
      "AGATE_DATABASE_URL (for example ?sslmode=verify-full&sslrootcert=/path/to/ca.pem), or " +
      "sslmode=disable for a server without TLS on a trusted network";
  } else {
    advice = `cannot connect to ${at} (${message}): check AGATE_DATABASE_URL`;
  }
  return new StoreOpenError(location, `cannot open the agate database ${location}: ${advice}`, {
    cause: error,
  });
}

/**
 * A query's failure in agate's words where it helps: the server gone (retry later), a
 * statement over its timeout, a NUL character (PostgreSQL text cannot hold one). Anything
 * else is passed on as it is.
 */
export function queryError(location: string, statementTimeoutMs: number, error: unknown): unknown {
  const err = error as PgError;
  const code = err.code ?? "";
  if (error instanceof StoreError) return error;
  if (
    UNREACHABLE.has(code) ||
    code.startsWith("08") ||
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03" ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(
      err.message ?? "",
    )
  ) {
    return new StoreError(
      "database_unavailable",
      `the agate database ${location} cannot be reached (${err.message}): check that ` +
        "PostgreSQL is running and reachable from this host; nothing of this call was written, " +
        "and the work is retried when the database is back",
      { cause: error },
    );
  }
  if (code === "57014") {
    return new StoreError(
      "statement_timeout",
      `a query on the agate database ${location} ran longer than the statement timeout of ` +
        `${statementTimeoutMs} ms and was cancelled, nothing of it was written: check the ` +
        "server's load and locks (pg_stat_activity), or raise AGATE_DATABASE_STATEMENT_TIMEOUT",
      { cause: error },
    );
  }
  if (code === "22021" && /0x00/.test(err.message ?? "")) {
    return new InvalidInputError(
      "text for PostgreSQL",
      "a value holds the NUL character (\\u0000), which PostgreSQL text cannot store",
    );
  }
  return error;
}

/** Worth running the whole transaction again: it was rolled back by a conflict, not a fault. */
export function isRetriable(error: unknown): boolean {
  const code = (error as PgError).code;
  return code === "40001" || code === "40P01";
}
