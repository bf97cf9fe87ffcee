import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as actionsCore from "@actions/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as core from "./workflow-commands.js";

/** What a call writes to stdout. */
function stdoutOf(run: () => void): string {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return written.join("");
}

let dir: string | undefined;
afterEach(() => {
  vi.unstubAllEnvs();
  process.exitCode = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("workflow commands: what @actions/core writes, without loading it", () => {
  const awkward = "50% done: a, b\r\nnext line ::stop-commands::x";
  const properties = {
    title: "agate config",
    file: ".github/agate.yml",
    startLine: 3,
    startColumn: 7,
  };

  it.each([
    ["warning", () => core.warning(awkward), () => actionsCore.warning(awkward)],
    [
      "error with a file, line and column",
      () => core.error(awkward, properties),
      () => actionsCore.error(awkward, properties),
    ],
    ["info", () => core.info(awkward), () => actionsCore.info(awkward)],
    ["a group", () => core.startGroup("agate: a, b"), () => actionsCore.startGroup("agate: a, b")],
    ["the group's end", () => core.endGroup(), () => actionsCore.endGroup()],
  ])("%s", (_name, ours, theirs) => {
    expect(stdoutOf(ours)).toBe(stdoutOf(theirs));
  });

  it("setFailed: exit code 1 and an error annotation", () => {
    expect(stdoutOf(() => core.setFailed("agate: boom"))).toBe("::error::agate: boom\n");
    expect(process.exitCode).toBe(1);
  });

  it("inputs: INPUT_ and the upper-cased name, trimmed", () => {
    expect(core.getInput("working-directory", { "INPUT_WORKING-DIRECTORY": "  sub \n" })).toBe(
      "sub",
    );
    expect(core.getInput("record path", { INPUT_RECORD_PATH: "x" })).toBe("x");
    expect(core.getInput("missing", {})).toBe("");
  });

  it("outputs: the heredoc @actions/core writes, with a fresh delimiter a value cannot close", () => {
    dir = mkdtempSync(join(tmpdir(), "agate-commands-"));
    const file = join(dir, "output");
    writeFileSync(file, "");
    core.setOutput("passed", false, { GITHUB_OUTPUT: file });
    core.setOutput("failed-commands", '["a"]\nforged=true', { GITHUB_OUTPUT: file });
    expect(readFileSync(file, "utf8")).toMatch(
      /^passed<<(ghadelimiter_[0-9a-f-]{36})\nfalse\n\1\nfailed-commands<<(ghadelimiter_[0-9a-f-]{36})\n\["a"\]\nforged=true\n\2\n$/,
    );
    expect(() => core.setOutput("x", "y", { GITHUB_OUTPUT: join(dir as string, "gone") })).toThrow(
      /Missing file at path/,
    );
  });

  it("the job summary replaces the file's content; no file named: nothing written", () => {
    dir = mkdtempSync(join(tmpdir(), "agate-commands-"));
    const file = join(dir, "summary");
    writeFileSync(file, "left by a command");
    core.writeSummary("### agate\n", { GITHUB_STEP_SUMMARY: file });
    expect(readFileSync(file, "utf8")).toBe("### agate\n");
    expect(() => core.writeSummary("x", {})).not.toThrow();
  });
});
