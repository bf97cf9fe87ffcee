/**
 * GitHub API calls the App makes, read from its own adapter counts: per pull_request event
 * evaluation and for one pull request from opened to accepted. Prints figures, asserts nothing.
 *   npx tsx scripts/bench-app-calls.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gateJobHandlers } from "../app/gate/job-handlers.js";
import { startAgate } from "../app/runtime/server.js";
import { startGitHubSimulator } from "../test/github/index.js";
import { EVIDENCE_WORKFLOW_TEXT } from "../test/support/evidence-workflow.js";
import { recordingLog } from "../test/support/recording-log.js";
import { settle as settleApp } from "../test/support/settle.js";
import { simulatedCi } from "../test/support/simulated-ci.js";

const temp = mkdtempSync(join(tmpdir(), "agate-bench-calls-"));
// As on GitHub, every job gets a check run of its own too (GitHub Actions').
const sim = await startGitHubSimulator({ webhookSecret: "bench", jobCheckRuns: true });
const log = recordingLog();
const agate = await startAgate({
  // The simulator has no secondary rate limits to pace writes for.
  githubThrottle: false,
  env: {
    ...sim.probotEnv(),
    WEBHOOK_SECRET: "bench",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    AGATE_DATABASE_URL: `file:${join(temp, "a.db")}`,
  },
  log,
  pollMs: 20,
  handlers: gateJobHandlers,
});
sim.setWebhookUrl(`${agate.url}/api/github/webhooks`);
const settle = () => settleApp(sim, agate);

/** "(N GitHub calls)" from each evaluation the gate logged, by the event that caused it. */
function evaluations() {
  return log.entries
    .map((entry) => /after (\S+): .* \((\d+) GitHub calls\)$/.exec(entry.message))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ event: m[1] ?? "", calls: Number(m[2]) }));
}

await sim.createRepository({
  repo: "bench",
  files: {
    ".github/agate.yml": "version: 1\ncommands:\n  - { name: t, run: 'true' }\n",
    ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT,
  },
});
const head = await sim.pushCommit({
  repo: "bench",
  branch: "codex/b",
  files: { "a.txt": "a\n" },
  author: "codex[bot]",
});
await sim.openPullRequest({ repo: "bench", head: "codex/b", title: "B", user: "codex[bot]" });
await settle();
await simulatedCi({ sim, repo: "bench", branch: "codex/b", head, temp, settle });
const toAccepted = evaluations();
const next = await sim.pushCommit({
  repo: "bench",
  branch: "codex/b",
  files: { "b.txt": "b\n" },
  author: "codex[bot]",
});
await settle();
const synchronize = evaluations()
  .slice(toAccepted.length)
  .filter((e) => e.event === "pull_request.synchronize");
const accepted = sim
  .checkRuns({ repo: "bench" })
  .find((c) => c.name === "agate" && c.headSha === head && c.app.slug === sim.appSlug)?.conclusion;

console.log(`one pull request, opened to ${accepted} (${toAccepted.length} evaluations):`);
for (const e of toAccepted) console.log(`  ${e.event.padEnd(28)} ${e.calls} calls`);
console.log(
  `  total                        ${toAccepted.reduce((sum, e) => sum + e.calls, 0)} calls`,
);
console.log(
  `a synchronize to ${next.slice(0, 7)}: ${synchronize.map((e) => e.calls).join(", ")} calls`,
);

await agate.close();
await sim.close();
rmSync(temp, { recursive: true, force: true });
