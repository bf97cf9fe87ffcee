/**
 * What the Action benchmarks share (bench-action.ts, bench-action-ab.ts): a repository whose base
 * commit holds the config, the runner's environment for a pull_request event, and the median.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRepo } from "../test/support/git-repo.js";

export function repoWith(commands: string[], extra = "") {
  const repo = makeRepo("agate-bench-");
  const sha = repo.commit({
    ".github/agate.yml": `version: 1\ncommands:\n${commands.map((run, i) => `  - name: c${i}\n    run: ${JSON.stringify(run)}\n`).join("")}${extra}`,
  });
  // The runner's own directory, outside the work tree (the commands user never gets it).
  const temp = mkdtempSync(join(tmpdir(), "agate-bench-temp-"));
  return {
    ...repo,
    sha,
    temp,
    remove() {
      repo.remove();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}

/** The Action's usual case: a pull_request event whose base commit holds the config. */
export function actionEnv(dir: string, temp: string, sha: string): Record<string, string> {
  const output = join(temp, "bench-output");
  writeFileSync(output, "");
  const event = join(temp, "bench-event.json");
  writeFileSync(
    event,
    JSON.stringify({
      pull_request: { number: 1, head: { sha, ref: "agent" }, base: { sha, ref: "main" } },
      repository: { full_name: "bench/repo", default_branch: "main" },
    }),
  );
  return {
    PATH: process.env.PATH ?? "",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: "bench/repo",
    GITHUB_OUTPUT: output,
    "INPUT_WORKING-DIRECTORY": dir,
    RUNNER_TEMP: temp,
    AGATE_TIMINGS: "1",
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
