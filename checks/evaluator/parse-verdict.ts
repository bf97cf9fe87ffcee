import { z } from "zod";
import { type Verdict, verdictSchema } from "../../schemas/verdict.js";

export type ParsedVerdict = { ok: true; verdict: Verdict } | { ok: false; error: string };

/** Errors go back to the model in the retry and into the check-run summary: keep them short. */
export const VERDICT_ERROR_LIMIT = 500;

const FIELD_SHAPES: Record<string, string> = {
  complete: "a boolean",
  score: "a number from 0 to 1",
  missing: "an array of non-empty strings",
  evidence: "an array of non-empty strings",
};
const FIELDS = Object.keys(verdictSchema.shape);

/** A single Markdown fence around the whole answer, with or without a `json` tag. */
const FENCE = /^```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

/**
 * Reads an evaluator's answer: one JSON object, optionally inside a single ```json fence.
 * Nothing is dug out of prose: an answer with text around its JSON is refused, so the decision
 * never rests on a guess at which braces the model meant. On refusal `error` says, in words a
 * model can act on, what to change.
 */
export function parseVerdictText(text: string): ParsedVerdict {
  let body = text.trim();
  const fenced = FENCE.exec(body);
  if (fenced) body = (fenced[1] ?? "").trim();
  if (body === "") {
    return refuse(`empty answer: expected one JSON object with ${FIELDS.join(", ")}`);
  }

  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return refuse(
      `not JSON: ${(error as Error).message}. Answer with the JSON object alone, no text around it`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refuse(
      `expected one JSON object with ${FIELDS.join(", ")}, got ${describeValue(value)}`,
    );
  }

  const parsed = verdictSchema.safeParse(value);
  if (parsed.success) return { ok: true, verdict: parsed.data };
  return refuse(parsed.error.issues.map((issue) => describeIssue(issue, value)).join("; "));
}

function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  const where = formatPath(issue.path);
  const field = typeof issue.path[0] === "string" ? issue.path[0] : undefined;
  const shape = field !== undefined && issue.path.length === 1 ? FIELD_SHAPES[field] : undefined;
  switch (issue.code) {
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}: only ${FIELDS.join(", ")} are allowed`;
    case "invalid_type": {
      const actual = valueAt(root, issue.path);
      const expected = shape ?? issue.expected;
      if (actual === undefined) return `missing field: expected ${expected} at "${where}"`;
      return `expected ${expected} at "${where}", got ${describeValue(actual)}`;
    }
    case "too_small":
    case "too_big":
      if (issue.origin === "string") return `expected a non-empty string at "${where}"`;
      return `expected ${shape ?? "a value within bounds"} at "${where}", got ${describeValue(valueAt(root, issue.path))}`;
    default:
      return `${issue.message} at "${where}"`;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    out +=
      typeof segment === "number" ? `[${segment}]` : `${out === "" ? "" : "."}${String(segment)}`;
  }
  return out === "" ? "(root)" : out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    return value.length > 40
      ? `a string (${JSON.stringify(value.slice(0, 40))}…)`
      : `${JSON.stringify(value)}`;
  }
  return `${typeof value} ${String(value)}`;
}

function refuse(error: string): ParsedVerdict {
  return {
    ok: false,
    error:
      error.length > VERDICT_ERROR_LIMIT ? `${error.slice(0, VERDICT_ERROR_LIMIT - 1)}…` : error,
  };
}

type JsonSchema = Record<string, unknown>;

/**
 * The verdict's JSON Schema for structured output: OpenAI's strict `json_schema` mode and
 * Anthropic's tool `input_schema`. Every field required and no extra fields (the zod schema is
 * strict). `$schema` goes because some endpoints refuse unknown top-level keys, and `minLength`
 * because OpenAI's strict mode does not list it among the keywords it accepts; parseVerdictText
 * still enforces non-empty strings, and its error drives the retry.
 */
export function verdictJsonSchema(): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(verdictSchema) as JsonSchema;
  return stripKeyword(schema, "minLength") as JsonSchema;
}

function stripKeyword(node: unknown, keyword: string): unknown {
  if (Array.isArray(node)) return node.map((item) => stripKeyword(item, keyword));
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== keyword)
      .map(([key, value]) => [key, stripKeyword(value, keyword)]),
  );
}
