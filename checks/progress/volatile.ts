import { normaliseOutput } from "../normalise-output.js";
import { canonicalJson, shortHash } from "./hash.js";

/**
 * Bookkeeping keys that change on every call and say nothing about what the call found: a
 * loop guard that hashes them goes blind (seed 002: `duration_seconds` and
 * `kernel.execution_count` made 186 identical no-op calls hash differently). They are removed,
 * at any depth, from results that are JSON, before the result is hashed. A key of the same name
 * that carried real output would be lost to the comparison only, never to the report.
 */
export const VOLATILE_RESULT_KEYS: ReadonlySet<string> = new Set([
  "duration_seconds",
  "duration_ms",
  "durationMs",
  "totalDurationMs",
  "elapsed",
  "elapsed_ms",
  "elapsed_seconds",
  "execution_time",
  "wall_time",
  "wall_time_seconds",
  "timestamp",
  "created_at",
  "execution_count",
  "pid",
]);

/** Text forms of the same counters, for results that are not JSON (or hold JSON in text). */
const VOLATILE_TEXT_RULES: readonly [RegExp, string][] = [
  // "execution_count": 17, execution_count=17, "duration_seconds": 0.42
  [
    /("?)(execution_count|duration_seconds|duration_ms|durationMs|elapsed(?:_ms|_seconds)?|wall_time(?:_seconds)?)\1(\s*[:=]\s*)-?\d+(?:\.\d+)?(?:e-?\d+)?/g,
    "$1$2$1$3<n>",
  ],
  // Jupyter prompts: In [17]:, Out[17]:
  [/\b(In|Out)\s?\[\d+\]/g, "$1[<n>]"],
  // Codex's plain shell result header: "Wall time: 0.0123 seconds" (the unit may be missing),
  // and exec_command's chunk id and token count.
  [/^(Wall time:)\s*[^\n]*$/gm, "$1 <duration>"],
  [/^(Chunk ID:|Original token count:)\s*[^\n]*$/gm, "$1 <volatile>"],
  // Epoch times in seconds (2017-2033) or milliseconds, with or without a fraction.
  [/\b1[5-9]\d{8}(?:\d{3})?(?:\.\d+)?\b/g, "<epoch>"],
  // Hex ids of 12 or more digits (request ids, object hashes, git object names).
  [/\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{12,}\b/g, "<hex>"],
  // Ports on a local address: localhost:54321, 127.0.0.1:8000, [::1]:3000, "port 43117".
  [/\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d{2,5}\b/g, "$1:<port>"],
  [/\b(port)(\s*[:=]?\s*)\d{2,5}\b/gi, "$1$2<port>"],
  // Python's and mktemp's temp names outside /tmp: tmpab12_cd, tmp.X7aB3c.
  [/\btmp[._]?[A-Za-z0-9_]{6,}\b/g, "<tmpname>"],
];

/**
 * Random ids of any alphabet (base62 tokens, nanoids, session keys): a run of 10 or more
 * letters and digits that flips between letters and digits or between cases often enough that
 * no word or identifier looks like it (`x86_64`, `python3`, `test_2024` flip once or twice).
 */
const RANDOM_TOKEN = /\b[A-Za-z0-9_-]{10,}\b/g;

function looksRandom(token: string): boolean {
  let digits = 0;
  let letters = 0;
  let flips = 0;
  let previous = 0;
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    // 1: digit, 2: lower case, 3: upper case, 0: `_` or `-` (breaks no run, counts nothing).
    const cls =
      code >= 48 && code <= 57
        ? 1
        : code >= 97 && code <= 122
          ? 2
          : code >= 65 && code <= 90
            ? 3
            : 0;
    if (cls === 1) digits++;
    else if (cls !== 0) letters++;
    if (cls !== 0 && previous !== 0 && cls !== previous) flips++;
    if (cls !== 0) previous = cls;
  }
  return digits >= 2 && letters >= 2 && flips >= 4;
}

const maskRandomTokens = (text: string) =>
  text.replace(RANDOM_TOKEN, (token) => (looksRandom(token) ? "<id>" : token));

/** Removes VOLATILE_RESULT_KEYS from a parsed JSON value, at every depth. */
export function stripVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripVolatile);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (!VOLATILE_RESULT_KEYS.has(key)) out[key] = stripVolatile(inner);
    }
    return out;
  }
  return value;
}

/**
 * A result as it is compared: JSON results without their volatile keys and with sorted keys,
 * text with the output normaliser's rules (timestamps, durations, temp paths, addresses, ids)
 * plus the counter rules above.
 */
export function normaliseResult(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return normaliseText(canonicalJson(stripVolatile(JSON.parse(trimmed))));
    } catch {
      // Not JSON after all: compared as text.
    }
  }
  return normaliseText(text);
}

function normaliseText(text: string): string {
  let out = normaliseOutput(text);
  for (const [pattern, replacement] of VOLATILE_TEXT_RULES) out = out.replace(pattern, replacement);
  return maskRandomTokens(out);
}

/**
 * The call as an action, its free text masked: quoted strings, numbers and volatile ids. The
 * same no-op reworded (`echo "still waiting (3)"`, `echo "waiting for agents"`) is one action.
 */
export function maskAction(text: string): string {
  return normaliseText(text)
    .replace(/\\?"(?:\\.|[^"\\])*\\?"|'[^']*'/g, "<s>")
    .replace(/\b\d+(?:\.\d+)?\b/g, "<n>");
}

/**
 * The result without what the call itself said: every word that appears in the call is taken
 * out (an echo or a print of its own message, reworded each time, leaves the same skeleton).
 * Numbers and words the call did not contain stay: they are what the call found out. Takes the
 * result already normalised (normaliseResult).
 */
export function echoFreeResult(call: string, normalisedResult: string): string {
  const said = new Set(call.match(/[A-Za-z_]{2,}/g) ?? []);
  return normalisedResult
    .replace(/[A-Za-z_]{2,}/g, (word) => (said.has(word) ? "" : word))
    .replace(/\s+/g, "");
}

export function resultHash(exitCode: number | null, text: string): string {
  return normalisedResultHash(exitCode, normaliseResult(text));
}

export const normalisedResultHash = (exitCode: number | null, normalised: string): string =>
  shortHash(`${exitCode ?? "-"}\u0000${normalised}`);
