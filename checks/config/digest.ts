import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { Config } from "../../schemas/config.js";

/**
 * sha256 of the RFC 8785 canonical JSON of the parsed config. Defaults are applied and durations
 * are milliseconds before hashing, so key order, comments, quoting and `60s` versus `1m` do not
 * change it, while any change to what is enforced does.
 */
export function configDigest(config: Config): string {
  const text = canonicalize(config);
  if (text === undefined) throw new Error("config cannot be canonicalised: it has no JSON form");
  return createHash("sha256").update(text).digest("hex");
}
