import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{app,action,checks,schemas,test}/**/*.test.ts"],
    // Simulator start-up costs ~1.4 s and real SQLite files and git repositories are slow on
    // a loaded 2-core machine; generous timeouts keep the suite from flaking, they do not time anything.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
