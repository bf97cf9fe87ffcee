import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { failedCommands } from "../checks/command-results.js";
import { ConfigurationError } from "../checks/errors.js";
import { recordStatus } from "../checks/gate/record-status.js";
import { actionInputsSchema } from "../schemas/action.js";
import { type CommandRecord, RECORD_FILE_NAME } from "../schemas/command-record.js";
import { fetchShallow } from "./base-config.js";
import { defaultsReader, TOKEN_ADVICE } from "./config-defaults.js";
import { FILE_COMMANDS } from "./environment.js";
import { type EventContext, readEventContext } from "./event.js";
import { systemExecutable } from "./git/executables.js";
import { git, gitMaybe, localStateDir } from "./git/git.js";
import { rootAccess } from "./isolation.js";
import { type RunLog, runRequiredCommands } from "./required-commands.js";
import { becomeUndumpable, refuseInspectorSignal } from "./same-uid.js";
import { headline, renderRecordMarkdown } from "./summary.js";
import { mark, printTimings } from "./timings.js";
import type { TraceOutcome } from "./trace.js";
import {
  loadArtifactClient,
  type RecordUpload,
  RecordUploadError,
  uploadRecord,
} from "./upload.js";
import * as core from "./workflow-commands.js";

/**
 * The Action's entry point; every failure ends in core.setFailed with what to fix. It reads the
 * process's own environment, the one workflow-commands.ts reads inputs and file-command paths
 * from: the files agate empties after the commands must be the very files core then writes.
 */
export async function run(): Promise<void> {
  refuseInspectorSignal();
  // Where the commands will share agate's user, agate first closes what it can of its process.
  if (rootAccess().kind === "none") becomeUndumpable(process.env);
  mark("load");
  const env = process.env;
  try {
    await runAction(env);
    printTimings(env);
  } catch (error) {
    // Whatever the commands (if any ran) wrote to the file commands does not stand either.
    try {
      resetFileCommands(env);
    } catch {
      // Reported below as the failure it follows from.
    }
    if (error instanceof ConfigurationError) annotate(error);
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}

function readInputs() {
  const names = Object.keys(actionInputsSchema.shape) as (keyof typeof actionInputsSchema.shape)[];
  const raw = Object.fromEntries(
    names
      .map((name) => [name, core.getInput(name) || undefined])
      .filter(([, v]) => v !== undefined),
  );
  const parsed = actionInputsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `agate: invalid inputs: ${parsed.error.issues.map((i) => i.message).join("; ")}`,
    );
  }
  return parsed.data;
}

async function runAction(env: NodeJS.ProcessEnv): Promise<void> {
  // Resolved before anything else runs, from system directories only (never PATH).
  systemExecutable("git");
  systemExecutable("bash");
  const inputs = readInputs();
  const cwd = resolve(inputs["working-directory"]);
  const context = readEventContext(env);
  const repository =
    env.GITHUB_REPOSITORY ?? (context.kind === "other" ? context.repository : null);
  const [owner, repo] = (repository ?? "").split("/");
  // The token only reads the base config when git cannot fetch it; the client is loaded then.
  const readViaApi =
    inputs.token && owner && repo
      ? async (sha: string, path: string) => {
          const { ActionGitHub } = await import("./github.js");
          return new ActionGitHub(inputs.token, owner, repo, env.GITHUB_API_URL).readFileAtCommit(
            sha,
            path,
          );
        }
      : undefined;
  // Organisation defaults (`extends`) are read with the same token, at their pinned commit.
  const readDefaults = defaultsReader({
    token: inputs.token || undefined,
    apiUrl: env.GITHUB_API_URL,
    advice: TOKEN_ADVICE.action,
  });
  const stateDir = env.RUNNER_TEMP ? join(env.RUNNER_TEMP, "agate") : localStateDir(cwd);

  // Every module agate will run after the commands is loaded before the first one starts.
  const artifactClient = await loadArtifactClient(env);
  // The agent's trace is read once the base config is (its progress thresholds apply) and
  // before the commands run, so they cannot rewrite it or swap it for a FIFO; a bad trace is
  // reported and never changes the verdict.
  const traceInput = core.getInput("trace").trim();
  const tracing = traceInput ? await import("./trace-summary.js") : undefined;
  let traces: TraceOutcome[] = [];
  const outcome = await runRequiredCommands({
    cwd,
    configPath: inputs.config,
    baseSha: baseSha(cwd, context),
    env,
    stateDir,
    log: actionsLog(),
    readViaApi,
    readDefaults,
    repository: repository ?? null,
    pullRequest: context.kind === "pull_request" ? context.event.pull_request : undefined,
    mergeGroup: context.kind === "merge_group" ? context.event.merge_group : undefined,
    beforeCommands: async (config) => {
      if (tracing) traces = await tracing.readTraces(cwd, traceInput, config.progress);
    },
    isolation: "commands-user",
  });
  if (outcome.kind === "not-adopted") {
    core.info(
      `agate: the base commit ${outcome.baseSha} has no ${inputs.config}, so this repository has not adopted agate; nothing to do.`,
    );
    return;
  }

  // From here on every process the commands started is gone (runCommand waits for that), so
  // what follows (the record, its upload, the outputs, the summary) cannot be raced by them.
  await reportRecord(outcome.record, {
    inputs,
    cwd,
    env,
    stateDir,
    repository: repository ?? null,
    traces,
    tracing,
    artifactClient,
  });
}

interface ReportContext {
  inputs: ReturnType<typeof readInputs>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  repository: string | null;
  traces: TraceOutcome[];
  /** trace-summary.ts, loaded before the commands when the `trace` input is set. */
  tracing: typeof import("./trace-summary.js") | undefined;
  artifactClient: Awaited<ReturnType<typeof loadArtifactClient>>;
}

/**
 * After the commands: the record written and uploaded, the file commands emptied, then agate's
 * outputs, the job summary and the step's verdict. Loads no module (see upload.ts).
 */
async function reportRecord(record: CommandRecord, report: ReportContext): Promise<void> {
  const { inputs, cwd, env, stateDir, repository, traces, tracing, artifactClient } = report;
  const json = `${JSON.stringify(record, null, 2)}\n`;
  const recordPath = inputs["record-path"]
    ? resolve(cwd, inputs["record-path"])
    : join(stateDir, RECORD_FILE_NAME);
  mkdirSync(dirname(recordPath), { recursive: true });
  // The commands can reach this path (RUNNER_TEMP is theirs too): a fresh regular file.
  writeRegularFile(recordPath, json);
  mark("record");

  let upload: RecordUpload | RecordUploadError;
  try {
    upload = await uploadRecord(json, { env, tempDir: stateDir, client: artifactClient });
  } catch (error) {
    if (!(error instanceof RecordUploadError)) throw error;
    upload = error;
  }

  resetFileCommands(env);
  const failed = failedCommands(record);
  core.setOutput("passed", failed.length === 0);
  core.setOutput("record-path", recordPath);
  core.setOutput("tested-sha", record.tested.sha);
  core.setOutput("tree-sha", record.tested.tree_sha);
  core.setOutput("failed-commands", JSON.stringify(failed));
  if (repository) core.setOutput("status", JSON.stringify(recordStatus(record, repository)));

  let traceMarkdown = "";
  if (tracing && traces.length > 0) {
    traceMarkdown = await tracing.traceSection(traces, {
      env,
      tempDir: stateDir,
      client: artifactClient,
    });
  }
  const markdown = `${renderRecordMarkdown(record)}\n${whereTheRecordWent(upload)}\n${traceMarkdown}`;
  core.writeSummary(markdown, env);
  mark("upload");

  if (upload instanceof RecordUploadError) {
    core.setFailed(upload.message);
    return;
  }
  concludeStep(record, upload, recordPath, inputs["fail-on-command-failure"]);
}

/** The step's last words: where the record went, and whether a failed command fails the step. */
function concludeStep(
  record: CommandRecord,
  upload: RecordUpload,
  recordPath: string,
  failOnCommandFailure: boolean,
): void {
  const failed = failedCommands(record);
  if (upload.kind === "uploaded") {
    core.info(
      `agate: uploaded the command record as the artifact ${upload.name} (id ${upload.id}).`,
    );
  } else {
    core.warning(
      `agate: not on a GitHub Actions runner (no ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL), so the command record was not uploaded and the App cannot see this evidence; it is in the job summary and at ${recordPath}.`,
    );
  }

  if (failed.length > 0) {
    const message = `agate: ${headline(record)}: ${failed.join(", ")}`;
    if (failOnCommandFailure) core.setFailed(message);
    else
      core.warning(
        `${message} (not failing the step: fail-on-command-failure is false; the App refuses a failing record whose step succeeded)`,
      );
  } else {
    core.info(`agate: ${headline(record)}.`);
  }
}

/**
 * The runner gives each step its own file-command files and reads them when the step ends. Their
 * paths are removed from the commands' environment, but a command can still find them (agate's
 * own /proc/<pid>/environ, or a search of the runner's directory) and write `passed=true`, a
 * variable or a PATH entry for later steps. agate writes nothing to them before this point, so
 * once the commands are gone each is emptied (a symlink a command put there is replaced by a
 * fresh file, never followed); agate's own outputs and summary are then the only content.
 */
function resetFileCommands(env: NodeJS.ProcessEnv): void {
  for (const { name } of FILE_COMMANDS) {
    const path = env[name];
    if (path) writeRegularFile(path, "");
  }
}

/**
 * Writes `content` as the whole of a regular file at `path`, for a path the commands could reach:
 * whatever else they put there (a symlink, a FIFO that would block the write forever) is removed
 * first and never followed or opened.
 */
function writeRegularFile(path: string, content: string): void {
  try {
    if (!lstatSync(path).isFile()) unlinkSync(path);
  } catch {
    // Missing: created below.
  }
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
  );
  try {
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

function whereTheRecordWent(upload: RecordUpload | RecordUploadError): string {
  if (upload instanceof RecordUploadError) {
    return upload.tampering
      ? "**The record could not be uploaded: an artifact of its name was already in this run attempt. The job was tampered with; the App will refuse this attempt's record.**"
      : `**The record was not uploaded**, so the App cannot see it: ${upload.message.replace(/^agate: /, "")}`;
  }
  return upload.kind === "uploaded"
    ? `The record is the artifact \`${upload.name}\` (id ${upload.id}) of this run.`
    : "The record was not uploaded (not on a GitHub Actions runner); the App cannot see it.";
}

/** The config is read at the base: the pull request's or merge group's, else the default branch. */
function baseSha(cwd: string, context: EventContext): string {
  if (context.kind !== "other") return context.baseSha;
  if (context.defaultBranch) {
    fetchShallow(cwd, context.defaultBranch);
    const sha =
      gitMaybe(cwd, ["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"]) ??
      gitMaybe(cwd, [
        "rev-parse",
        "--verify",
        "--quiet",
        `origin/${context.defaultBranch}^{commit}`,
      ]);
    if (sha) return sha.trim();
  }
  core.warning("agate: cannot find the default branch's commit; reading the config at HEAD.");
  return git(cwd, ["rev-parse", "HEAD"]).trim();
}

/**
 * The Actions log. The commands' output is the pull request's code talking, so workflow commands
 * in it (`::set-output`, `::add-mask::`, `::endgroup::`, ...) are switched off while it streams,
 * with a token it cannot guess.
 */
function actionsLog(): RunLog {
  return {
    info: (line) => core.info(line),
    warning: (line) => core.warning(line),
    async command(name, run) {
      core.startGroup(`agate: ${name}`);
      const token = randomBytes(16).toString("hex");
      process.stdout.write(`::stop-commands::${token}\n`);
      try {
        return await run();
      } finally {
        process.stdout.write(`\n::${token}::\n`);
        core.endGroup();
      }
    },
    output: (chunk) => process.stdout.write(chunk),
  };
}

function annotate(error: ConfigurationError): void {
  for (const problem of error.problems) {
    const text = problem.path ? `${problem.path}: ${problem.message}` : problem.message;
    if (problem.file) {
      // In the organisation defaults, another repository's file: an annotation cannot point there.
      core.error(`${text} (line ${problem.line}, column ${problem.column} of ${problem.file})`, {
        title: "agate config (organisation defaults)",
      });
      continue;
    }
    core.error(text, {
      title: "agate config",
      file: error.file,
      startLine: problem.line,
      startColumn: problem.column,
    });
  }
}
