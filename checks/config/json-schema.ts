import { configJsonSchema } from "../../schemas/json-schema.js";

/** The subset of JSON Schema that z.toJSONSchema emits and that the config errors read back. */
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
