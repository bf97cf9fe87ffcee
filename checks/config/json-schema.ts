import { z } from "zod";
import { configSchema } from "../../schemas/config.js";

/** The subset of JSON Schema that z.toJSONSchema emits and that agate reads back. */
export interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  oneOf?: JsonSchemaNode[];
  anyOf?: JsonSchemaNode[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
  description?: string;
  required?: string[];
  additionalProperties?: boolean | JsonSchemaNode;
}

/**
 * The config's JSON Schema, as written (`io: "input"`: durations are text, defaults optional).
 * The same document is published for editors and walked here to name allowed keys and examples.
 */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configSchema, {
    io: "input",
    target: "draft-2020-12",
    // zod leaves out `examples` in input mode when a schema holds a transform (they could be
    // output values); agate's examples are all written in input form, so keep them.
    override: ({ zodSchema, jsonSchema }) => {
      const examples = z.globalRegistry.get(zodSchema)?.examples;
      if (Array.isArray(examples) && jsonSchema.examples === undefined) {
        jsonSchema.examples = examples;
      }
    },
  }) as Record<string, unknown>;
}

let cached: JsonSchemaNode | undefined;
function root(): JsonSchemaNode {
  cached ??= configJsonSchema() as JsonSchemaNode;
  return cached;
}

/** Picks the branch of a oneOf/anyOf whose `const` properties match the value (the `kind`). */
function resolveBranch(node: JsonSchemaNode, value: unknown): JsonSchemaNode {
  const branches = node.oneOf ?? node.anyOf;
  if (!branches) return node;
  const record =
    typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const match = branches.find((branch) =>
    Object.entries(branch.properties ?? {}).every(
      ([key, sub]) => sub.const === undefined || record[key] === sub.const,
    ),
  );
  return match ?? node;
}

/** The schema node at a path inside the config, following the actual value through unions. */
export function configSchemaAt(
  path: readonly PropertyKey[],
  value: unknown,
): JsonSchemaNode | undefined {
  let node: JsonSchemaNode | undefined = root();
  let current = value;
  for (const segment of path) {
    node = resolveBranch(node, current);
    node = typeof segment === "number" ? node.items : node.properties?.[String(segment)];
    current =
      typeof current === "object" && current !== null
        ? (current as Record<PropertyKey, unknown>)[segment]
        : undefined;
    if (!node) return undefined;
  }
  return resolveBranch(node, current);
}
