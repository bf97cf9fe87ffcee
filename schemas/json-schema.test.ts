import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishedJsonSchemas } from "./published-json-schemas.js";

describe("published JSON Schemas", () => {
  it.each(Object.entries(publishedJsonSchemas()))(
    "schemas/%s is committed and fresh",
    (name, text) => {
      const committed = readFileSync(join(import.meta.dirname, name), "utf8");
      expect(committed, `schemas/${name} is stale: run npm run schema and commit it`).toBe(text);
    },
  );

  it("describes durations as text and refuses unknown keys, as the loader does", () => {
    const schema = JSON.parse(publishedJsonSchemas()["agate.schema.json"] ?? "{}");
    const command = schema.properties.commands.items;
    expect(command.properties.timeout).toMatchObject({ type: "string", default: "10m" });
    expect(command.additionalProperties).toBe(false);
    expect(schema.additionalProperties).toBe(false);
    // version and commands are required of a file that extends no organisation defaults only.
    expect(schema.required).toBeUndefined();
    expect(schema.if).toEqual({ required: ["extends"] });
    expect(schema.else).toEqual({ required: ["version", "commands"] });
    expect(schema.properties.extends.pattern).toBe(
      "^[A-Za-z0-9-]+\\/\\.github:[^@\\s]+@[0-9a-f]{40}$",
    );
  });
});
