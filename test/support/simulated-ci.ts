import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import type { GitHubSimulator } from "../github/index.js";
import { type ActionRun, runActionBundle } from "./action-runner.js";
import { GIT_ENV } from "./git-repo.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();

/**
 * CI for a pull request's head, as GitHub would run it: a workflow run in progress, the Action
 * bundle on the merge checkout publishing agate/commands with the workflow's token, then the run
 * completing with the agate step's conclusion (the runner's own word, which the App checks).
 * `settle` lets the receiver of the webhooks finish between the steps.
 */
export async function simulatedCi(options: {
  sim: GitHubSimulator;
  repo: string;
  branch: string;
  head: string;
  temp: string;
  settle: () => Promise<void>;
  /** What the runner says the agate step concluded; by default what the step really did. */
  stepConclusion?: "success" | "failure";
  /**
   * Run on `merge_group` instead: `head` is the group head, checked out as is (no merge), and
   * the event is the simulator's last merge_group delivery for the repository.
   */
  mergeGroup?: boolean;
}): Promise<ActionRun> {
  const { sim, repo } = options;
  const run = sim.addWorkflowRun({
    repo,
    headSha: options.head,
    path: ".github/workflows/ci.yml",
    conclusion: null,
    jobs: [{ name: "gate" }],
    ...(options.mergeGroup ? { event: "merge_group" } : {}),
  });
  const dir = mkdtempSync(join(options.temp, "checkout-"));
  git(dir, "clone", "--quiet", sim.gitDir({ repo }), ".");
  if (options.mergeGroup) {
    git(dir, "checkout", "--quiet", "--detach", options.head);
  } else {
    git(dir, "merge", "--quiet", "--no-ff", "-m", "merge", `origin/${options.branch}`);
    git(dir, "checkout", "--quiet", "--detach");
  }
  const eventName = options.mergeGroup ? "merge_group" : "pull_request";
  const event = sim.deliveries
    .filter(
      (d) => d.event === eventName && (d.payload.repository as { name?: string })?.name === repo,
    )
    .at(-1)?.payload;
  const started = new Date(Date.now() - 1000).toISOString();
  const result = await runActionBundle({
    cwd: dir,
    eventName,
    event,
    repository: `${sim.owner}/${repo}`,
    inputs: { token: sim.createToken({ permissions: { checks: "write", contents: "read" } }) },
    env: { GITHUB_API_URL: sim.apiUrl, GITHUB_RUN_ID: String(run.id), GITHUB_JOB: "gate" },
  });
  const ended = new Date(Date.now() + 1000).toISOString();
  await options.settle();
  const conclusion = options.stepConclusion ?? (result.status === 0 ? "success" : "failure");
  await sim.completeWorkflowRun({
    repo,
    runId: run.id,
    conclusion,
    jobs: [
      {
        name: "gate",
        conclusion,
        steps: [{ name: "Run agate", conclusion, startedAt: started, completedAt: ended }],
      },
    ],
  });
  await options.settle();
  return result;
}
