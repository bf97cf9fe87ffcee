/** Tests only: agate's App manifest (app.yml at the repository's root), as GitHub reads it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export const APP_MANIFEST = parse(
  readFileSync(join(import.meta.dirname, "..", "..", "app.yml"), "utf8"),
) as {
  default_events: string[];
  default_permissions: Record<string, string>;
};
