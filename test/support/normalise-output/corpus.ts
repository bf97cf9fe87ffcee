/**
 * A varied, seeded corpus of command output for the tests that hold the streaming digest and the
 * fast normaliser to the line-by-line reference: every rule's shapes, near misses, terminal
 * escapes (an OSC title spanning a newline too), CRLF, progress redraws, trailing blanks,
 * multi-byte and invalid UTF-8, separators JavaScript counts as line ends, and very long lines.
 */

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ESC = "\u001b";

/** Pieces that a rule replaces, that almost match one, or that change how a line is read. */
export const FRAGMENTS: readonly string[] = [
  `${ESC}[31mFAIL${ESC}[39m`,
  `${ESC}[1;32m✓${ESC}[0m`,
  `${ESC}]8;;https://x.test${ESC}\\link${ESC}]8;;${ESC}\\`,
  `${ESC}]0;title\nspanning a newline\u0007`,
  `${ESC}M`,
  `${ESC}[`,
  "2026-12-02T17:30:20.123Z",
  "2026-12-02 17:30:20+01:00",
  "2026-12-02T17:30",
  "17:30:20",
  "9:01:02,5",
  "12:34",
  "3f2b8c1e-9d4a-4e8b-a1f2-0c9d8e7f6a5b",
  "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF",
  "deadbeef-dead-beef",
  "/tmp/agate-x1Yz/out.txt",
  "/private/tmp/x",
  "/var/folders/ab/cd/T/tmp.123",
  "/home/runner/work/_temp/3e5f.sh",
  "C:\\Users\\me\\AppData\\Local\\Temp\\x1.txt",
  "/tmpfile",
  "(12ms)",
  "1.53s",
  "3 seconds",
  "250µs",
  "2m",
  "1h",
  "12\nms",
  "4 bytes",
  "64 hours",
  "0x7ffd5e3c2a10",
  "0x12",
  "pid 48213",
  "PID=7",
  "process#12",
  "process:42",
  "pids 3",
  "src/math.test.ts:12:5",
  "AssertionError: expected 3 to be 4",
  "Tests 1 failed | 20 passed (21)",
  "ünïcødé",
  "emoji 🚀",
  "line\u2028separator",
  "nbsp\u00a0",
  "\r\n",
  "\r",
  "10%\r50%\r100% done",
  "   ",
  "\t",
  " \t\n",
  "\n",
  "\n\n",
  "-",
  ":",
  "\\",
  "/",
];

const WORDS = ["a", "line", "of", "output", "test", "ok", "error", "at", "x", "12", "7", "s", "m"];

/** One random output: fragments and words, joined by spaces, newlines or nothing. */
export function randomOutput(random: () => number, parts: number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const glue = ["", " ", " ", "\n", "\n", "\r\n", "\t", "  \n"];
  let out = "";
  for (let i = 0; i < parts; i++) {
    out += random() < 0.5 ? pick(FRAGMENTS) : pick(WORDS);
    out += pick(glue);
  }
  return out;
}

/** Bytes that are not valid UTF-8, and a multi-byte character cut short, inside plain lines. */
export function invalidUtf8(random: () => number, lines: number): Buffer {
  const parts: Buffer[] = [];
  const bad = [
    Buffer.from([0xff]),
    Buffer.from([0xc3]),
    Buffer.from([0xe2, 0x82]),
    Buffer.from([0xf0, 0x9f, 0x9a]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0x80, 0x80]),
  ];
  for (let i = 0; i < lines; i++) {
    parts.push(Buffer.from(randomOutput(random, 3)));
    parts.push(bad[Math.floor(random() * bad.length)] as Buffer);
    parts.push(Buffer.from(random() < 0.5 ? " 12ms\n" : "\n"));
  }
  return Buffer.concat(parts);
}
