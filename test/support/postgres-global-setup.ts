/**
 * Vitest globalSetup: a directory where the run's test workers agree on one PostgreSQL server,
 * which the first worker that needs one starts (postgres-run.ts), and which is stopped here when
 * the run ends. A run without PostgreSQL tests starts none.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { endSharedPostgres } from "./postgres-run.js";

export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "agate-postgres-run-"));
  project.provide("postgresRunDir", dir);
  project.provide("vitestPid", process.pid);
  return () => endSharedPostgres(dir);
}
