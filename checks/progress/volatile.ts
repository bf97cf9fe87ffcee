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
  // Codex's plain shell result header: "Wall time: 0.0123 seconds" (the unit may be missing).
  [/^(Wall time:)\s*[^\n]*$/gm, "$1 <duration>"],
];

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
  return out;
}

export function resultHash(exitCode: number | null, text: string): string {
  return shortHash(`${exitCode ?? "-"}\u0000${normaliseResult(text)}`);
}
