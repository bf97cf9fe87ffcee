import { describe, expect, it } from "vitest";
import { normaliseResult, resultHash, stripVolatile } from "./volatile.js";

describe("volatile fields are stripped before hashing", () => {
  it("removes durations, counters, timestamps and pids at any depth of a JSON result", () => {
    expect(
      stripVolatile({
        output: "ok",
        duration_seconds: 1.5,
        kernel: { execution_count: 12, name: "python3" },
        runs: [{ timestamp: "2025", pid: 7, exit: 0 }],
      }),
    ).toEqual({ output: "ok", kernel: { name: "python3" }, runs: [{ exit: 0 }] });
  });

  it("the same JSON result with other bookkeeping and key order hashes the same", () => {
    expect(resultHash(0, '{"a":1,"duration_seconds":0.1,"kernel":{"execution_count":3}}')).toBe(
      resultHash(0, '{"kernel":{"execution_count":4},"duration_seconds":9,"a":1}'),
    );
    expect(resultHash(0, '{"a":1}')).not.toBe(resultHash(0, '{"a":2}'));
    expect(resultHash(0, "same")).not.toBe(resultHash(1, "same"));
  });

  it("text forms: Jupyter prompts, counters, Codex's wall time, plus the output normaliser's rules", () => {
    expect(normaliseResult("Out[17]: 4\nexecution_count=17\nWall time: 0.0123 seconds")).toBe(
      "Out[<n>]: 4\nexecution_count=<n>\nWall time: <duration>",
    );
    expect(normaliseResult("done in 12ms at 2025-01-02T03:04:05Z in /tmp/abc/x")).toBe(
      "done in <duration> at <timestamp> in <tmp>",
    );
  });

  it("keeps plain numbers and messages, so two different failures stay different", () => {
    expect(normaliseResult("AssertionError: 3 != 4")).toBe("AssertionError: 3 != 4");
  });
});
