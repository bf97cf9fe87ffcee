import {
  isMap,
  isNode,
  isPair,
  isScalar,
  LineCounter,
  type Node,
  parseDocument,
  stringify,
} from "yaml";
import type { z } from "zod";
import { CONFIG_PATH, type Config, configSchema } from "../../schemas/config.js";
import { ConfigurationError, type FileProblem } from "../errors.js";
import { configDigest } from "./digest.js";
import { configSchemaAt } from "./json-schema.js";

export interface LoadedConfig {
  config: Config;
  /** sha256 of the canonical, defaults-applied config: part of the grader version. */
  digest: string;
  file: string;
}

export type Path = readonly PropertyKey[];

/**
 * Parses and validates the text of `.github/agate.yml`. Throws a ConfigurationError that names
 * every problem with its line, column and field path; unknown keys are problems too, because a
 * misspelt key would otherwise silently weaken the gate.
 */
export function parseConfig(text: string, file: string = CONFIG_PATH): LoadedConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };

  if (doc.errors.length > 0) {
    throw new ConfigurationError(
      file,
      doc.errors.map((error) => ({
        path: "",
        ...at(error.pos[0]),
        message: `YAML syntax: ${error.message}`,
      })),
    );
  }
  if (doc.contents === null) {
    throw new ConfigurationError(file, [{ path: "", line: 1, column: 1, message: EMPTY_MESSAGE }]);
  }
  if (!isMap(doc.contents)) {
    throw new ConfigurationError(file, [
      {
        path: "",
        ...at(doc.contents.range?.[0] ?? 0),
        message: "the top level must be a mapping with keys such as version and commands",
      },
    ]);
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigurationError(file, [
      { path: "", line: 1, column: 1, message: `YAML: ${(error as Error).message}` },
    ]);
  }

  const result = configSchema.safeParse(data, { error: genericMessage });
  if (!result.success) {
    const problems = result.error.issues.flatMap((issue) => toProblems(issue, doc, data, at));
    throw new ConfigurationError(file, problems.sort(byPosition));
  }
  return { config: result.data, digest: configDigest(result.data), file };
}

const EMPTY_MESSAGE =
  "the file is empty: it needs at least `version: 1` and one command, such as\n" +
  "      version: 1\n      commands:\n        - name: test\n          run: npm test";

export type Doc = ReturnType<typeof parseDocument>;
type At = (offset: number) => { line: number; column: number };

function toProblems(issue: z.core.$ZodIssue, doc: Doc, data: unknown, at: At): FileProblem[] {
  const path = issue.path;
  if (issue.code === "unrecognized_keys") {
    const allowed = Object.keys(configSchemaAt(path, data)?.properties ?? {});
    return issue.keys.map((key) => ({
      path: formatPath([...path, key]),
      ...at(keyNode(doc, path, key)?.range?.[0] ?? nearestNode(doc, path).range?.[0] ?? 0),
      message: unknownKeyMessage(key, allowed, path),
    }));
  }
  const missing = !doc.hasIn(path) && path.length > 0;
  const node = nearestNode(doc, path);
  return [
    {
      path: formatPath(path),
      ...at(node.range?.[0] ?? 0),
      message: missing ? missingMessage(path, data) : issue.message,
    },
  ];
}

/** The node at the path, or its closest existing ancestor (for a missing key: its mapping). */
export function nearestNode(doc: Doc, path: Path): Node {
  for (let depth = path.length; depth > 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node)) return node;
  }
  return doc.contents as Node;
}

/** The key node of `key` in the mapping at `mapPath`: where an unknown key is reported. */
export function keyNode(doc: Doc, mapPath: Path, key: string): Node | undefined {
  const map = mapPath.length === 0 ? doc.contents : doc.getIn(mapPath, true);
  if (!isMap(map)) return undefined;
  const pair = map.items.find(
    (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key,
  );
  return pair && isNode(pair.key) ? pair.key : undefined;
}

function missingMessage(path: Path, data: unknown): string {
  const key = String(path[path.length - 1]);
  const schema = configSchemaAt(path, data);
  const example = schema?.examples?.[0];
  const hint =
    example === undefined
      ? ""
      : `, for example ${key}: ${stringify(example, { collectionStyle: "flow" }).trim()}`;
  return `is missing${hint}`;
}

function unknownKeyMessage(key: string, allowed: string[], mapPath: Path): string {
  const suggestion = allowed.find((name) => closeEnough(key, name));
  const where = mapPath.length === 0 ? "the top level" : formatPath(mapPath);
  const known = allowed.length > 0 ? ` (${where} takes ${allowed.join(", ")})` : "";
  return `unknown key${suggestion ? `; did you mean ${suggestion}?` : ""}${known}`;
}

/** `commands[1].timeout` from ["commands", 1, "timeout"]. */
export function formatPath(path: Path): string {
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
    )
    .join("");
}

function byPosition(a: FileProblem, b: FileProblem): number {
  return a.line - b.line || a.column - b.column;
}

/** Damerau-free edit distance ≤ 2, or equal ignoring case and separators: a likely typo. */
export function closeEnough(typed: string, known: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[-_ ]/g, "");
  if (norm(typed) === norm(known)) return true;
  const a = typed.toLowerCase();
  const b = known.toLowerCase();
  if (Math.abs(a.length - b.length) > 2) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = row;
  }
  return (previous[b.length] ?? Number.POSITIVE_INFINITY) <= 2;
}

/** Plain wording for zod's generic issues; messages set on the schema itself take precedence. */
export function genericMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${noun(issue.expected)}, got ${describe(issue.input)}`;
    case "too_small":
      if (issue.origin === "array")
        return `needs at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}`;
      if (issue.origin === "string") return "must not be empty";
      return `must be ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}, got ${describe(issue.input)}`;
    case "too_big":
      if (issue.origin === "array") return `takes at most ${issue.maximum} items`;
      return `must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}, got ${describe(issue.input)}`;
    case "invalid_value":
      return `${describe(issue.input)} is not one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_format":
      return `${describe(issue.input)} is not a valid ${issue.format}`;
    default:
      return undefined;
  }
}

function noun(expected: string): string {
  const nouns: Record<string, string> = {
    string: "text",
    number: "a number",
    int: "a whole number",
    boolean: "true or false",
    array: "a list",
    object: "a mapping of keys",
  };
  return nouns[expected] ?? expected;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}
