import { readFileSync } from "node:fs";
import { ConfigurationError } from "../../checks/errors.js";
import { TraceParseError } from "../../checks/progress/events.js";
import { renderProgressText } from "../../checks/progress/render.js";
import { TRACE_FORMATS, type TraceFormat } from "../../schemas/trace.js";
import { cliDefaultsReader, loadConfig } from "../config-defaults.js";
import { analyseTraceFile, TraceFileError } from "../trace.js";

export interface TraceCommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const TRACE_USAGE = `usage: agate-gate trace FILE [--json] [--format ${TRACE_FORMATS.join("|")}] [--config PATH]

Reads an agent's trace (Claude Code session JSONL, main or subagent; Codex rollout JSONL;
OpenHands events or history; SWE-agent .traj; mini-swe-agent .traj.json) and reports whether it
made progress: calls that brought no new information, stretches without a milestone (a command
newly passing, a new failure, an edit that survived), identical or reworded call streaks, short
cycles, edit-run-restore cycles, and budgets; each finding with its steps and what repeated. --json prints the progress report as JSON.
--config PATH takes the thresholds from that agate config's progress section (as the Action
does from the base branch's); without it, agate's defaults apply.
Exit 0: the trace was read (whatever it shows); 1: malformed trace; 2: usage error.
`;

/**
 * `agate-gate trace FILE`: exit 0 when the trace was read (a stall is a finding, not an error),
 * 1 when it is malformed (the message names the line), 2 on a usage error.
 */
export async function runTraceCommand(args: string[], io: TraceCommandIo): Promise<number> {
  let json = false;
  let format: TraceFormat | undefined;
  let configPath: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--json") json = true;
    else if (arg === "--help" || arg === "-h") {
      io.stdout(TRACE_USAGE);
      return 0;
    } else if (arg === "--format" || arg.startsWith("--format=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      if (!value || !(TRACE_FORMATS as readonly string[]).includes(value)) {
        io.stderr(
          `agate: --format needs one of ${TRACE_FORMATS.join(", ")}${value ? `, not ${JSON.stringify(value)}` : ""}\n\n${TRACE_USAGE}`,
        );
        return 2;
      }
      format = value as TraceFormat;
    } else if (arg === "--config" || arg.startsWith("--config=")) {
      configPath = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      if (!configPath) {
        io.stderr(`agate: --config needs the path of an agate config\n\n${TRACE_USAGE}`);
        return 2;
      }
    } else if (arg.startsWith("-") && arg !== "-") {
      io.stderr(`agate: unknown option ${arg} for trace\n\n${TRACE_USAGE}`);
      return 2;
    } else files.push(arg);
  }
  if (files.length !== 1) {
    io.stderr(
      `agate: trace takes exactly one FILE${files.length > 1 ? `, got ${files.length}` : ""}\n\n${TRACE_USAGE}`,
    );
    return 2;
  }
  const file = files[0] as string;
  let thresholds = {};
  if (configPath !== undefined) {
    try {
      thresholds = (
        await loadConfig(readFileSync(configPath, "utf8"), configPath, {
          owner: process.env.GITHUB_REPOSITORY?.split("/")[0] ?? null,
          readDefaults: cliDefaultsReader(process.env),
        })
      ).config.progress;
    } catch (error) {
      const why =
        error instanceof ConfigurationError
          ? error.message
          : `agate: cannot read the config ${configPath}: ${(error as Error).message}`;
      io.stderr(`${why}\n`);
      return 2;
    }
  }
  try {
    const report = await analyseTraceFile(file, { format, thresholds });
    io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : renderProgressText(report, file));
    return 0;
  } catch (error) {
    if (error instanceof TraceFileError) {
      io.stderr(`agate: ${error.message}\n`);
      return 2;
    }
    if (error instanceof TraceParseError) {
      io.stderr(
        `agate: ${file}: ${error.message}\nThe trace is malformed or in a format agate does not read; fix that line, or pass --format if the format was guessed wrong.\n`,
      );
      return 1;
    }
    throw error;
  }
}
