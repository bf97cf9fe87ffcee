import { execFileSync } from "node:child_process";
import { parseConfig } from "../../checks/config/parse-config.js";
import {
  type CommandRecord,
  RECORD_FILE_NAME,
  recordArtifactName,
} from "../../schemas/command-record.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import type { GitHubSimulator } from "../github/index.js";
import { ANSWER_CONFIG } from "./gate-harness.js";
import type { CiJob } from "./simulated-ci.js";

/**
 * A command record as agate would write one whose commands all passed, for the job that is
 * running: what a workflow the agent wrote (one on a base it pushed) uploads in place of agate's.
 * It names the head itself as tested (no test merge commit needed) under `config`'s digest, or
 * the commit `tested` names (the job's own checkout, which code in the job knows).
 */
export function forgedPassingRecord(input: {
  sim: GitHubSimulator;
  repo: string;
  job: CiJob;
  head: string;
  number: number;
  config?: string;
  tested?: string;
}): Record<string, string> {
  const { sim, repo, job, head } = input;
  const tested = input.tested ?? head;
  const { config, digest } = parseConfig(input.config ?? ANSWER_CONFIG);
  const tree = execFileSync("git", ["rev-parse", `${tested}^{tree}`], {
    cwd: sim.gitDir({ repo }),
    encoding: "utf8",
  }).trim();
  const record: CommandRecord = {
    kind: "agate.command-record",
    version: 2,
    repository: `${sim.owner}/${repo}`,
    tested: {
      sha: tested,
      tree_sha: tree,
      parents: [],
      clean_before: true,
      dirty_before: [],
      clean: true,
      dirty_digest: null,
    },
    pull_request: { number: input.number, head_sha: head, base_sha: head },
    merge_group: null,
    commands: config.commands.map((c) => ({
      name: c.name,
      run: c.run,
      exit_code: 0,
      signal: null,
      timed_out: false,
      started_at: new Date().toISOString(),
      duration_ms: 3,
      output: {
        bytes: 0,
        sha256: "0".repeat(64),
        normalized_sha256: "0".repeat(64),
        tail: "",
        truncated: false,
      },
      changed_paths: [],
      changed_paths_count: 0,
    })),
    runner: { os: "Linux", arch: "X64", image_version: null, node_version: "v24.0.0" },
    grader: { agate_version: AGATE_VERSION, config_digest: digest },
    workflow: {
      run_id: job.runId,
      run_attempt: job.attempt,
      workflow_ref: `${sim.owner}/${repo}/.github/workflows/agate.yml@${job.ref}`,
      job: job.job,
      event_name: "pull_request",
    },
    cut: [],
    created_at: new Date().toISOString(),
    // What the forger claims: isolated, as an honest record says (the field is the job's word).
    isolation: { mode: "user", user: "agate-cmd", uid: 1999, reason: null, swept: "user" },
  };
  return { [RECORD_FILE_NAME]: JSON.stringify(record) };
}

/** A job step before agate's that uploads a forged passing record under the attempt's name. */
export const forgeBeforeAgate =
  (sim: GitHubSimulator, repo: string, head: string, number: number) => (job: CiJob) =>
    uploadFromJob(sim, repo, job, forgedPassingRecord({ sim, repo, job, head, number }));

/**
 * Uploads `files` as an artifact of the running job with the job's own runtime token, as code in
 * the job can: under the attempt's record name unless `name` says otherwise.
 */
export async function uploadFromJob(
  sim: GitHubSimulator,
  repo: string,
  job: CiJob,
  files: Record<string, string>,
  name = recordArtifactName(job.attempt),
): Promise<void> {
  await sim.uploadArtifactAs({
    repo,
    runId: job.runId,
    attempt: job.attempt,
    job: job.job,
    name,
    files,
  });
}
