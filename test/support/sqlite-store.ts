/** Tests only: a fresh SQLite store per test, on a real file in a temp directory. */
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { SqliteStore } from "../../app/store/sqlite-store.js";
import { tempDir } from "./store.js";

/**
 * Registers a fresh store per test, closed and its directory removed after it; the returned
 * function gives the current test's store.
 */
export function useSqliteStore(): () => SqliteStore {
  let current: { store: SqliteStore; cleanup: () => void } | undefined;
  beforeEach(() => {
    const temp = tempDir();
    current = { store: SqliteStore.open(join(temp.dir, "agate.db")), cleanup: temp.cleanup };
  });
  afterEach(async () => {
    const done = current;
    current = undefined;
    await done?.store.close();
    done?.cleanup();
  });
  return () => {
    if (!current) throw new Error("useSqliteStore's store is only there inside a test");
    return current.store;
  };
}
