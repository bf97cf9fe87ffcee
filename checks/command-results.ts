import type { CommandRecord, CommandResult } from "../schemas/command-record.js";

/** A required command passed only when it exited 0 on its own: no timeout, no signal. */
export const outcomePassed = (outcome: Pick<CommandResult, "exit_code" | "timed_out" | "signal">) =>
  outcome.exit_code === 0 && !outcome.timed_out && outcome.signal === null;

export const commandPassed = (command: CommandResult) => outcomePassed(command);

/** The names of the commands of a record that did not pass, in order. */
export const failedCommands = (record: CommandRecord): string[] =>
  record.commands.filter((command) => !commandPassed(command)).map((command) => command.name);

export const recordPassed = (record: CommandRecord) => record.commands.every(commandPassed);
