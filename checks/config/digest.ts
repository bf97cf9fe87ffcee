import { createHash } from "node:crypto";
import type { Config } from "../../schemas/config.js";

/**
 * RFC 8785 (JCS) canonical JSON for what a parsed config holds: objects with keys sorted by
 * UTF-16 code units, no whitespace, strings and numbers as ECMAScript's JSON.stringify writes
 * them (which is what JCS prescribes), undefined members left out. Written here rather than
 * taken from the `canonicalize` package: its current major requires Node 22, and the older one
 * ships types that do not match its CommonJS export under NodeNext.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new Error(`cannot canonicalise ${value}: JSON has no such number`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
}

/**
 * sha256 of the canonical JSON of the parsed config. Defaults are applied and durations are
 * milliseconds before hashing, so key order, comments, quoting and `60s` versus `1m` do not
 * change it, while any change to what is enforced does.
 */
export function configDigest(config: Config): string {
  return createHash("sha256").update(canonicalJson(config)).digest("hex");
}
