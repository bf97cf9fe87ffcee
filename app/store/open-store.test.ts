import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordInput, tempDir } from "../../test/support/store.js";
import { DatabaseUrlError, StoreOpenError } from "./errors.js";
import { DEFAULT_DATABASE_URL, openStore, parseDatabaseUrl } from "./open-store.js";

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
    expect(parseDatabaseUrl("file:data/agate.db", cwd).filename).toBe("/srv/agate/data/agate.db");
    expect(parseDatabaseUrl("file:/var/lib/agate.db", cwd).filename).toBe("/var/lib/agate.db");
    expect(parseDatabaseUrl("file:///var/lib/agate%20x.db", cwd).filename).toBe(
      "/var/lib/agate x.db",
    );
    expect(parseDatabaseUrl("./agate.db", cwd).filename).toBe("/srv/agate/agate.db");
    expect(parseDatabaseUrl("/tmp/a.db", cwd).filename).toBe("/tmp/a.db");
    expect(parseDatabaseUrl(":memory:", cwd)).toEqual({
      kind: "sqlite-memory",
      filename: ":memory:",
    });
  });

  it("says PostgreSQL is not supported yet", () => {
    for (const url of ["postgres://u@h/db", "postgresql://u@h/db"]) {
      expect(() => parseDatabaseUrl(url)).toThrow(DatabaseUrlError);
      expect(() => parseDatabaseUrl(url)).toThrow(/^PostgreSQL is not supported yet: /);
    }
  });

  it("names the accepted forms for anything else", () => {
    for (const url of ["mysql://h/db", "file:./a.db?mode=ro", "", "file:"]) {
      expect(() => parseDatabaseUrl(url)).toThrow(/file:\.\/agate\.db.*:memory:/);
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
