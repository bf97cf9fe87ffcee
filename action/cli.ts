import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { commandPassed, failedCommands } from "../checks/command-results.js";
import { ConfigurationError } from "../checks/errors.js";
import { RECORD_FILE_NAME } from "../schemas/command-record.js";
import { CONFIG_PATH } from "../schemas/config.js";
import { AGATE_VERSION } from "../schemas/version.js";
import { localBase } from "./base-config.js";
import { systemExecutable } from "./executables.js";
import { git, localStateDir, useUserExcludesFile } from "./git.js";
import { writeHandoff } from "./handoff.js";
import { runRequiredCommands } from "./required-commands.js";
import { durationText, headline, resultText } from "./summary.js";

const USAGE = `agate ${AGATE_VERSION}: the acceptance gate for agent pull requests

Usage:
  agate run [--base REF] [--config PATH] [--record PATH]
      Runs the required commands from the config at the base commit (default: where HEAD
      forked from the default branch) on the checked-out commit, prints a table and writes the
      command record (default: .git/agate/command-record.json). No credentials needed.
  agate handoff [--base REF] [--path P] [--task T] [--status S] [--next-step T]
                [--open-item T ...] [--record PATH]
      Writes or updates the handoff file (default: handoff.path of the base config, else
      .agate/handoff.md) from the live git state: the current branch, every file changed
      against the base (committed or not), and last_command from the record of \`agate run\`.
      Task, status, next step, open items and the notes below the front matter are kept from
      the existing file unless a flag sets them; a new file needs --task and starts
      in-progress. --status is in-progress, ready or blocked; --open-item replaces the open
      items (repeat it; --open-item "" clears them); --next-step "" clears the next step.
      End a session with: agate run, agate handoff, then commit the handoff file.
  agate --version

Exit status of run: 0 every command passed (or no config at the base), 1 a command failed,
2 a usage or config error. Of handoff: 0 the file is written (or was up to date), 2 a usage or
config error (the message says what to fix).`;

/** `agate run` on a laptop or in an agent's sandbox: the Action's core with a terminal for a log. */
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
  if (argv[0] === "handoff") return handoff(argv.slice(1), cwd);
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    console.error(`agate: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.version) {
    console.log(AGATE_VERSION);
    return 0;
  }
  if (args.values.help || args.positionals[0] !== "run") {
    console.log(USAGE);
    return args.values.help ? 0 : 2;
  }

  try {
    const root = git(cwd, ["rev-parse", "--show-toplevel"]).trim();
    const configPath = args.values.config ?? CONFIG_PATH;
    const baseSha = localBase(root, args.values.base);
    const stateDir = localStateDir(root);
    const outcome = await runRequiredCommands({
      cwd: root,
      configPath,
      baseSha,
      env: process.env,
      stateDir,
      repository: null,
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
      console.log(`agate: the base commit ${baseSha} has no ${configPath}; nothing to run.`);
      return 0;
    }
    const record = outcome.record;
    const recordPath = args.values.record
      ? resolve(cwd, args.values.record)
      : join(stateDir, RECORD_FILE_NAME);
    mkdirSync(dirname(recordPath), { recursive: true });
    writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);

    console.log(`\n${table(record.commands)}\n`);
    console.log(
      `agate: ${headline(record)}${record.tested.clean ? "" : " (the work tree was not clean afterwards)"}.`,
    );
    console.log(`record: ${recordPath}`);
    return failedCommands(record).length === 0 ? 0 : 1;
  } catch (error) {
    console.error(
      error instanceof ConfigurationError ? error.message : `agate: ${(error as Error).message}`,
    );
    return 2;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      base: { type: "string" },
      config: { type: "string" },
      record: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}

/** `agate handoff`: the true handoff file in one command at the end of an agent's session. */
function handoff(argv: string[], cwd: string): number {
  let values: ReturnType<typeof parseHandoffArgs>["values"];
  try {
    const parsed = parseHandoffArgs(argv);
    if (parsed.positionals.length > 0) {
      throw new Error(`agate handoff takes no arguments, got ${parsed.positionals.join(" ")}`);
    }
    values = parsed.values;
  } catch (error) {
    console.error(`agate: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    const written = writeHandoff({
      cwd,
      base: values.base,
      path: values.path,
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

function parseHandoffArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      base: { type: "string" },
      path: { type: "string" },
      task: { type: "string" },
      status: { type: "string" },
      "next-step": { type: "string" },
      "open-item": { type: "string", multiple: true },
      record: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
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
