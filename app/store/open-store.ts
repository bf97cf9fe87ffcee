/**
 * Turns a database URL into an open, migrated Store. The URL comes from the caller (the App's
 * settings read AGATE_DATABASE_URL): nothing here reads the environment.
 */
import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseUrlError } from "./errors.js";
import { redactUrl } from "./postgres/connection.js";
import { PostgresStore } from "./postgres/postgres-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { Clock, Store } from "./store.js";

export const DEFAULT_DATABASE_URL = "file:./agate.db";

const ACCEPTED_FORMS =
  "file:./agate.db, file:relative/path.db, file:/absolute/path.db, file:///absolute/path.db, " +
  "a plain path such as ./agate.db, :memory:, or postgres://user:password@host:5432/database";

export type DatabaseTarget =
  | { kind: "sqlite"; filename: string }
  | { kind: "sqlite-memory"; filename: ":memory:" }
  | { kind: "postgres"; url: string };

/** Parses a database URL; relative paths resolve against `cwd`. */
export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): DatabaseTarget {
  const text = url.trim();
  if (text === "") {
    throw new DatabaseUrlError(`AGATE_DATABASE_URL is empty; use one of: ${ACCEPTED_FORMS}`);
  }
  if (text === ":memory:") return { kind: "sqlite-memory", filename: ":memory:" };
  if (/^postgres(ql)?:\/\//i.test(text)) {
    try {
      new URL(text);
    } catch {
      // The URL itself may hold a password: it is not repeated.
      throw new DatabaseUrlError(
        "AGATE_DATABASE_URL starts with postgres:// but is not a valid URL: write it as " +
          "postgres://user:password@host:5432/database, percent-encoding special characters " +
          "in the user and password (@ as %40, / as %2F)",
      );
    }
    return { kind: "postgres", url: text };
  }
  if (/^file:/i.test(text)) {
    if (text.includes("?") || text.includes("#")) {
      throw new DatabaseUrlError(
        `database URL ${url} has a query or fragment, which agate does not read (it sets the ` +
          `SQLite options itself); use one of: ${ACCEPTED_FORMS}`,
      );
    }
    const path = /^file:\/\//i.test(text) ? fileUrlPath(url, text) : text.slice("file:".length);
    if (path === "") {
      throw new DatabaseUrlError(
        `database URL ${url} names no file; use one of: ${ACCEPTED_FORMS}`,
      );
    }
    return { kind: "sqlite", filename: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  // A scheme of two or more letters (one letter is a Windows drive such as C:).
  if (/^[a-z][a-z0-9+.-]+:/i.test(text)) {
    throw new DatabaseUrlError(
      `database URL ${url} has a scheme agate cannot open; use one of: ${ACCEPTED_FORMS}`,
    );
  }
  return { kind: "sqlite", filename: isAbsolute(text) ? text : resolve(cwd, text) };
}

function fileUrlPath(url: string, text: string): string {
  try {
    return fileURLToPath(text);
  } catch (error) {
    throw new DatabaseUrlError(
      `database URL ${url} is not a valid file URL (${(error as Error).message}); use one of: ` +
        ACCEPTED_FORMS,
    );
  }
}

export interface OpenStoreOptions {
  /** The database, in any form parseDatabaseUrl accepts (the settings' AGATE_DATABASE_URL). */
  url: string;
  now?: Clock;
  /** What a relative path is relative to; the process's working directory when absent. */
  cwd?: string;
  /** PostgreSQL only: connections per process (AGATE_DATABASE_POOL). */
  poolSize?: number;
  /** PostgreSQL only: a statement running longer is cancelled (AGATE_DATABASE_STATEMENT_TIMEOUT). */
  statementTimeoutMs?: number;
}

/** Opens SQLite for a file or :memory:, PostgreSQL for a postgres:// or postgresql:// URL. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const target = parseDatabaseUrl(options.url, options.cwd);
  if (target.kind === "postgres") {
    return PostgresStore.open({
      url: target.url,
      location: redactUrl(target.url),
      ...(options.now ? { now: options.now } : {}),
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      ...(options.statementTimeoutMs ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
    });
  }
  if (target.kind === "sqlite") mkdirSync(dirname(target.filename), { recursive: true });
  return SqliteStore.open(target.filename, {
    location: options.url,
    ...(options.now ? { now: options.now } : {}),
  });
}
