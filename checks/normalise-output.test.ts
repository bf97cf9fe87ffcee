import { describe, expect, it } from "vitest";
import { NORMALISATION_RULES, normaliseLine, normaliseOutput } from "./normalise-output.js";

describe("normaliseLine: each rule removes only volatile text", () => {
  it.each([
    ["ansi", "\u001b[31mFAIL\u001b[39m src/a.test.ts", "FAIL src/a.test.ts"],
    ["ansi", "\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 ok", "link ok"],
    ["iso-timestamp", "2026-12-02T17:30:20.123Z error: boom", "<timestamp> error: boom"],
    ["iso-timestamp", "at 2026-12-02 17:30:20+01:00 done", "at <timestamp> done"],
    ["time-of-day", "Start at 17:30:20", "Start at <time>"],
    ["uuid", "request 3f2b8c1e-9d4a-4e8b-a1f2-0c9d8e7f6a5b failed", "request <uuid> failed"],
    ["temp-path", "wrote /tmp/agate-x1Yz/out.txt: no space", "wrote <tmp>: no space"],
    ["temp-path", "cd /var/folders/ab/cd/T/tmp.123 && ls", "cd <tmp> && ls"],
    ["temp-path", "/home/runner/work/_temp/3e5f.sh: line 1", "<tmp>: line 1"],
    ["duration", "✓ adds numbers (12ms)", "✓ adds numbers (<duration>)"],
    ["duration", "Duration 1.53s (transform 220ms)", "Duration <duration> (transform <duration>)"],
    ["duration", "took 3 seconds, then 2m", "took <duration>, then <duration>"],
    ["hex-address", "SIGSEGV at 0x7ffd5e3c2a10", "SIGSEGV at <addr>"],
    ["pid", "worker pid 48213 exited", "worker pid <pid> exited"],
  ])("%s: %j", (_rule, input, expected) => {
    expect(normaliseLine(input)).toBe(expected);
  });

  it("keeps what distinguishes failures: messages, numbers, file names and line numbers", () => {
    const kept = [
      "AssertionError: expected 3 to be 4",
      "src/math.test.ts:12:5",
      "Tests 1 failed | 20 passed (21)",
      "error TS2322: Type 'string' is not assignable to type 'number'.",
      "expected 'ms' to equal 's'",
      "version 1.2.3 is required",
    ];
    for (const line of kept) expect(normaliseLine(line)).toBe(line);
  });

  it("keeps what a progress line finally shows, and treats CRLF as a newline", () => {
    expect(normaliseLine("10%\r50%\r100% done")).toBe("100% done");
    expect(normaliseOutput("one\r\ntwo\r\n")).toBe("one\ntwo\n");
  });

  it("drops trailing blanks, which terminals do not show", () => {
    expect(normaliseLine("done   \t")).toBe("done");
  });

  it("every rule is exercised above", () => {
    expect(NORMALISATION_RULES.map((rule) => rule.name)).toEqual([
      "ansi",
      "iso-timestamp",
      "time-of-day",
      "uuid",
      "temp-path",
      "duration",
      "hex-address",
      "pid",
    ]);
  });
});

describe("normaliseOutput: the same failure twice is one text, two failures are two", () => {
  const run = (ms: number, time: string, tmp: string, expected: number) =>
    [
      `\u001b[1m RUN \u001b[22m v4.1.12 ${tmp}`,
      ` FAIL  src/math.test.ts > adds (${ms}ms)`,
      `AssertionError: expected 3 to be ${expected}`,
      ` Start at ${time}`,
      ` Duration ${ms * 3}ms`,
    ].join("\n");

  it("differs only in timings, clocks, colours and temp dirs: identical", () => {
    expect(normaliseOutput(run(12, "17:30:20", "/tmp/a1", 4))).toBe(
      normaliseOutput(run(917, "09:01:02", "/tmp/zz9", 4)),
    );
  });

  it("differs in the assertion: different", () => {
    expect(normaliseOutput(run(12, "17:30:20", "/tmp/a1", 4))).not.toBe(
      normaliseOutput(run(12, "17:30:20", "/tmp/a1", 5)),
    );
  });
});

describe("normaliseLine scans once, with the same result as applying each rule in order", () => {
  const sequential = (line: string) =>
    NORMALISATION_RULES.reduce((text, rule) => text.replace(rule.pattern, rule.replacement), line);
  const corpus = [
    "2026-12-02T17:30:20Z 17:30:21 took 12ms in /tmp/x1/y.txt pid 99 at 0xdeadbeef00",
    "\u001b[33m⚠\u001b[0m request 3F2B8C1E-9D4A-4E8B-A1F2-0C9D8E7F6A5B after 1.5 s",
    "ok 1 - adds (3ms)",
    "expected 12 to equal 13 at src/a.ts:4:7",
    "/var/folders/x/T/tmp9/out: 10:11:12.5 process:42",
  ];
  it.each(corpus.map((line) => [line]))("%j", (line) => {
    expect(normaliseLine(line)).toBe(sequential(line).replace(/[ \t]+$/, ""));
  });
});
