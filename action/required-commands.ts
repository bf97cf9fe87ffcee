import { parseConfig } from "../checks/config/parse-config.js";
import { ConfigurationError } from "../checks/errors.js";
import type { MergeGroupEvent, PullRequestEvent } from "../schemas/action.js";
import type { CommandRecord, CommandResult } from "../schemas/command-record.js";
import { commandRecordSchema } from "../schemas/command-record.js";
import { AGATE_VERSION } from "../schemas/version.js";
import { type ReadFileAtCommit, readConfigAtBase } from "./base-config.js";
import { commandEnvironment, runnerInfo, workflowRun } from "./environment.js";
import { runCommand } from "./run-command.js";
import { testedCommit, testedSnapshot } from "./snapshot.js";

/** Where the commands' output and progress go: the Actions log, or a terminal. */
export interface RunLog {
  info(line: string): void;
  /** Wraps one command's live output (a collapsible group in the Actions log). */
  command<T>(name: string, run: () => Promise<T>): Promise<T>;
  output(chunk: Buffer): void;
}

export interface RequiredCommandsOptions {
  cwd: string;
  configPath: string;
  baseSha: string;
  env: NodeJS.ProcessEnv;
  log: RunLog;
  readViaApi?: ReadFileAtCommit;
  repository: string | null;
  pullRequest?: PullRequestEvent["pull_request"];
  mergeGroup?: MergeGroupEvent["merge_group"];
  now?: () => Date;
}

export type RequiredCommandsOutcome =
  | { kind: "not-adopted"; baseSha: string }
  | { kind: "ran"; record: CommandRecord };

function parseBaseConfig(text: string, path: string, sha: string) {
  try {
    return parseConfig(text, path);
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
  const base = await readConfigAtBase({
    cwd,
    sha: options.baseSha,
    path: options.configPath,
    api: options.readViaApi,
  });
  if (base.text === null) return { kind: "not-adopted", baseSha: options.baseSha };

  const { config, digest } = parseBaseConfig(base.text, options.configPath, options.baseSha);
  log.info(
    `agate ${AGATE_VERSION}: ${config.commands.length} required command(s) from ${options.configPath} at base ${options.baseSha} (read with ${base.via}), config digest ${digest}`,
  );

  const commit = testedCommit(cwd);
  const env = commandEnvironment(options.env);
  const commands: CommandResult[] = [];
  for (const command of config.commands) {
    const result = await log.command(command.name, () =>
      runCommand({
        name: command.name,
        run: command.run,
        timeoutMs: command.timeout,
        cwd,
        env,
        onOutput: (chunk) => log.output(chunk),
        now,
      }),
    );
    commands.push(result);
  }

  const record = commandRecordSchema.parse({
    kind: "agate.command-record",
    version: 1,
    repository: options.repository,
    tested: testedSnapshot(cwd, commit),
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
    commands,
    runner: runnerInfo(options.env),
    grader: { agate_version: AGATE_VERSION, config_digest: digest },
    workflow: workflowRun(options.env),
    cut: [],
    created_at: now().toISOString(),
  } satisfies CommandRecord);
  return { kind: "ran", record };
}
