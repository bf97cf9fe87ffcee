import { join } from "node:path";
import { ConfigurationError } from "../checks/errors.js";
import { counted } from "../checks/markdown.js";
import type { MergeGroupEvent, PullRequestEvent } from "../schemas/action.js";
import type { CommandRecord, CommandResult } from "../schemas/command-record.js";
import { commandRecordSchema } from "../schemas/command-record.js";
import type { Config } from "../schemas/config.js";
import { AGATE_VERSION } from "../schemas/version.js";
import { type ReadFileAtCommit, readConfigAtBase } from "./base-config.js";
import { loadConfig, type ReadDefaults } from "./config-defaults.js";
import { commandEnvironment, runnerInfo, workflowRun } from "./environment.js";
import { type GitObject, readObjects } from "./git/git.js";
import {
  createShadowGitWithState,
  pathText,
  type ShadowGit,
  type WorkTreeState,
  workTreeState,
} from "./git/shadow-git.js";
import {
  changedBetween,
  HEAD_COMMIT,
  listed,
  testedCommit,
  testedSnapshot,
} from "./git/snapshot.js";
import { type CommandsIsolation, isolatedUser, rootAccess, sharedIsolation } from "./isolation.js";
import { processGroupLauncher } from "./process-group.js";
import { runCommand } from "./run-command.js";
import { mark } from "./timings.js";

/** Where the commands' output and progress go: the Actions log, or a terminal. */
export interface RunLog {
  info(line: string): void;
  warning?(line: string): void;
  /** Wraps one command's live output (a collapsible group in the Actions log). */
  command<T>(name: string, run: () => Promise<T>): Promise<T>;
  output(chunk: Buffer): void;
}

export interface RequiredCommandsOptions {
  cwd: string;
  configPath: string;
  baseSha: string;
  env: NodeJS.ProcessEnv;
  /** agate's own directory for this run (the shadow git dir lives there), outside the work tree or in .git. */
  stateDir: string;
  log: RunLog;
  readViaApi?: ReadFileAtCommit;
  /** Reads the organisation defaults a config extends (absent: such a config is refused). */
  readDefaults?: ReadDefaults;
  repository: string | null;
  /** The owner `extends` may name; default: the repository's (null: not checked locally). */
  owner?: string | null;
  pullRequest?: PullRequestEvent["pull_request"];
  mergeGroup?: MergeGroupEvent["merge_group"];
  now?: () => Date;
  /**
   * Runs once the base config is read and before anything of the pull request's runs: what
   * must be read before the commands can touch it, with the config's settings (the trace).
   */
  beforeCommands?: (config: Config) => Promise<void>;
  /**
   * `agate run` on a person's or agent's checkout rather than the Action: a dirty work tree there
   * is their own uncommitted work, not an earlier step's, and the warning says so.
   */
  local?: boolean;
  /**
   * `commands-user` (the Action): the commands run as a user of their own, made for the job
   * (isolation.ts), and when that is impossible the base config's `evidence.isolation` decides
   * whether they run at all. Default (`agate run` on a person's machine): as the person running it.
   */
  isolation?: "commands-user";
}

export type RequiredCommandsOutcome =
  | { kind: "not-adopted"; baseSha: string }
  | { kind: "ran"; record: CommandRecord; config: Config };

async function parseBaseConfig(
  text: string,
  path: string,
  sha: string,
  options: Pick<RequiredCommandsOptions, "readDefaults" | "repository" | "owner">,
) {
  try {
    return await loadConfig(text, path, {
      owner: options.owner ?? options.repository?.split("/")[0] ?? null,
      readDefaults: options.readDefaults,
    });
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ConfigurationError(
      error.file,
      error.problems,
      `${path} at the base commit ${sha.slice(0, 7)} is not a valid agate config; fix it on the base branch`,
    );
  }
}

/**
 * The heart of the Action and of `agate run`: read the config at the base commit, bind the
 * tested commit, run each required command in order, and build the command record from what
 * was observed. Throws ConfigurationError for a config the base has but agate cannot use.
 */
export async function runRequiredCommands(
  options: RequiredCommandsOptions,
): Promise<RequiredCommandsOutcome> {
  const { cwd, log } = options;
  const now = options.now ?? (() => new Date());
  const base = await readBase(options);
  if (base.kind === "not-adopted") return base;
  const { config, digest } = base;

  await options.beforeCommands?.(config);
  const commit = testedCommit(cwd, base.head);
  // Built now, while nothing of the pull request's has run under agate: every later look at the
  // work tree goes through it and never reads the repository's .git (see shadow-git.ts).
  // The state before the first command comes from the same git process (nothing ran since).
  const { shadow, state: before } = createShadowGitWithState({
    cwd,
    sha: commit.sha,
    gitDir: join(options.stateDir, "shadow-git"),
  });
  mark("snapshot");
  const env = commandEnvironment(options.env);
  let ran: { commands: CommandResult[]; state: WorkTreeState };
  let isolation: CommandsIsolation | undefined;
  try {
    isolation = openIsolation(options, config, shadow.workTree, env, [...shadow.submodules.keys()]);
    mark("isolation");
    // The base config allowed it (or this is `agate run`): a fact for the log, not a warning.
    if (isolation.record.mode === "shared") {
      log.info(
        `agate: the commands run as agate's own user (${isolation.record.user}): ${isolation.record.reason}; the record says so.`,
      );
    }
    if (before.size > 0) warnDirty(options, before, commit.sha);
    ran = await runEach(config, { cwd, env, log, now, shadow, isolation, before });
  } catch (error) {
    // The first error is the one to report; one while ending the isolation would hide it.
    shadow.remove();
    try {
      isolation?.finish();
    } catch {
      // Reported as the error it follows from.
    }
    throw error;
  }
  shadow.remove();
  // Every process of the commands user is gone and the work tree agate's (or this throws).
  isolation.finish();

  const record = commandRecordSchema.parse({
    kind: "agate.command-record",
    version: 2,
    repository: options.repository,
    tested: testedSnapshot(commit, before, ran.state),
    pull_request: options.pullRequest
      ? {
          number: options.pullRequest.number,
          head_sha: options.pullRequest.head.sha,
          base_sha: options.pullRequest.base.sha,
        }
      : null,
    merge_group: options.mergeGroup
      ? {
          head_ref: options.mergeGroup.head_ref,
          head_sha: options.mergeGroup.head_sha,
          base_sha: options.mergeGroup.base_sha,
        }
      : null,
    commands: ran.commands,
    runner: runnerInfo(options.env),
    grader: { agate_version: AGATE_VERSION, config_digest: digest },
    workflow: workflowRun(options.env),
    isolation: isolation.record,
    cut: [],
    created_at: now().toISOString(),
  } satisfies CommandRecord);
  return { kind: "ran", record, config };
}

/**
 * The config at the base commit, parsed (organisation defaults included), and the checked-out
 * commit read in the same git process when it can be.
 */
async function readBase(
  options: RequiredCommandsOptions,
): Promise<
  | { kind: "not-adopted"; baseSha: string }
  | { kind: "read"; config: Config; digest: string; head: GitObject | undefined }
> {
  const { cwd, log } = options;
  // The checked-out commit and the config at the base in one git process (when the path can be
  // named in cat-file's batch input; otherwise readConfigAtBase reads it alone).
  const configSpec = `${options.baseSha}:${options.configPath}`;
  const combined = !/[\n\r]/.test(configSpec);
  const [head, configObject] = combined
    ? readObjects(cwd, [HEAD_COMMIT, configSpec])
    : [undefined, undefined];
  const base = await readConfigAtBase({
    cwd,
    sha: options.baseSha,
    path: options.configPath,
    api: options.readViaApi,
    ...(combined ? { read: configObject ?? null } : {}),
  });
  if (base.text === null) return { kind: "not-adopted", baseSha: options.baseSha };

  const loaded = await parseBaseConfig(base.text, options.configPath, options.baseSha, options);
  const { config, digest } = loaded;
  mark("config");
  const extended = loaded.extends ? ` extending ${loaded.extends.reference}` : "";
  log.info(
    `agate ${AGATE_VERSION}: ${counted(config.commands.length, "required command")} from ${options.configPath} at base ${options.baseSha} (read with ${base.via})${extended}, config digest ${digest}`,
  );
  return { kind: "read", config, digest, head: head ?? undefined };
}

/** An earlier step's (or, locally, the person's own) changes, said before the first command. */
function warnDirty(options: RequiredCommandsOptions, before: WorkTreeState, sha: string): void {
  const { log } = options;
  const sample = [...before.keys()].slice(0, 5).map(pathText).join(", ");
  (log.warning ?? log.info)(
    options.local
      ? `the work tree has uncommitted changes (${before.size} path(s), such as ${sample}): the commands run on them, but the record is of the commit ${sha.slice(0, 7)}, and the App refuses a record whose work tree differed from its commit before the first command (clean_before: false). Commit them, then run again, for a record that matches what CI will see.`
      : `agate: before the first command, ${before.size} path(s) already differed from the tested commit ${sha.slice(0, 7)} (an earlier step changed them), such as ${sample}; the record says so (clean_before: false).`,
  );
}

/**
 * Each required command in order, as the commands user (a privileged one in a process group of
 * agate's own), the work tree read through the shadow after each.
 */
async function runEach(
  config: Config,
  run: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    log: RunLog;
    now: () => Date;
    shadow: ShadowGit;
    isolation: CommandsIsolation;
    before: WorkTreeState;
  },
): Promise<{ commands: CommandResult[]; state: WorkTreeState }> {
  const { cwd, env, log, now, shadow, isolation } = run;
  const commands: CommandResult[] = [];
  let state = run.before;
  for (const command of config.commands) {
    const launcher = command.privileged ? processGroupLauncher() : isolation.launcher;
    const result = await log.command(command.name, () =>
      runCommand({
        name: command.name,
        run: command.run,
        timeoutMs: command.timeout,
        cwd,
        env,
        launcher,
        onOutput: (chunk) => log.output(chunk),
        now,
      }),
    );
    mark("commands");
    // Every process of the command's group is gone: what is in the work tree now is its doing.
    const after = workTreeState(shadow);
    mark("snapshot");
    const changed = changedBetween(state, after);
    state = after;
    commands.push({
      ...result,
      changed_paths: listed(changed),
      changed_paths_count: changed.length,
      ...(command.privileged ? { privileged: true } : {}),
    });
  }
  return { commands, state };
}

/**
 * The commands user for the Action (isolation.ts); where none can be made, the commands run as
 * agate's own user only if the base config allows it (`evidence.isolation: shared-allowed`):
 * under `required`, nothing of the pull request's runs, since the code under test could then
 * write "isolated" into the record itself.
 */
function openIsolation(
  options: Pick<RequiredCommandsOptions, "isolation" | "env">,
  config: Config,
  workTree: string,
  env: NodeJS.ProcessEnv,
  submodules: readonly string[],
): CommandsIsolation {
  if (options.isolation !== "commands-user") {
    return sharedIsolation("a local `agate run` runs the commands as the user who runs it");
  }
  const access = rootAccess();
  let reason: string;
  if (access.kind === "none") {
    reason = access.reason;
  } else {
    try {
      return isolatedUser({ access, workTree, env, agateEnv: options.env, submodules });
    } catch (error) {
      reason = `agate could not make a user of their own for the commands: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (config.evidence.isolation === "required") {
    throw new Error(
      `agate: refusing to run the commands: ${reason}. The base config requires them to run as a user of their own (evidence.isolation: required): run the job on a GitHub-hosted runner, or give the runner's user passwordless sudo, or run the job as root in a container with useradd and setpriv installed. On a self-hosted runner where none of that is possible, set evidence.isolation: shared-allowed in the base config to accept records the code under test could change.`,
    );
  }
  return sharedIsolation(reason);
}
