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
import {
  type DefaultsRead,
  defaultsProblem,
  type ExtendsRef,
  mergeDefaults,
  originOf,
  parseExtendsReference,
} from "./extends.js";
import { configSchemaAt } from "./json-schema.js";

export interface LoadedConfig {
  config: Config;
  /** sha256 of the canonical, defaults-applied config (with `extends`): the grader version's. */
  digest: string;
  file: string;
  /** The organisation defaults merged in, when the file extends them. */
  extends: ExtendsRef | null;
}

export type Path = readonly PropertyKey[];

/** What a config that `extends` defaults needs besides its own text. */
export interface ConfigSources {
  /** The repository's owner, when known: `extends` may name only `<owner>/.github`. */
  owner?: string | null;
  /**
   * The defaults file's text as read at the pinned commit, or why it could not be read. Absent:
   * the caller did not read them, and a config that extends them is refused, never used alone.
   */
  defaults?: DefaultsRead;
}

interface Parsed {
  doc: Doc;
  data: Record<string, unknown>;
  at: At;
  /** The problems' `file`: set for the defaults, absent for the config's own file. */
  where: string | undefined;
}

/**
 * Parses and validates the text of `.github/agate.yml`. Throws a ConfigurationError that names
 * every problem with its line, column and field path; unknown keys are problems too, because a
 * misspelt key would otherwise silently weaken the gate. A file that `extends` organisation
 * defaults is merged onto them (extends.ts), and each problem names the file its value came from.
 */
export function parseConfig(
  text: string,
  file: string = CONFIG_PATH,
  sources: ConfigSources = {},
): LoadedConfig {
  const own = readDocument(text, file, undefined);
  const ref = extendsIn(own, file, sources.owner ?? null);
  let defaults: Parsed | null = null;
  if (ref) {
    const read = sources.defaults;
    if (read === undefined || typeof read !== "string") {
      const why =
        read === undefined
          ? "they were not read here, and this file alone is not the config"
          : defaultsProblem(read);
      throw new ConfigurationError(file, [
        at(own, ["extends"], `cannot use the defaults ${ref.reference}: ${why}`),
      ]);
    }
    defaults = readDocument(read, file, ref.reference);
    if (defaults.doc.has("extends")) {
      throw new ConfigurationError(file, [
        at(
          defaults,
          ["extends"],
          "the defaults may not extend other defaults (one level only): put what they need in this file",
        ),
      ]);
    }
  }

  const data = defaults ? mergeDefaults(defaults.data, own.data) : own.data;
  const result = configSchema.safeParse(data, { error: genericMessage });
  if (!result.success) {
    const problems = result.error.issues.flatMap((issue) => toProblems(issue, own, defaults, data));
    throw new ConfigurationError(file, problems.sort(byFileAndPosition));
  }
  return { config: result.data, digest: configDigest(result.data), file, extends: ref };
}

/**
 * The defaults a config extends, or null when it extends none: what a reader fetches (at
 * `ref.sha`, from `<ref.owner>/.github`) before calling parseConfig with them. Throws the same
 * ConfigurationError parseConfig would for a file that cannot be read or a bad reference.
 */
export function configExtends(
  text: string,
  file: string = CONFIG_PATH,
  owner: string | null = null,
): ExtendsRef | null {
  return extendsIn(readDocument(text, file, undefined), file, owner);
}

function extendsIn(own: Parsed, file: string, owner: string | null): ExtendsRef | null {
  if (!own.doc.has("extends")) return null;
  const parsed = parseExtendsReference(own.data.extends, owner);
  if (!parsed.ok) throw new ConfigurationError(file, [at(own, ["extends"], parsed.problem)]);
  return parsed.ref;
}

/** A problem at the node of `path` in a parsed file (or its nearest ancestor). */
function at(parsed: Parsed, path: Path, message: string): FileProblem {
  return {
    path: formatPath(path),
    ...parsed.at(nearestNode(parsed.doc, path).range?.[0] ?? 0),
    message,
    ...(parsed.where ? { file: parsed.where } : {}),
  };
}

/** One YAML document as a mapping, or a ConfigurationError located in it. */
function readDocument(text: string, file: string, where: string | undefined): Parsed {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  const problem = (offset: number, message: string): FileProblem => ({
    path: "",
    ...at(offset),
    message,
    ...(where ? { file: where } : {}),
  });

  if (doc.errors.length > 0) {
    throw new ConfigurationError(
      file,
      doc.errors.map((error) => problem(error.pos[0], `YAML syntax: ${error.message}`)),
    );
  }
  if (doc.contents === null) {
    throw new ConfigurationError(file, [
      problem(0, where ? "the defaults file is empty: it needs at least one key" : EMPTY_MESSAGE),
    ]);
  }
  if (!isMap(doc.contents)) {
    throw new ConfigurationError(file, [
      problem(
        doc.contents.range?.[0] ?? 0,
        "the top level must be a mapping with keys such as version and commands",
      ),
    ]);
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigurationError(file, [problem(0, `YAML: ${(error as Error).message}`)]);
  }
  return { doc, data: data as Record<string, unknown>, at, where };
}

const EMPTY_MESSAGE =
  "the file is empty: it needs at least `version: 1` and one command, such as\n" +
  "      version: 1\n      commands:\n        - name: test\n          run: npm test";

export type Doc = ReturnType<typeof parseDocument>;
type At = (offset: number) => { line: number; column: number };

function toProblems(
  issue: z.core.$ZodIssue,
  own: Parsed,
  defaults: Parsed | null,
  data: unknown,
): FileProblem[] {
  const path = issue.path;
  const source = (at: Path) =>
    defaults && originOf(own.doc, defaults.doc, at) === "defaults" ? defaults : own;
  const located = (parsed: Parsed) => (parsed.where ? { file: parsed.where } : {});
  if (issue.code === "unrecognized_keys") {
    const allowed = Object.keys(configSchemaAt(path, data)?.properties ?? {});
    return issue.keys.map((key) => {
      const { doc, at } = source([...path, key]);
      return {
        path: formatPath([...path, key]),
        ...at(keyNode(doc, path, key)?.range?.[0] ?? nearestNode(doc, path).range?.[0] ?? 0),
        message: unknownKeyMessage(key, allowed, path),
        ...located(source([...path, key])),
      };
    });
  }
  const parsed = source(path);
  const missing = !parsed.doc.hasIn(path) && path.length > 0;
  const node = nearestNode(parsed.doc, path);
  return [
    {
      path: formatPath(path),
      ...parsed.at(node.range?.[0] ?? 0),
      message: missing ? missingMessage(path, data) : issue.message,
      ...located(parsed),
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

/** The config's own file first, then the defaults; by position within each. */
function byFileAndPosition(a: FileProblem, b: FileProblem): number {
  return (
    Number(a.file !== undefined) - Number(b.file !== undefined) ||
    a.line - b.line ||
    a.column - b.column
  );
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
