import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { GIT_ENV } from "./git-repo.js";
import { giveTo, type RunnerUser, spawnAs } from "./runner-users.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
/**
 * The committed bundle; AGATE_ACTION_BUNDLE names another build (of a working tree whose dist/
 * is not rebuilt yet), for a local run of the end-to-end tests.
 */
export const ACTION_BUNDLE =
  process.env.AGATE_ACTION_BUNDLE || resolve(ROOT, "dist", "action", "index.js");

/**
 * The inputs action.yml declares with a literal default: the runner sets every declared input
 * (INPUT_<NAME>), so a variable an earlier step put in GITHUB_ENV under that name never reaches
 * the action. `token` defaults to an expression (`github.token`): callers pass one.
 */
const INPUT_DEFAULTS: Record<string, string> = Object.fromEntries(
  Object.entries(
    (
      parse(readFileSync(resolve(ROOT, "action.yml"), "utf8")) as {
        inputs: Record<string, { default?: unknown }>;
      }
    ).inputs,
  )
    .filter(([, input]) => typeof input.default === "string" && !input.default.includes("${{"))
    .map(([name, input]) => [name, String(input.default)]),
);

export interface ActionRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** What the step set with GITHUB_OUTPUT, by name (the last value of a name wins, as on a runner). */
  outputs: Record<string, string>;
  /** What the step wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** What the step left in GITHUB_ENV and GITHUB_PATH for later steps (raw file contents). */
  envFile: string;
  pathFile: string;
  /** RUNNER_TEMP of this run. */
  temp: string;
}

export interface ActionRunOptions {
  cwd: string;
  eventName: string;
  event: unknown;
  repository: string;
  inputs?: Record<string, string>;
  /**
   * The job's environment as the step inherits it (job variables, what earlier steps wrote to
   * GITHUB_ENV). It overrides the defaults here but not the runner's own variables for the step:
   * GITHUB_EVENT_PATH, the file commands' paths and the INPUT_* variables win, as on a runner.
   */
  env?: Record<string, string>;
  /** Another copy of the bundle to run (default: the committed dist/action/index.js). */
  bundle?: string;
  /**
   * The job's event file: the runner writes it once, at the start of the job, and every step can
   * read (and write) it. Default: a fresh file with `event`.
   */
  eventPath?: string;
  /**
   * The runner's user to run the Action as (test/support/runner-users.ts): the checkout and
   * RUNNER_TEMP become its own, as on a runner. Default: this process's user.
   */
  runAs?: RunnerUser;
  /** Called with the Action's process once it started (to signal it, as a cancelled job does). */
  onStart?: (child: ReturnType<typeof spawn>) => void;
}

/** Each run's RUNNER_TEMP, kept while the test process reads it and removed when it exits. */
const temps: string[] = [];
process.once("exit", () => {
  for (const temp of temps) rmSync(temp, { recursive: true, force: true });
});

/**
 * The Node that runs the bundle: GitHub's runners use Node 24 (action.yml: `runs.using: node24`),
 * and `.ci/run` points AGATE_ACTION_NODE at one; the tests' own Node otherwise.
 */
const ACTION_NODE = process.env.AGATE_ACTION_NODE || process.execPath;

/**
 * Runs the committed Action bundle the way the runner does: a node process with INPUT_*
 * variables, GITHUB_EVENT_PATH, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and the
 * GITHUB_* and RUNNER_* variables a job has.
 */
export async function runActionBundle(options: ActionRunOptions): Promise<ActionRun> {
  const temp = mkdtempSync(join(tmpdir(), "agate-runner-"));
  temps.push(temp);
  const files = {
    output: join(temp, "output"),
    summary: join(temp, "summary"),
    env: join(temp, "env"),
    path: join(temp, "path"),
    event: join(temp, "event.json"),
  };
  for (const file of [files.output, files.summary, files.env, files.path]) writeFileSync(file, "");
  const eventPath = options.eventPath ?? files.event;
  if (!options.eventPath) writeFileSync(eventPath, JSON.stringify(options.event));
  const inputs = { ...INPUT_DEFAULTS, "working-directory": options.cwd, ...options.inputs };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    ...GIT_ENV,
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_REPOSITORY: options.repository,
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_JOB: "gate",
    GITHUB_WORKFLOW_REF: `${options.repository}/.github/workflows/ci.yml@refs/heads/main`,
    RUNNER_TEMP: temp,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    ...options.env,
    // The runner's own variables for this step come last: nothing inherited overrides them.
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
  };
  // Asynchronous on purpose: a simulator in the same process must keep answering meanwhile.
  const args = [options.bundle ?? ACTION_BUNDLE];
  let child: ReturnType<typeof spawn>;
  if (options.runAs) {
    giveTo(options.runAs, temp, options.cwd, ...(options.eventPath ? [eventPath] : []));
    child = spawnAs(options.runAs, ACTION_NODE, args, { cwd: options.cwd, env, stdio: "pipe" });
  } else {
    child = spawn(ACTION_NODE, args, { cwd: options.cwd, env });
  }
  if (!child.stdout || !child.stderr) throw new Error("the Action's output is not piped");
  options.onStart?.(child);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const status = await new Promise<number | null>((done, fail) => {
    child.once("error", fail);
    child.once("close", done);
  });
  return {
    status,
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8"),
    outputs: parseFileCommand(readFileSync(files.output, "utf8")),
    summary: readFileSync(files.summary, "utf8"),
    envFile: readFileSync(files.env, "utf8"),
    pathFile: readFileSync(files.path, "utf8"),
    temp,
  };
}

/** GITHUB_OUTPUT as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseFileCommand(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc?.[1] && heredoc[2]) {
      const end = lines.indexOf(heredoc[2], i + 1);
      if (end < 0) break;
      values[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else {
      const eq = line.indexOf("=");
      if (eq > 0) values[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return values;
}
