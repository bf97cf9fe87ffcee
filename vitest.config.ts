import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{app,action,checks,schemas,github,test}/**/*.test.ts"],
    // One PostgreSQL server for the run, for the store's contract suites (the PostgreSQL backend).
    globalSetup: ["test/support/postgres-global-setup.ts"],
    // Simulator start-up costs ~1.4 s and real SQLite files and git repositories are slow on
    // a loaded 2-core machine; generous timeouts keep the suite from flaking, they do not time anything.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // A worker keeps its module cache from one test file to the next: importing the App, the
    // simulator and their dependencies afresh for each of ~125 files cost 85 s of a 5-minute run.
    // So a test leaves nothing global behind (environment, spies, process.exitCode): it restores
    // them in afterEach, and module-level state in test/support is shared on purpose (one
    // PostgreSQL server per run).
    isolate: false,
    // Vitest's default is one worker less than the cores: one, here. The end-to-end files spend
    // much of their time waiting on child processes and HTTP, so three keep two cores busy.
    maxWorkers: 3,
  },
});
