/** Writes the JSON Schemas generated from the zod schemas; CI fails when they are not committed. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { publishedJsonSchemas } from "../schemas/published-json-schemas.js";

const dir = join(import.meta.dirname, "..", "schemas");
for (const [name, text] of Object.entries(publishedJsonSchemas())) {
  writeFileSync(join(dir, name), text);
  console.log(`wrote schemas/${name}`);
}
