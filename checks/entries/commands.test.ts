import { describe, expect, it } from "vitest";
import { parseEntryCommand } from "./commands.js";

describe("parseEntryCommand", () => {
  it("reads each command at the start of a comment, with its text", () => {
    expect(parseEntryCommand("/claim")).toEqual({ kind: "claim" });
    expect(parseEntryCommand("  \n/release please")).toEqual({ kind: "release" });
    expect(parseEntryCommand("/answer 5433\n\nIt is in the ops runbook.")).toEqual({
      kind: "answer",
      text: "5433\n\nIt is in the ops runbook.",
    });
    expect(parseEntryCommand("/ask Which environment?")).toEqual({
      kind: "ask",
      text: "Which environment?",
    });
    expect(parseEntryCommand("/block nobody here has access")).toEqual({
      kind: "block",
      why: "nobody here has access",
    });
    expect(parseEntryCommand("/escalate Credentials the deploy key expired")).toEqual({
      kind: "escalate",
      reason: "credentials",
      why: "the deploy key expired",
    });
  });

  it("a comment that does not start with a command is conversation", () => {
    expect(parseEntryCommand("I think /claim is right")).toBeNull();
    expect(parseEntryCommand("/claims")).toBeNull();
    expect(parseEntryCommand("/agate accept abc")).toBeNull();
    expect(parseEntryCommand("")).toBeNull();
    expect(parseEntryCommand(null)).toBeNull();
  });

  it("a command without the text it needs is invalid, saying what to write", () => {
    expect(parseEntryCommand("/answer")).toEqual({
      kind: "invalid",
      command: "answer",
      problem: expect.stringContaining("needs the answer after it"),
    });
    expect(parseEntryCommand("/ask   ")).toMatchObject({ kind: "invalid", command: "ask" });
    expect(parseEntryCommand("/block")).toMatchObject({ kind: "invalid", command: "block" });
    expect(parseEntryCommand("/escalate money")).toMatchObject({
      kind: "invalid",
      problem: expect.stringContaining("needs a reason after the category"),
    });
  });

  it("an escalation for any other reason is refused with the list of the five", () => {
    const parsed = parseEntryCommand("/escalate urgent please look");
    expect(parsed).toMatchObject({ kind: "invalid", command: "escalate" });
    const problem = parsed?.kind === "invalid" ? parsed.problem : "";
    for (const reason of ["money", "external", "irreversible", "credentials", "scope"]) {
      expect(problem).toContain(`\`${reason}\``);
    }
    expect(problem).toContain('"urgent" is not a reason');
    expect(parseEntryCommand("/escalate")).toMatchObject({
      problem: expect.stringContaining("no reason given"),
    });
  });
});
