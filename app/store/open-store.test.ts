import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseUrl, sharedPostgres } from "../../test/support/postgres-run.js";
import { freshPostgresDatabase, recordInput, tempDir } from "../../test/support/store.js";
import { DatabaseUrlError, StoreOpenError } from "./errors.js";
import { DEFAULT_DATABASE_URL, openStore, parseDatabaseUrl } from "./open-store.js";
import { PostgresStore } from "./postgres/postgres-store.js";
import { SqliteStore } from "./sqlite-store.js";

/** The file a URL names (the test fails when it names none). */
function fileOf(url: string, cwd?: string): string {
  const target = parseDatabaseUrl(url, cwd);
  if (target.kind === "postgres") throw new Error(`${url} names no file`);
  return target.filename;
}

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

describe("parseDatabaseUrl", () => {
  it("accepts file URLs, plain paths and :memory:", () => {
    const cwd = "/srv/agate";
    expect(parseDatabaseUrl(DEFAULT_DATABASE_URL, cwd)).toEqual({
      kind: "sqlite",
      filename: "/srv/agate/agate.db",
    });
    expect(fileOf("file:data/agate.db", cwd)).toBe("/srv/agate/data/agate.db");
    expect(fileOf("file:/var/lib/agate.db", cwd)).toBe("/var/lib/agate.db");
    expect(fileOf("file:///var/lib/agate%20x.db", cwd)).toBe("/var/lib/agate x.db");
    expect(fileOf("./agate.db", cwd)).toBe("/srv/agate/agate.db");
    expect(fileOf("/tmp/a.db", cwd)).toBe("/tmp/a.db");
    expect(parseDatabaseUrl(":memory:", cwd)).toEqual({
      kind: "sqlite-memory",
      filename: ":memory:",
    });
  });

  it("accepts postgres:// and postgresql:// URLs, and refuses a malformed one without echoing it", () => {
    for (const url of ["postgres://u@h/db", "postgresql://u:p@h:5433/db?sslmode=verify-full"]) {
      expect(parseDatabaseUrl(url)).toEqual({ kind: "postgres", url });
    }
    const bad = "postgres://agate:s3cret@[::1/agate";
    expect(() => parseDatabaseUrl(bad)).toThrow(DatabaseUrlError);
    expect(() => parseDatabaseUrl(bad)).toThrow(/postgres:\/\/user:password@host:5432\/database/);
    expect(() => parseDatabaseUrl(bad)).not.toThrow(/s3cret/);
  });

  it("names the accepted forms for anything else", () => {
    for (const url of ["mysql://h/db", "file:./a.db?mode=ro", "", "file:"]) {
      expect(() => parseDatabaseUrl(url)).toThrow(/file:\.\/agate\.db.*:memory:.*postgres:\/\//);
    }
  });
});

describe("openStore", () => {
  it("opens the URL it is given, creating the parent directory", async () => {
    const file = join(dir, "nested", "deeper", "agate.db");
    const store = await openStore({ url: `file:${file}` });
    await store.appendRecord(recordInput());
    await store.close();
    expect(existsSync(file)).toBe(true);
    const again = await openStore({ url: file });
    expect(await again.listRecords({ repository: "octo/repo", pullNumber: 12 })).toHaveLength(1);
    await again.close();
  });

  it("resolves a relative URL, such as the default ./agate.db, against cwd", async () => {
    const store = await openStore({ url: DEFAULT_DATABASE_URL, cwd: dir });
    await store.close();
    expect(existsSync(join(dir, "agate.db"))).toBe(true);
  });

  it("opens :memory: for tests that need no file", async () => {
    const store = await openStore({ url: ":memory:" });
    await store.enqueue({ kind: "a", payload: null });
    expect(await store.listJobs()).toHaveLength(1);
    await store.close();
  });

  it("explains a file that is not an agate database", async () => {
    const file = join(dir, "notes.txt");
    writeFileSync(file, "x".repeat(4096));
    await expect(openStore({ url: file })).rejects.toThrow(StoreOpenError);
    await expect(openStore({ url: file })).rejects.toThrow(/not an agate SQLite database/);
  });
});

/** A port on this host where nothing listens (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

describe("openStore on PostgreSQL", () => {
  it("opens a postgres:// URL, migrating an empty database, and reads back across a reopen", async () => {
    const database = await freshPostgresDatabase({ empty: true });
    try {
      const store = await openStore({ url: database.url, poolSize: 2, statementTimeoutMs: 5000 });
      expect(store).toBeInstanceOf(PostgresStore);
      await store.appendRecord(recordInput());
      await store.close();
      const again = await openStore({ url: database.url.replace(/^postgres:/, "postgresql:") });
      expect(await again.listRecords({ repository: "octo/repo", pullNumber: 12 })).toHaveLength(1);
      await again.close();
      // A file URL still opens SQLite.
      const file = await openStore({ url: ":memory:" });
      expect(file).toBeInstanceOf(SqliteStore);
      await file.close();
    } finally {
      await database.drop();
    }
  });

  it("names the host and what to check when nothing listens there, and never the password", async () => {
    const port = await closedPort();
    const url = `postgres://agate:s3cret@127.0.0.1:${port}/agate`;
    const error = await openStore({ url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    const message = (error as Error).message;
    expect(message).toContain(`nothing accepts connections at 127.0.0.1:${port}`);
    expect(message).toContain("check that PostgreSQL is running there");
    expect(message).toContain(`postgres://agate:***@127.0.0.1:${port}/agate`);
    expect(message).not.toContain("s3cret");
  });

  it("says which user was refused, and which database is missing", async () => {
    const { url } = await sharedPostgres();
    const server = new URL(url);
    server.password = "wrong";
    const refused = await openStore({ url: server.toString() }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreOpenError);
    expect((refused as Error).message).toMatch(/refused user agate .*check the user and password/);
    expect((refused as Error).message).not.toContain(":wrong@");

    const missing = databaseUrl(url, "agate_no_such_database");
    await expect(openStore({ url: missing })).rejects.toThrow(
      /has no database agate_no_such_database: create it \(createdb agate_no_such_database/,
    );
  });
});
