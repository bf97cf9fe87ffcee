import { describe, expect, it } from "vitest";
import { type CommandRecord, commandRecordSchema } from "../schemas/command-record.js";
import { fitRecord } from "./fit-record.js";

const SHA = "a".repeat(40);
const DIGEST = "b".repeat(64);

function record(tails: string[]): CommandRecord {
  return commandRecordSchema.parse({
    kind: "agate.command-record",
    version: 1,
    repository: "octo/repo",
    tested: { sha: SHA, tree_sha: SHA, parents: [], clean: true, dirty_digest: null },
    pull_request: null,
    merge_group: null,
    commands: tails.map((tail, i) => ({
      name: `c${i}`,
      run: "true",
      exit_code: 0,
      signal: null,
      timed_out: false,
      started_at: "2026-12-02T10:00:00.000Z",
      duration_ms: 1,
      output: {
        bytes: tail.length,
        sha256: DIGEST,
        normalized_sha256: DIGEST,
        tail,
        truncated: false,
      },
    })),
    runner: { os: "Linux", arch: "X64", image_version: null, node_version: "v24.0.0" },
    grader: { agate_version: "0.1.0", config_digest: DIGEST },
    workflow: null,
    created_at: "2026-12-02T10:00:00.000Z",
  });
}

describe("fitRecord", () => {
  it("leaves a record that fits untouched", () => {
    const small = record(["ok\n"]);
    expect(fitRecord(small, 65_535)).toEqual(small);
  });

  it("shortens the longest tails, keeps their ends, names what it cut, and stays valid", () => {
    const big = record([
      `${"x".repeat(60_000)}FAILED HERE`,
      "short",
      `${'"\\\n'.repeat(20_000)}END`,
    ]);
    const fitted = fitRecord(big, 65_535);
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(65_535);
    expect(commandRecordSchema.parse(fitted)).toEqual(fitted);
    expect(fitted.commands[0]?.output.tail.endsWith("FAILED HERE")).toBe(true);
    expect(fitted.commands[2]?.output.tail.endsWith("END")).toBe(true);
    expect(fitted.commands[1]?.output.tail).toBe("short");
    expect(fitted.cut.sort()).toEqual(["commands[0].output.tail", "commands[2].output.tail"]);
    expect(fitted.commands[0]?.output.sha256).toBe(DIGEST);
    expect(big.commands[0]?.output.tail.length).toBe(60_011);
  });

  it("refuses when even empty tails do not fit", () => {
    expect(() => fitRecord(record(["x"]), 100)).toThrow(/even with empty tails/);
  });
});
