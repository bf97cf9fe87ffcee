import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GIT_ENV } from "./git-repo.js";

export const ACTION_BUNDLE = resolve(import.meta.dirname, "..", "..", "dist", "action", "index.js");

export interface ActionRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** What the step set with GITHUB_OUTPUT, by name. */
  outputs: Record<string, string>;
  /** What the step wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** RUNNER_TEMP of this run. */
  temp: string;
}

export interface ActionRunOptions {
  cwd: string;
  eventName: string;
  event: unknown;
  repository: string;
  inputs?: Record<string, string>;
  env?: Record<string, string>;
}

/**
 * Runs the committed Action bundle the way the runner does: a node process with INPUT_*
 * variables, GITHUB_EVENT_PATH, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and the
 * GITHUB_* and RUNNER_* variables a job has.
 */
export async function runActionBundle(options: ActionRunOptions): Promise<ActionRun> {
  const temp = mkdtempSync(join(tmpdir(), "agate-runner-"));
  const files = {
    output: join(temp, "output"),
    summary: join(temp, "summary"),
    event: join(temp, "event.json"),
  };
  writeFileSync(files.output, "");
  writeFileSync(files.summary, "");
  writeFileSync(files.event, JSON.stringify(options.event));
  const inputs = {
    "working-directory": options.cwd,
    config: ".github/agate.yml",
    "fail-on-command-failure": "true",
    ...options.inputs,
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    ...GIT_ENV,
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: options.repository,
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_JOB: "gate",
    GITHUB_WORKFLOW_REF: `${options.repository}/.github/workflows/ci.yml@refs/heads/main`,
    RUNNER_TEMP: temp,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...options.env,
  };
  // Asynchronous on purpose: a simulator in the same process must keep answering meanwhile.
  const child = spawn(process.execPath, [ACTION_BUNDLE], { cwd: options.cwd, env });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const status = await new Promise<number | null>((done, fail) => {
    child.once("error", fail);
    child.once("close", done);
  });
  const outputs = Object.fromEntries(
    [
      ...readFileSync(files.output, "utf8").matchAll(
        /^([\w-]+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm,
      ),
    ].map((m) => [m[1], m[3]]),
  );
  return {
    status,
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8"),
    outputs: outputs as Record<string, string>,
    summary: readFileSync(files.summary, "utf8"),
    temp,
  };
}
