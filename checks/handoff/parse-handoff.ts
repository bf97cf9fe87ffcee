import { isMap, LineCounter, parseDocument, stringify } from "yaml";
import type { z } from "zod";
import {
  type HandoffFrontMatter,
  handoffFrontMatterSchema,
  handoffStatusSchema,
} from "../../schemas/handoff-file.js";
import {
  closeEnough,
  type Doc,
  formatPath,
  genericMessage,
  keyNode,
  nearestNode,
  type Path,
} from "../config/parse-config.js";

export type ParsedHandoff =
  | { ok: true; front: HandoffFrontMatter; body: string }
  | { ok: false; errors: string[] };

const FENCE = /^---[ \t]*$/;
const FIELDS = Object.keys(handoffFrontMatterSchema.shape);

/** What each required field looks like, for "is missing" errors that show the fix. */
const EXAMPLES: Record<string, string> = {
  task: 'task: "#12" (the issue, or one line saying what the task is)',
  branch: "branch: <the pull request's head branch>",
  status: `status: in-progress (one of ${handoffStatusSchema.options.join(", ")})`,
  changed_files: "changed_files: [every file the branch changes against its base]",
};

/**
 * Reads a handoff file: YAML front matter between a first line `---` and the next `---` line,
 * then free text. Every problem comes back as `path:line:column: message` with the line of the
 * whole file (not of the front matter), so an editor or an agent can jump straight to it; unknown
 * keys are problems too, because a misspelt key would silently drop what it was meant to say.
 */
export function parseHandoffFile(text: string, path: string): ParsedHandoff {
  const fail = (line: number, column: number, message: string): ParsedHandoff => ({
    ok: false,
    errors: [`${path}:${line}:${column}: ${message}`],
  });
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = source.split("\n");
  if (!FENCE.test(stripCr(lines[0] ?? ""))) {
    return fail(
      1,
      1,
      "no front matter: the file must start with a line `---`, then the YAML fields (task, branch, status, changed_files, ...), then another `---` line",
    );
  }
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(stripCr(line)));
  if (close === -1) {
    return fail(
      1,
      1,
      "the front matter opened on line 1 is never closed: add a line `---` after its last field",
    );
  }
  const yamlText = lines.slice(1, close).map(stripCr).join("\n");
  // A blank line between the closing fence and the free text is layout, not content.
  const rest = lines.slice(close + 1);
  if (rest.length > 0 && stripCr(rest[0] ?? "").trim() === "") rest.shift();
  const body = rest.join("\n");

  const counter = new LineCounter();
  const doc = parseDocument(yamlText, {
    lineCounter: counter,
    prettyErrors: false,
    uniqueKeys: true,
  });
  // The front matter starts on the file's second line.
  const at = (offset: number) => {
    const pos = counter.linePos(offset);
    return `${path}:${pos.line + 1}:${pos.col}`;
  };

  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((error) => `${at(error.pos[0])}: YAML syntax: ${error.message}`),
    };
  }
  if (doc.contents === null) {
    return fail(2, 1, `the front matter is empty: it needs at least ${requiredFieldList()}`);
  }
  if (!isMap(doc.contents)) {
    return {
      ok: false,
      errors: [
        `${at(doc.contents.range?.[0] ?? 0)}: the front matter must be a mapping of fields such as task: and branch:, not a single value or a list`,
      ],
    };
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return fail(2, 1, `YAML: ${(error as Error).message}`);
  }
  const result = handoffFrontMatterSchema.safeParse(data, { error: genericMessage });
  if (result.success) return { ok: true, front: result.data, body };

  const located = result.error.issues.flatMap((issue) => locate(issue, doc, at));
  located.sort((a, b) => a.offset - b.offset);
  return { ok: false, errors: located.map((problem) => problem.text) };
}

/**
 * The canonical file for these fields and this free text; `agate handoff` writes it. Fields come
 * in the schema's order, long text as YAML block scalars, never folded, so diffs stay readable.
 * parseHandoffFile(renderHandoffFile(front, body), path) gives back front and body unchanged.
 */
export function renderHandoffFile(front: HandoffFrontMatter, body: string): string {
  const ordered = Object.fromEntries(
    FIELDS.map((key) => [key, front[key as keyof HandoffFrontMatter]]),
  );
  const yamlText = stringify(ordered, { lineWidth: 0, blockQuote: "literal", indentSeq: true });
  return `---\n${yamlText}---\n${body === "" ? "" : `\n${body}`}`;
}

interface Located {
  offset: number;
  text: string;
}

function locate(issue: z.core.$ZodIssue, doc: Doc, at: (offset: number) => string): Located[] {
  const path = issue.path;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const offset = keyNode(doc, path, key)?.range?.[0] ?? nearestNode(doc, path).range?.[0] ?? 0;
      return {
        offset,
        text: `${at(offset)}: ${formatPath([...path, key])}: ${unknownKey(key, path)}`,
      };
    });
  }
  const offset = nearestNode(doc, path).range?.[0] ?? 0;
  const missing = path.length > 0 && !doc.hasIn(path);
  const name = formatPath(path) || "front matter";
  const example = EXAMPLES[String(path[0])];
  const message = missing
    ? `is missing${path.length === 1 && example ? `; add ${example}` : ""}`
    : issue.message;
  return [{ offset, text: `${at(offset)}: ${name}: ${message}` }];
}

function unknownKey(key: string, mapPath: Path): string {
  const allowed =
    mapPath.length === 0
      ? FIELDS
      : mapPath[0] === "last_command"
        ? ["run", "exit_code", "output_tail"]
        : [];
  const suggestion = allowed.find((name) => closeEnough(key, name));
  const where = mapPath.length === 0 ? "the front matter" : formatPath(mapPath);
  const known = allowed.length > 0 ? ` (${where} takes ${allowed.join(", ")})` : "";
  return `unknown key${suggestion ? `; did you mean ${suggestion}?` : ""}${known}`;
}

function requiredFieldList(): string {
  return Object.keys(EXAMPLES).join(", ");
}

const stripCr = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line);
