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

/**
 * For each text rule, a pattern that every text it replaces contains (a necessary condition, not
 * the rule): a line with none of them, no escape and no carriage return is unchanged by
 * normaliseLine except for its trailing blanks. They start at rarer characters than the rules
 * (`:`, `-`, `/`, digits), which is what makes scanning for them several times faster than
 * running the rules themselves. A rule without an entry here stops the module from loading.
 */
const NEEDS: Record<string, string> = {
  "iso-timestamp": ":(?<=\\d:)(?=\\d)",
  "time-of-day": ":(?<=\\d:)(?=\\d)",
  uuid: "-(?<=[0-9a-fA-F]-)(?=[0-9a-fA-F])",
  "temp-path": "\\/(?:tmp|var\\/folders|home\\/runner\\/work\\/_temp)\\/|:\\\\",
  duration: "\\d(?=\\s?[nµumsh])",
  "hex-address": "0x",
  pid: "\\d(?<=(?:pid|PID|process)[ =:#]+\\d)",
};

/** Where a line may need more than its trailing blanks removed. */
const MAY_CHANGE = new RegExp(
  [
    "[\\r\\u001b]",
    ...new Set(
      TEXT_RULES.map((rule) => {
        const needs = NEEDS[rule.name];
        if (!needs) throw new Error(`normalise-output: the rule ${rule.name} has no NEEDS entry`);
        return needs;
      }),
    ),
  ].join("|"),
  "g",
);

/**
 * Drops the trailing blanks of a text whose every line ends with a newline. Looking at the
 * character before each newline is much faster than searching for " \n" (spaces are common).
 */
function dropTrailingBlanks(text: string): string {
  for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", newline + 1)) {
    const before = newline > 0 ? text.charCodeAt(newline - 1) : 0;
    if (before === 0x20 || before === 0x09) return text.replace(/[ \t]+\n/g, "\n");
  }
  return text;
}

/**
 * Normalises a whole text, line by line: exactly `text.split("\n").map(normaliseLine).join("\n")`
 * (checks/normalise-output.equivalence.test.ts holds it to that on a varied corpus), but only the
 * lines MAY_CHANGE finds go through normaliseLine; the others lose their trailing blanks in
 * bulk. The streaming digest in the Action gives it its output's complete lines.
 */
export function normaliseOutput(text: string): string {
  let out = "";
  let done = 0;
  MAY_CHANGE.lastIndex = 0;
  for (let found = MAY_CHANGE.exec(text); found; found = MAY_CHANGE.exec(text)) {
    // A match of a NEEDS pattern may run on over a newline; the line it starts in is the one
    // that needs normaliseLine, and the next line is scanned from its start.
    const start = found.index > 0 ? text.lastIndexOf("\n", found.index - 1) + 1 : 0;
    let end = text.indexOf("\n", found.index);
    if (end < 0) end = text.length;
    out += dropTrailingBlanks(text.slice(done, start)) + normaliseLine(text.slice(start, end));
    done = end;
    MAY_CHANGE.lastIndex = end;
  }
  const rest = done === 0 ? text : text.slice(done);
  const lastNewline = rest.lastIndexOf("\n");
  const lines = dropTrailingBlanks(rest.slice(0, lastNewline + 1));
  const last = rest.slice(lastNewline + 1);
  const lastTrimmed = last.replace(/[ \t]+$/, "");
  // Nothing changed (the usual case): the text itself, not a new string built from its pieces.
  if (out === "" && lines.length === lastNewline + 1 && lastTrimmed === last) return rest;
  return out + lines + lastTrimmed;
}
