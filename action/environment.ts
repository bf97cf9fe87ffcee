import { arch, platform } from "node:os";
import type { z } from "zod";
import type { runnerSchema, workflowRunRefSchema } from "../schemas/command-record.js";

/**
 * Variables a required command never sees. The commands run the pull request's code, which is
 * untrusted: with the token it could write check runs or push; with the runner's internal tokens
 * it could mint OIDC tokens or write caches and artifacts; with the file-command paths it could
 * set this step's outputs (passed=true) or the job's environment.
 */
const SECRET_NAMES = new Set([
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GITHUB_OUTPUT",
  "GITHUB_STATE",
  "GITHUB_ENV",
  "GITHUB_PATH",
  "GITHUB_STEP_SUMMARY",
]);
const SECRET_PREFIXES = ["INPUT_", "ACTIONS_"];

export function commandEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name]) =>
        !SECRET_NAMES.has(name) && !SECRET_PREFIXES.some((prefix) => name.startsWith(prefix)),
    ),
  );
}

export function runnerInfo(env: NodeJS.ProcessEnv): z.infer<typeof runnerSchema> {
  return {
    os: env.RUNNER_OS ?? platform(),
    arch: env.RUNNER_ARCH ?? arch(),
    image_version: env.ImageVersion ?? null,
    node_version: process.version,
  };
}

/** The workflow run that made the record, for the App to confirm with the Actions API. */
export function workflowRun(env: NodeJS.ProcessEnv): z.infer<typeof workflowRunRefSchema> | null {
  if (env.GITHUB_ACTIONS !== "true" || !env.GITHUB_RUN_ID) return null;
  return {
    run_id: Number(env.GITHUB_RUN_ID),
    run_attempt: Number(env.GITHUB_RUN_ATTEMPT ?? "1"),
    workflow_ref: env.GITHUB_WORKFLOW_REF ?? env.GITHUB_WORKFLOW ?? "unknown",
    job: env.GITHUB_JOB ?? "unknown",
    event_name: env.GITHUB_EVENT_NAME ?? "unknown",
  };
}
