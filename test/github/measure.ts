// Measures the simulator's cost: start-up, a request per operation, memory.
// Run: npx tsx test/github/measure.ts
import { installationClient } from "./clients.js";
import { startGitHubSimulator } from "./simulator.js";

const rounds = Number(process.env.ROUNDS ?? 30);
const started = performance.now();
const sim = await startGitHubSimulator();
const startup = performance.now() - started;
const rssAfterStart = process.memoryUsage().rss;

await sim.createRepository({
  repo: "bench",
  files: { "a.txt": "a\n", ".github/agate.yml": "version: 1\n" },
});
const head = await sim.pushCommit({ repo: "bench", branch: "f", files: { "b.txt": "b\n" } });
await sim.openPullRequest({ repo: "bench", head: "f", title: "t", user: "codex[bot]" });
const octokit = installationClient(sim);
const owner = sim.owner;
const repo = "bench";
const operations: Record<string, () => Promise<unknown>> = {
  "repos/get": () => octokit.rest.repos.get({ owner, repo }),
  "issues/get": () => octokit.rest.issues.get({ owner, repo, issue_number: 1 }),
  "repos/get-content": () =>
    octokit.rest.repos.getContent({ owner, repo, path: ".github/agate.yml", ref: "main" }),
  "pulls/get": () => octokit.rest.pulls.get({ owner, repo, pull_number: 1 }),
  "pulls/list-files": () => octokit.rest.pulls.listFiles({ owner, repo, pull_number: 1 }),
  "checks/create": () => octokit.rest.checks.create({ owner, repo, name: "agate", head_sha: head }),
};
const results: Record<string, string> = {};
for (const [name, call] of Object.entries(operations)) {
  await call(); // first call compiles the operation's validators
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await call();
  results[name] = `${((performance.now() - t0) / rounds).toFixed(1)} ms`;
}
console.log(
  JSON.stringify(
    {
      startupMs: Math.round(startup),
      rssAfterStartMB: Math.round(rssAfterStart / 1e6),
      rssAfterRequestsMB: Math.round(process.memoryUsage().rss / 1e6),
      perRequest: results,
    },
    null,
    2,
  ),
);
await sim.close();
