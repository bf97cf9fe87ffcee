import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonSchemaNode } from "../checks/config/json-schema.js";
import { parseConfig } from "../checks/config/parse-config.js";
import { configJsonSchema } from "../schemas/json-schema.js";

const ROOT = join(import.meta.dirname, "..");
const reference = readFileSync(join(ROOT, "docs", "config.md"), "utf8");

/** Every key a user can write, as a path such as `commands[].timeout` or `evaluator.model`. */
function leafPaths(node: JsonSchemaNode, prefix = ""): string[] {
  const branches = node.oneOf ?? node.anyOf ?? [node];
  return branches.flatMap((branch) => {
    if (branch.properties) {
      return Object.entries(branch.properties).flatMap(([key, child]) =>
        leafPaths(child, prefix ? `${prefix}.${key}` : key),
      );
    }
    if (branch.items?.properties) return leafPaths(branch.items, `${prefix}[]`);
    return [prefix];
  });
}

describe("docs/config.md", () => {
  const paths = [...new Set(leafPaths(configJsonSchema() as JsonSchemaNode))];

  it("finds the config's keys", () => {
    expect(paths).toContain("commands[].timeout");
    expect(paths).toContain("evaluator.model");
    expect(paths).toContain("handoff.required_when.sessions_over");
  });

  it.each(paths.map((path) => [path]))("documents `%s`", (path) => {
    expect(reference).toContain(`\`${path}\``);
  });

  it("every YAML example in it is a valid config or a fragment that says so", () => {
    const blocks = [...reference.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
    const configs = blocks.filter((block) => /^version: 1$/m.test(block));
    expect(configs.length).toBeGreaterThanOrEqual(2);
    for (const text of configs) expect(() => parseConfig(text)).not.toThrow();
  });

  it("this repository's own .github/agate.yml is valid", () => {
    expect(() =>
      parseConfig(readFileSync(join(ROOT, ".github", "agate.yml"), "utf8")),
    ).not.toThrow();
  });
});
