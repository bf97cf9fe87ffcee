/**
 * Volatile text removed from command output before its normalised digest is taken, so that the
 * same failure twice has the same digest (DESIGN.md, lesson 5: strip volatile fields or the
 * stall detector goes blind). The rules are conservative: each replaces only text whose change
 * says nothing about the failure (colours, clocks, durations, temp paths, addresses, ids). Plain
 * numbers, file names and messages are kept, so two different failures keep two digests.
 * Documented in docs/output-normalisation.md; each rule has a test.
 */
export interface NormalisationRule {
  name: string;
  pattern: RegExp;
  replacement: string;
}

/**
 * CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks), two-byte escapes.
 * Control characters are the point here, so biome.json turns noControlCharactersInRegex off for this file.
 */
const TERMINAL_ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export const NORMALISATION_RULES: readonly NormalisationRule[] = [
  {
    name: "ansi",
    pattern: TERMINAL_ESCAPES,
    replacement: "",
  },
  {
    name: "iso-timestamp",
    pattern: /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g,
    replacement: "<timestamp>",
  },
  {
    name: "time-of-day",
    pattern: /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g,
    replacement: "<time>",
  },
  {
    name: "uuid",
    pattern: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g,
    replacement: "<uuid>",
  },
  {
    name: "temp-path",
    // mkdtemp-style directories: /tmp/..., macOS /var/folders/..., the runner's _temp, Windows Temp.
    pattern:
      /(?:\/private)?\/tmp\/[^\s'"`:,;)\]}]+|\/var\/folders\/[^\s'"`:,;)\]}]+|\/home\/runner\/work\/_temp\/[^\s'"`:,;)\]}]+|[A-Za-z]:\\(?:[^\s\\'"]+\\)*?Temp\\[^\s'"`:,;)\]}]+/g,
    replacement: "<tmp>",
  },
  {
    name: "duration",
    // 12ms, 1.5s, 3 seconds, 2m, 1h, 250µs: a number directly followed by a unit of time.
    pattern:
      /\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b/g,
    replacement: "<duration>",
  },
  {
    name: "hex-address",
    pattern: /\b0x[0-9a-fA-F]{6,16}\b/g,
    replacement: "<addr>",
  },
  {
    name: "pid",
    pattern: /\b(pid|PID|process)([ =:#]+)\d+\b/g,
    replacement: "$1$2<pid>",
  },
];

const [ANSI_RULE, ...TEXT_RULES] = NORMALISATION_RULES;

/**
 * The text rules as one alternation, so a line is scanned once rather than once per rule: at
 * each position the earliest-listed rule that matches wins, as applying them in order would.
 * A match is then given the replacement of the first rule that matches all of it.
 */
const COMBINED = new RegExp(TEXT_RULES.map((rule) => `(?:${rule.pattern.source})`).join("|"), "g");
const WHOLE = TEXT_RULES.map((rule) => ({
  rule,
  whole: new RegExp(`^(?:${rule.pattern.source})$`),
  single: new RegExp(rule.pattern.source),
}));

function replaceMatch(match: string): string {
  const found = WHOLE.find(({ whole }) => whole.test(match));
  return found ? match.replace(found.single, found.rule.replacement) : match;
}

/**
 * Normalises one line (without its newline). A CRLF ending counts as a plain newline; a carriage
 * return inside a line is progress output that redraws itself, so only what the terminal would
 * finally show, the text after the last `\r`, is kept.
 */
export function normaliseLine(line: string): string {
  const body = line.endsWith("\r") ? line.slice(0, -1) : line;
  const lastReturn = body.lastIndexOf("\r");
  let text = lastReturn >= 0 ? body.slice(lastReturn + 1) : body;
  if (ANSI_RULE && text.includes("\u001b"))
    text = text.replace(ANSI_RULE.pattern, ANSI_RULE.replacement);
  text = text.replace(COMBINED, replaceMatch);
  return text.replace(/[ \t]+$/, "");
}

/** Normalises a whole text, line by line; the streaming digest in the Action does the same. */
export function normaliseOutput(text: string): string {
  return text.split("\n").map(normaliseLine).join("\n");
}
