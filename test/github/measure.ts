// Measures the simulator's cost: start-up, a request per operation, seeding helpers, the git
// processes each one starts, memory.
// Run: npx tsx test/github/measure.ts   (ROUNDS=30 by default)
import { installationClient, tokenClient } from "./clients.js";
import { GitRepository } from "./git.js";
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
const run = await sim.createWorkflowRun({
  repo: "bench",
  path: ".github/workflows/agate.yml",
  event: "pull_request",
  headSha: head,
  jobs: [{ name: "agate", steps: ["agate"] }],
});
await sim.startJob({ repo: "bench", runId: run.id, job: "agate" });
const artifact = await sim.uploadArtifactAs({
  repo: "bench",
  runId: run.id,
  job: "agate",
  name: "agate-command-record-attempt-1",
  files: { "command-record.json": "{}\n" },
});
const octokit = installationClient(sim);
const reader = tokenClient(sim, sim.createToken({ permissions: { actions: "read" } }));
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
  "actions/list-jobs-for-workflow-run": () =>
    reader.rest.actions.listJobsForWorkflowRun({ owner, repo, run_id: run.id }),
  "actions/list-workflow-run-artifacts": () =>
    reader.rest.actions.listWorkflowRunArtifacts({ owner, repo, run_id: run.id }),
  "actions/download-artifact (302 + blob)": () =>
    reader.rest.actions.downloadArtifact({
      owner,
      repo,
      artifact_id: artifact.id,
      archive_format: "zip",
    }),
};
const perRequest: Record<string, string> = {};
for (const [name, call] of Object.entries(operations)) {
  await call(); // first call compiles the operation's validators
  const processes = GitRepository.processes;
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await call();
  const ms = (performance.now() - t0) / rounds;
  const git = (GitRepository.processes - processes) / rounds;
  perRequest[name] = `${ms.toFixed(1)} ms, ${git.toFixed(1)} git`;
}

// Seeding helpers (each fires webhooks; no receiver here).
const seeding: Record<string, string> = {};
const time = async (name: string, action: () => Promise<unknown>) => {
  const processes = GitRepository.processes;
  const t0 = performance.now();
  await action();
  seeding[name] =
    `${(performance.now() - t0).toFixed(0)} ms, ${GitRepository.processes - processes} git`;
};
let n = 0;
await time("pushCommit (pull request head: synchronize + merge)", () =>
  sim.pushCommit({ repo, branch: "f", files: { "b.txt": `${n++}\n` } }),
);
await time("pushCommit (new branch)", () =>
  sim.pushCommit({ repo, branch: "g", files: { "c.txt": "c\n" } }),
);
await time("openPullRequest", () =>
  sim.openPullRequest({ repo, head: "g", title: "g", user: "codex[bot]" }),
);
const files: Record<string, string> = {};
for (let i = 0; i < 3001; i++) files[`pad/f${i}.txt`] = `${i}\n`;
await time("pushCommit of 3,001 files", () => sim.pushCommit({ repo, branch: "big", files }));
await time("openPullRequest of 3,001 files", () =>
  sim.openPullRequest({ repo, head: "big", title: "big", user: "codex[bot]" }),
);
await time("workflow run: create, start, complete", async () => {
  const next = await sim.createWorkflowRun({
    repo,
    path: ".github/workflows/agate.yml",
    event: "pull_request",
    headSha: head,
    jobs: [{ name: "agate" }],
  });
  await sim.startJob({ repo, runId: next.id, job: "agate" });
  await sim.completeJob({ repo, runId: next.id, job: "agate", conclusion: "success" });
});

console.log(
  JSON.stringify(
    {
      startupMs: Math.round(startup),
      rssAfterStartMB: Math.round(rssAfterStart / 1e6),
      rssAfterRequestsMB: Math.round(process.memoryUsage().rss / 1e6),
      perRequest,
      seeding,
    },
    null,
    2,
  ),
);
await sim.close();
