import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{app,action,checks,schemas,test}/**/*.test.ts"],
    // One PostgreSQL server for the run, for the store's contract suites (the PostgreSQL backend).
    globalSetup: ["test/support/postgres-global-setup.ts"],
    // Simulator start-up costs ~1.4 s and real SQLite files and git repositories are slow on
    // a loaded 2-core machine; generous timeouts keep the suite from flaking, they do not time anything.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker less than the cores: one, here. The end-to-end files spend
    // much of their time waiting on child processes and HTTP, so three keep two cores busy.
    maxWorkers: 3,
  },
});
