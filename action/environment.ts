import { arch, platform } from "node:os";
import type { z } from "zod";
import type { runnerSchema, workflowRunRefSchema } from "../schemas/command-record.js";

/**
 * The runner's file commands: files the runner reads when the step ends. Removed from the
 * commands' environment, and emptied by agate once the commands are gone (main.ts), since a
 * command can find their paths anyway.
 */
export const FILE_COMMANDS: readonly { name: string; blocks: string }[] = [
  { name: "GITHUB_OUTPUT", blocks: "setting this step's outputs (passed=true)" },
  { name: "GITHUB_ENV", blocks: "setting variables for later steps" },
  { name: "GITHUB_PATH", blocks: "putting directories first on PATH for later steps" },
  { name: "GITHUB_STATE", blocks: "setting the Action's post-step state" },
  { name: "GITHUB_STEP_SUMMARY", blocks: "writing the job summary agate writes" },
];

/**
 * What a required command never sees in its environment, and why. The commands run the pull
 * request's code (untrusted), and the job's environment may have been shaped by an earlier step
 * (anything written to `$GITHUB_ENV` reaches every later step, agate included).
 */
export const REMOVED_VARIABLES: readonly { name: string; prefix?: true; blocks: string }[] = [
  // Secrets and the runner's internal tokens.
  { name: "GITHUB_TOKEN", blocks: "writing to the repository with the workflow's token" },
  { name: "GH_TOKEN", blocks: "the same token under the name gh reads" },
  { name: "INPUT_", prefix: true, blocks: "the Action's inputs, the token input among them" },
  {
    name: "ACTIONS_",
    prefix: true,
    blocks:
      "the runner's runtime, cache, results and OIDC request tokens (uploading artifacts, writing caches, minting OIDC tokens); agate's own /proc/<pid>/environ, which has them, is closed to the commands user (isolation.ts), and where the commands share agate's user, to them too on a Node with process.execve (same-uid.ts)",
  },
  ...FILE_COMMANDS,
  // bash start-up: code that would run before, around or instead of the command.
  {
    name: "BASH_ENV",
    blocks: "a file bash sources before a non-interactive command (`trap 'exit 0' EXIT`)",
  },
  { name: "ENV", blocks: "a file sh and bash in POSIX mode source at start-up" },
  {
    name: "BASH_FUNC_",
    prefix: true,
    blocks: "exported functions that override commands and builtins (`false() { true; }`)",
  },
  { name: "SHELLOPTS", blocks: "shell options imported at start-up (xtrace, which expands PS4)" },
  { name: "BASHOPTS", blocks: "shopt options imported at start-up (extdebug, ...)" },
  { name: "PS4", blocks: "a prompt whose command substitutions run on every traced line" },
  { name: "PROMPT_COMMAND", blocks: "a command run before each prompt" },
  { name: "CDPATH", blocks: "`cd dir` going somewhere else than ./dir" },
  { name: "GLOBIGNORE", blocks: "globs silently matching fewer files (tests skipped)" },
  { name: "IFS", blocks: "word splitting on other characters" },
  { name: "BASH_XTRACEFD", blocks: "trace output written to a descriptor of the command's choice" },
  // The dynamic loader: code injected into bash and every program it starts.
  {
    name: "LD_",
    prefix: true,
    blocks: "LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT: a library loaded into every process",
  },
  { name: "DYLD_", prefix: true, blocks: "the same on macOS" },
  // git: configuration, programs and repository locations injected into the commands' git.
  {
    name: "GIT_",
    prefix: true,
    blocks:
      "GIT_CONFIG_*, GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_EXEC_PATH...: a git that reads another repository or runs another program",
  },
];

/**
 * GIT_* variables the repository's own tools may keep: identity and dates (a test suite that
 * commits in a temporary repository), and no prompting. None of them names a program, a file or a
 * repository.
 */
const NEUTRAL_GIT_VARIABLES = new Set([
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "GIT_COMMITTER_DATE",
  "GIT_TERMINAL_PROMPT",
]);

export function isRemovedVariable(name: string): boolean {
  if (NEUTRAL_GIT_VARIABLES.has(name)) return false;
  return REMOVED_VARIABLES.some((entry) =>
    entry.prefix ? name.startsWith(entry.name) : name === entry.name,
  );
}

/** The environment the required commands run with: the job's, minus REMOVED_VARIABLES. */
export function commandEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isRemovedVariable(name)));
}

export function runnerInfo(env: NodeJS.ProcessEnv): z.infer<typeof runnerSchema> {
  return {
    os: env.RUNNER_OS ?? platform(),
    arch: env.RUNNER_ARCH ?? arch(),
    image_version: env.ImageVersion ?? null,
    node_version: process.version,
  };
}

/**
 * The attempt this job runs in: the record's `workflow.run_attempt` and the artifact's name, which
 * the App requires to agree, both come from here.
 */
export function runAttempt(env: NodeJS.ProcessEnv): number {
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? "1");
  return Number.isInteger(attempt) && attempt > 0 ? attempt : 1;
}

/** The workflow run that made the record, for the App to confirm with the Actions API. */
export function workflowRun(env: NodeJS.ProcessEnv): z.infer<typeof workflowRunRefSchema> | null {
  if (env.GITHUB_ACTIONS !== "true" || !env.GITHUB_RUN_ID) return null;
  return {
    run_id: Number(env.GITHUB_RUN_ID),
    run_attempt: runAttempt(env),
    workflow_ref: env.GITHUB_WORKFLOW_REF ?? env.GITHUB_WORKFLOW ?? "unknown",
    job: env.GITHUB_JOB ?? "unknown",
    event_name: env.GITHUB_EVENT_NAME ?? "unknown",
  };
}
