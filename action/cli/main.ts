import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { commandPassed, failedCommands } from "../../checks/command-results.js";
import { closeEnough, configExtends, parseConfig } from "../../checks/config/parse-config.js";
import { ConfigurationError } from "../../checks/errors.js";
import { writesProblem } from "../../checks/gate/provenance.js";
import { parseHandoffFile } from "../../checks/handoff/parse-handoff.js";
import { AGATE_CLI, CLI_PACKAGE, fileFindings } from "../../checks/handoff/verify.js";
import { shortSha } from "../../checks/markdown.js";
import { type CommandRecord, RECORD_FILE_NAME } from "../../schemas/command-record.js";
import { CONFIG_PATH, handoffSchema } from "../../schemas/config.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import { localBase } from "../base-config.js";
import { checkoutOwner, cliDefaultsReader } from "../config-defaults.js";
import { systemExecutable } from "../git/executables.js";
import { git, gitMaybe, localStateDir, useUserExcludesFile } from "../git/git.js";
import { runRequiredCommands } from "../required-commands.js";
import { durationText, headline, resultText } from "../summary.js";
import { doctor } from "./doctor.js";
import { entryMain } from "./entry.js";
import { extendedHandoffPath, writeHandoff } from "./handoff.js";
import { HOOK_USAGE, hookMain, readStdin } from "./hooks.js";
import { LOOP_USAGE, loopMain } from "./loop.js";
import { STATUS_USAGE, statusMain } from "./status.js";
import { runTraceCommand } from "./trace.js";

const USAGE = `agate ${AGATE_VERSION}: the acceptance gate for agent pull requests

Usage:
  ${CLI_PACKAGE} run [--base REF] [--config PATH] [--record PATH]
      Runs the required commands from the config at the base commit (default: where HEAD
      forked from the default branch) on the checked-out commit, prints a table and writes the
      command record (default: .git/agate/command-record.json). No credentials needed.
  ${CLI_PACKAGE} handoff [--base REF] [--path P] [--task T] [--status S] [--next-step T]
                [--open-item T ...] [--record PATH]
      Writes or updates the handoff file (default: handoff.path of the base config, else
      .agate/handoff.md) from the live git state: the current branch, every file changed
      against the base (committed or not), and last_command from the record of \`run\`.
      Task, status, next step, open items and the notes below the front matter are kept from
      the existing file unless a flag sets them; a new file needs --task and starts
      in-progress. --status is in-progress, ready or blocked; --open-item replaces the open
      items (repeat it; --open-item "" clears them); --next-step "" clears the next step.
      End a session with: run, handoff, then commit the handoff file.
  ${CLI_PACKAGE} validate [FILE]
      Checks a config in the work tree (default: ${CONFIG_PATH}) before it is committed, and
      the handoff file at its handoff.path when there is one. The gate reads the config at the
      base commit: a change takes effect once it is merged. Organisation defaults it extends
      are read with GITHUB_TOKEN or GH_TOKEN; when they cannot be read, it says they were not
      checked and does not count that as a problem.
  ${CLI_PACKAGE} doctor --repo OWNER/NAME [--app SLUG] [--api-url URL] [--json]
      Checks a repository's set-up through the GitHub API, with the token in GITHUB_TOKEN or
      GH_TOKEN: the config on the default branch, the evidence workflow and its permissions, a
      ruleset or branch protection requiring agate from the App named by --app, and that App's
      permissions, events and installation. Each finding is ok, a problem (with what to fix) or
      could not be checked (with why). --api-url (or GITHUB_API_URL) for GitHub Enterprise.
  ${CLI_PACKAGE} trace FILE [--json] [--format F] [--config PATH]
      Reads an agent's trace (Claude Code, Codex, OpenHands, SWE-agent, mini-swe-agent) and
      reports, with no model call, whether it made progress: steps that brought nothing new,
      identical call streaks, cycles, edit → run → revert loops, budgets (docs/progress.md);
      --config applies that config's progress thresholds.
  ${CLI_PACKAGE} entry <open|poll|claim|answer|ask|reply|status> ...
      Handoff entries on issues, through the GitHub API (${CLI_PACKAGE} entry help).
  ${STATUS_USAGE.replace(/\n/g, "\n  ")}
  ${HOOK_USAGE.replace(/\n/g, "\n  ")}
  ${LOOP_USAGE.replace(/\n/g, "\n  ")}
  ${CLI_PACKAGE} --version

The npm package is ${CLI_PACKAGE}; where it is not installed: ${AGATE_CLI} <command>.
Exit status of run: 0 every command passed (or no config at the base), 1 a command failed or
changed files outside its commands[].writes (the gate refuses that record too), 2 a usage or
config error. Of handoff: 0 the file is written (or was up to date), 2 a usage or
config error (the message says what to fix). Of validate: 0 valid, 1 a file is invalid, 2 a
usage error or no file to check. Of doctor: 0 no problem, 1 a problem, 2 a usage error or the
repository cannot be read. Of trace: 0 read (a stall is a finding, not an error), 1 the
trace is malformed (the message names the line), 2 a usage error.`;

/**
 * A mistake on the command line: the message, a pointer to --help, and exit status 2. Not the
 * whole usage: forty lines of it would scroll the one line that says what is wrong away.
 */
class UsageError extends Error {
  override readonly name = "UsageError";
}

const USAGE_HINT = `run ${CLI_PACKAGE} --help for usage`;

type Options = NonNullable<ParseArgsConfig["options"]>;

const RUN_OPTIONS = {
  base: { type: "string" },
  config: { type: "string" },
  record: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies Options;

const HANDOFF_OPTIONS = {
  base: { type: "string" },
  path: { type: "string" },
  task: { type: "string" },
  status: { type: "string" },
  "next-step": { type: "string" },
  "open-item": { type: "string", multiple: true },
  record: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies Options;

const VALIDATE_OPTIONS = {
  help: { type: "boolean", short: "h" },
} satisfies Options;

const DOCTOR_OPTIONS = {
  repo: { type: "string" },
  app: { type: "string" },
  "api-url": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} satisfies Options;

const TOP_OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} satisfies Options;

const COMMANDS = [
  "run",
  "handoff",
  "validate",
  "doctor",
  "trace",
  "entry",
  "status",
  "hook",
  "loop",
  "help",
] as const;

/**
 * The arguments of one command, or a UsageError in agate's words: Node's parser names an unknown
 * option in a sentence about positionals, which is no help to someone who mistyped a flag.
 */
function parseCommand<T extends Options>(
  command: string,
  argv: string[],
  options: T,
  /** The one argument the command takes besides options (`FILE`), if any. */
  positional?: string,
) {
  const loose = parseArgs({
    args: argv,
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const names = Object.keys(options).map((name) => `--${name}`);
  for (const token of loose.tokens) {
    if (token.kind !== "option") continue;
    const option = options[token.name];
    if (!option) {
      const near = names.find((name) =>
        closeEnough(token.rawName.replace(/^-+/, ""), name.slice(2)),
      );
      throw new UsageError(
        `unknown option '${token.rawName}' for '${command}'${near ? ` (did you mean ${near}?)` : ""}; its options are ${names.join(", ")}`,
      );
    }
    if (option.type === "string" && token.value === undefined) {
      throw new UsageError(`option '${token.rawName}' of '${command}' needs a value`);
    }
    if (option.type === "boolean" && token.value !== undefined) {
      throw new UsageError(`option '${token.rawName}' of '${command}' takes no value`);
    }
  }
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true });
  } catch (error) {
    // What is left is a value that looks like an option (--task --status): Node's words say it.
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
  const allowed = positional ? 1 : 0;
  const extra = parsed.positionals.slice(allowed).map((a) => `'${a}'`);
  if (extra.length > 0) {
    const got =
      extra.length === 1
        ? `${positional ? "a second argument" : "the argument"} ${extra[0]}`
        : `${positional ? "more arguments" : "the arguments"} ${extra.join(" ")}`;
    throw new UsageError(
      `${command} takes ${positional ? `at most one ${positional}` : "no arguments, only options"}; got ${got}`,
    );
  }
  return parsed;
}

/** The CLI on a laptop or in an agent's sandbox: the Action's core with a terminal for a log. */
export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  try {
    // The system's git and bash first; on a machine that has them elsewhere, the person's PATH
    // (they own it; the Action never looks at PATH). What they ignore everywhere is ignored here.
    systemExecutable("git", { searchPath: process.env.PATH });
    systemExecutable("bash", { searchPath: process.env.PATH });
    useUserExcludesFile(process.env);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  try {
    return await dispatch(argv, cwd);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`agate: ${error.message}\n${USAGE_HINT}`);
    return 2;
  }
}

async function dispatch(argv: string[], cwd: string): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    throw new UsageError(`no command given; the commands are ${COMMANDS.join(", ")}`);
  }
  if (command.startsWith("-")) {
    const { values } = parseCommand(CLI_PACKAGE, argv, TOP_OPTIONS);
    if (values.version) {
      console.log(AGATE_VERSION);
      return 0;
    }
    console.log(USAGE);
    return 0;
  }
  switch (command as (typeof COMMANDS)[number]) {
    case "run":
      return run(parseCommand("run", rest, RUN_OPTIONS).values, cwd);
    case "handoff":
      return await handoff(parseCommand("handoff", rest, HANDOFF_OPTIONS).values, cwd);
    case "validate": {
      const { values, positionals } = parseCommand("validate", rest, VALIDATE_OPTIONS, "FILE");
      if (values.help) return help();
      return await validate(positionals[0], cwd);
    }
    case "doctor": {
      const { values } = parseCommand("doctor", rest, DOCTOR_OPTIONS);
      if (values.help) return help();
      return doctor(
        { repo: values.repo, app: values.app, apiUrl: values["api-url"], json: values.json },
        process.env,
        {
          stdout: (text) => process.stdout.write(text),
          stderr: (text) => process.stderr.write(text),
        },
      );
    }
    case "trace":
      return runTraceCommand(rest, {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    case "entry":
      return entryMain(rest);
    case "status":
      return statusMain(rest, { env: process.env, cwd }, STDIO);
    case "hook":
      return hookMain(rest, { env: process.env }, { ...STDIO, stdin: readStdin });
    case "loop":
      return loopMain(rest, { env: process.env, cwd }, STDIO);
    case "help":
      return help();
    default:
      throw new UsageError(`unknown command '${command}'; the commands are ${COMMANDS.join(", ")}`);
  }
}

const STDIO = {
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
};

function help(): number {
  console.log(USAGE);
  return 0;
}

type RunValues = ReturnType<typeof parseCommand<typeof RUN_OPTIONS>>["values"];

async function run(values: RunValues, cwd: string): Promise<number> {
  if (values.help) return help();
  try {
    const root = git(cwd, ["rev-parse", "--show-toplevel"]).trim();
    const configPath = values.config ?? CONFIG_PATH;
    const baseSha = localBase(root, values.base);
    const stateDir = localStateDir(root);
    const edited = configEditNotice(root, configPath, baseSha);
    if (edited) console.error(`agate: note: ${edited}`);
    const outcome = await runRequiredCommands({
      local: true,
      cwd: root,
      configPath,
      baseSha,
      env: process.env,
      stateDir,
      repository: null,
      owner: checkoutOwner(root, process.env),
      readDefaults: cliDefaultsReader(process.env),
      log: {
        info: (line) => console.log(line),
        warning: (line) => console.error(`warning: ${line}`),
        async command(name, run) {
          console.log(`\n── ${name} ${"─".repeat(Math.max(0, 60 - name.length))}`);
          return run();
        },
        output: (chunk) => process.stdout.write(chunk),
      },
    });
    if (outcome.kind === "not-adopted") {
      return notAtBase(root, configPath, baseSha, values.config !== undefined);
    }
    const record = outcome.record;
    const recordPath = values.record
      ? resolve(cwd, values.record)
      : join(stateDir, RECORD_FILE_NAME);
    mkdirSync(dirname(recordPath), { recursive: true });
    writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);

    console.log(`\n${table(record.commands)}\n`);
    for (const hint of pipeHints(record.commands)) console.log(hint);
    // The gate's own rule: a command that changed what it may not write did not test the commit
    // as it is, and CI's record of it would be refused; here the run fails the same way.
    const refused = writesProblem(record, outcome.config);
    const dirtyBefore = record.tested.clean_before
      ? ""
      : " on uncommitted changes (see the warning above)";
    console.log(`agate: ${headline(record)}${dirtyBefore}.`);
    if (refused) {
      console.log(
        `agate: the App would refuse this record: ${refused}. List what it writes in that command's writes (commands[].writes in ${configPath} at the base), or make it leave tracked files alone.`,
      );
    }
    console.log(`record: ${recordPath}`);
    return failedCommands(record).length === 0 && refused === null ? 0 : 1;
  } catch (error) {
    console.error(
      error instanceof ConfigurationError ? error.message : `agate: ${(error as Error).message}`,
    );
    return 2;
  }
}

/**
 * The base commit has no config. With no --config and no config anywhere, the repository has
 * not adopted agate and there is nothing to run (as in CI). A named config, or one that exists
 * only in the work tree, is a mistake to point out: "nothing to run" with exit 0 would read as
 * a pass.
 */
function notAtBase(root: string, path: string, baseSha: string, named: boolean): number {
  const base = shortSha(baseSha);
  const inWorkTree = existsSync(join(root, path));
  const atHead = gitMaybe(root, ["cat-file", "-e", `HEAD:${path}`]) !== undefined;
  const flag = named ? `--config ${path}: ` : "";
  if (atHead) {
    const message = `${flag}the base commit ${base} has no ${path}; this branch commits it, and agate reads the config at the base (the gate does too, so it applies once merged). To run it now: ${CLI_PACKAGE} run --base HEAD${named ? ` --config ${path}` : ""}`;
    if (named) {
      console.error(`agate: ${message}`);
      return 2;
    }
    console.log(`agate: ${message}. Nothing to run.`);
    return 0;
  }
  if (inWorkTree) {
    console.error(
      `agate: ${flag}${path} is in the work tree but not committed, and agate reads the config at the base commit ${base}: commit it (on the default branch, or on this branch and run with --base HEAD). Check it first: ${CLI_PACKAGE} validate ${path}`,
    );
    return 2;
  }
  if (named) {
    console.error(
      `agate: --config ${path}: there is no such file at the base commit ${base} nor in the work tree; check the path (relative to the repository root), or leave out --config for ${CONFIG_PATH}`,
    );
    return 2;
  }
  console.log(`agate: the base commit ${base} has no ${path}; nothing to run.`);
  return 0;
}

/**
 * The config in the work tree differs from the one at the base, which is what runs (as in the
 * gate): say so before the commands, or an edit seems to have no effect. Null when they agree or
 * the base has none (`notAtBase` says that).
 */
function configEditNotice(root: string, path: string, baseSha: string): string | null {
  const atBase = gitMaybe(root, ["cat-file", "blob", `${baseSha}:${path}`]);
  const file = join(root, path);
  if (atBase === undefined || !existsSync(file)) return null;
  if (readFileSync(file, "utf8") === atBase) return null;
  const committed = gitMaybe(root, ["cat-file", "blob", `HEAD:${path}`]);
  const state =
    committed !== undefined && committed !== atBase
      ? "this branch changes it"
      : "it has uncommitted edits";
  return `${path} differs from the one at the base commit ${shortSha(baseSha)} (${state}), and agate runs the base's, as the gate does: an edit applies once it is merged. To run yours now, commit it and run ${CLI_PACKAGE} run --base HEAD.`;
}

/**
 * 141 is 128 + SIGPIPE: under `pipefail` (how agate runs every command), a writer killed because
 * its reader stopped early (`yes | head`, `cmd | grep -q x`) fails the whole command.
 */
function pipeHints(commands: CommandRecord["commands"]): string[] {
  return commands
    .filter((c) => c.exit_code === 141 || (c.exit_code === null && c.signal === "SIGPIPE"))
    .map(
      (c) =>
        `hint: ${c.name} ${c.exit_code === 141 ? "exited 141, which is 128 + SIGPIPE" : "was killed by SIGPIPE"}: a program in a pipeline wrote after its reader had stopped (as in \`yes | head\` or \`cmd | grep -q x\`), and agate runs commands with bash -o pipefail, so that fails the command. Let the reader read everything, or don't pipe into one that stops early.\n`,
    );
}

/**
 * `validate [FILE]`: the config in the work tree, before it is committed, with the same parser
 * and messages as the gate (field, line, column, "did you mean"); and the handoff file at the
 * config's handoff.path when the repository has one. Only the files' shape: what the gate checks
 * against the live pull request (its branch, its changed files, the command record) needs one.
 * Organisation defaults (`extends`) are read with GITHUB_TOKEN or GH_TOKEN when set (else
 * anonymously); defaults that cannot be read from here are reported as not checked, and are not
 * counted as a problem of the file: the gate reads them with its own access, and fails closed.
 */
async function validate(file: string | undefined, cwd: string): Promise<number> {
  const root = gitMaybe(cwd, ["rev-parse", "--show-toplevel"])?.trim();
  const configFile = file ? resolve(cwd, file) : join(root ?? cwd, CONFIG_PATH);
  const shown = file ?? CONFIG_PATH;
  if (!existsSync(configFile)) {
    console.error(
      file
        ? `agate: there is no file ${file} (${configFile})`
        : `agate: there is no ${CONFIG_PATH} here (${configFile}): write one (the reference: https://github.com/agate-gate/agate/blob/main/docs/config.md), or name the file: ${CLI_PACKAGE} validate PATH`,
    );
    return 2;
  }
  const said: string[] = [];
  let problems = 0;
  let handoffPath: string | null = handoffSchema.parse({}).path;
  try {
    const text = readFileSync(configFile, "utf8");
    const owner = checkoutOwner(root, process.env);
    const ref = configExtends(text, shown, owner);
    const defaults = ref ? await cliDefaultsReader(process.env)(ref) : undefined;
    if (ref && defaults !== undefined && typeof defaults !== "string" && "unreadable" in defaults) {
      // Not the file's problem as far as anyone here can tell: say plainly what was not checked.
      // (Defaults that are `refused`, such as a commit off the default branch, are: parseConfig
      // below reports them at the file's `extends`.)
      console.error(
        `agate: warning: ${shown} extends ${ref.reference}, which cannot be read from here, so the merged config was NOT checked: ${defaults.unreadable}`,
      );
      said.push(
        `${shown}'s extends reference is well-formed; the merged config was not checked (see the warning)`,
      );
      handoffPath = null;
    } else {
      const { config, digest } = parseConfig(text, shown, { owner, defaults });
      handoffPath = config.handoff.path;
      const extended = ref ? ` with the defaults of ${ref.reference}` : "";
      said.push(
        `${shown} is a valid agate config${extended} (${config.commands.length} required command${config.commands.length === 1 ? "" : "s"}, digest ${digest.slice(0, 12)})`,
      );
    }
  } catch (error) {
    if (!(error instanceof ConfigurationError)) {
      console.error(`agate: cannot read ${shown}: ${(error as Error).message}`);
      return 2;
    }
    console.error(error.message);
    problems++;
  }
  // The handoff file is the repository's; a FILE outside any repository has none to check.
  const handoffFile = root && handoffPath !== null ? join(root, handoffPath) : undefined;
  if (handoffFile && handoffPath !== null && existsSync(handoffFile)) {
    const parsed = parseHandoffFile(readFileSync(handoffFile, "utf8"), handoffPath);
    const findings = parsed.ok ? fileFindings(parsed.front) : [];
    if (parsed.ok && findings.length === 0) said.push(`${handoffPath} is a valid handoff file`);
    else if (parsed.ok) {
      // The gate's own findings on the file alone; those that need the pull request (its
      // branch, changed files, the command record of the head) it checks on GitHub.
      console.error(
        `${handoffPath} is well-formed, but the gate would reject it (${findings.length} ${findings.length === 1 ? "problem" : "problems"}):\n${findings.map((f) => `  - ${f}`).join("\n")}`,
      );
      problems++;
    } else {
      console.error(
        `${handoffPath} is not a valid handoff file (${parsed.errors.length} ${parsed.errors.length === 1 ? "problem" : "problems"}):\n${parsed.errors.map((e) => `  - ${e}`).join("\n")}`,
      );
      problems++;
    }
  } else if (handoffFile) said.push(`no handoff file at ${handoffPath}`);
  else if (root && handoffPath === null)
    said.push("the handoff file was not checked (its path may come from the defaults)");
  if (problems > 0) return 1;
  console.log(`agate: OK: ${said.join("; ")}.`);
  return 0;
}

type HandoffValues = ReturnType<typeof parseCommand<typeof HANDOFF_OPTIONS>>["values"];

/** `handoff`: the true handoff file in one command at the end of an agent's session. */
async function handoff(values: HandoffValues, cwd: string): Promise<number> {
  if (values.help) return help();
  try {
    const path =
      values.path ??
      (await extendedHandoffPath({
        cwd,
        base: values.base,
        owner: checkoutOwner(gitMaybe(cwd, ["rev-parse", "--show-toplevel"])?.trim(), process.env),
        readDefaults: cliDefaultsReader(process.env),
      }));
    const written = writeHandoff({
      cwd,
      base: values.base,
      path,
      task: values.task,
      status: values.status,
      nextStep: values["next-step"],
      openItems: values["open-item"],
      recordPath: values.record,
    });
    for (const warning of written.warnings) console.error(`agate: warning: ${warning}`);
    const { front } = written;
    const last = front.last_command
      ? `last_command \`${front.last_command.run}\` (exit ${front.last_command.exit_code})`
      : "no last_command";
    const verb = written.unchanged ? "is up to date" : written.created ? "written" : "updated";
    console.log(
      `agate: ${written.path} ${verb}: status ${front.status}, ${front.changed_files.length} changed file${front.changed_files.length === 1 ? "" : "s"}, ${last}.`,
    );
    console.log(`Commit it with your changes: git add ${written.path} && git commit`);
    return 0;
  } catch (error) {
    // HandoffUsageError says what to fix; a failing git command names itself.
    console.error(`agate: ${(error as Error).message}`);
    return 2;
  }
}

function table(commands: Parameters<typeof commandPassed>[0][]): string {
  const rows = [
    ["command", "result", "duration"],
    ...commands.map((c) => [
      c.name,
      `${commandPassed(c) ? "✓" : "✗"} ${resultText(c)}`,
      durationText(c.duration_ms),
    ]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
