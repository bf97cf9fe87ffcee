import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { commandPassed, failedCommands } from "../checks/command-results.js";
import { ConfigurationError } from "../checks/errors.js";
import { CONFIG_PATH } from "../schemas/config.js";
import { AGATE_VERSION } from "../schemas/version.js";
import { localBase } from "./base-config.js";
import { git } from "./git.js";
import { runRequiredCommands } from "./required-commands.js";
import { durationText, headline, resultText } from "./summary.js";

const USAGE = `agate ${AGATE_VERSION}: the acceptance gate for agent pull requests

Usage:
  agate run [--base REF] [--config PATH] [--record PATH]
      Runs the required commands from the config at the base commit (default: where HEAD
      forked from the default branch) on the checked-out commit, prints a table and writes the
      command record (default: .git/agate/command-record.json). No credentials needed.
  agate --version

Exit status: 0 every command passed (or no config at the base), 1 a command failed,
2 a usage or config error.`;

/** `agate run` on a laptop or in an agent's sandbox: the Action's core with a terminal for a log. */
export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
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
    const outcome = await runRequiredCommands({
      cwd: root,
      configPath,
      baseSha,
      env: process.env,
      repository: null,
      log: {
        info: (line) => console.log(line),
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
      : join(
          resolve(root, git(root, ["rev-parse", "--git-dir"]).trim()),
          "agate",
          "command-record.json",
        );
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
