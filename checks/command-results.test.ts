import { describe, expect, it } from "vitest";
import { commandRecord } from "../test/support/gate-facts.js";
import { commandPassed, failedCommands, recordPassed } from "./command-results.js";

describe("command results: one rule for passed, used by the Action, the CLI and the gate", () => {
  it("passes only on exit 0 with no timeout and no signal", () => {
    const [c] = commandRecord([0]).commands;
    if (!c) throw new Error("fixture has a command");
    expect(commandPassed(c)).toBe(true);
    expect(commandPassed({ ...c, exit_code: 1 })).toBe(false);
    expect(commandPassed({ ...c, timed_out: true })).toBe(false);
    expect(commandPassed({ ...c, exit_code: null, signal: "SIGKILL" })).toBe(false);
  });

  it("names the failed commands in order", () => {
    expect(failedCommands(commandRecord([1, 0, 2]))).toEqual(["unit", "extra"]);
    expect(recordPassed(commandRecord([0, 0]))).toBe(true);
    expect(recordPassed(commandRecord([0, 3]))).toBe(false);
  });
});
