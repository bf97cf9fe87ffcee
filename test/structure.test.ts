/**
 * Sizes a newcomer can read: no production file over 600 lines, no function over 100 (issue 30).
 * Production is app/, action/, checks/, schemas/ and github/, tests excepted; scripts and test
 * support are not held to it. A function is counted from its first line to its last, a nested
 * function on its own as well as inside the one around it (the way a reader meets it).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const PRODUCTION = ["app", "action", "checks", "schemas", "github"];
const FILE_LIMIT = 600;
const FUNCTION_LIMIT = 100;

/**
 * Files over FILE_LIMIT lines today, each in the block of the package (of issue 30's plan) whose
 * step splits it, with that step. While listed, a file may be any size; the test fails on a file
 * over the limit that is not listed, and on a line whose file is back under it (delete the line).
 * One file per line, so merges stay clean.
 */
const FILE_ALLOWANCES: readonly string[] = [
  // ---- A: the pass ----
  // ---- B: jobs and rooms ----
  // ---- C: foundations ----
];

/**
 * Functions over FUNCTION_LIMIT lines today, as "file: name" (a nested function named after the
 * ones around it, "outer.inner", a method after its class), grouped and kept like FILE_ALLOWANCES.
 */
const FUNCTION_ALLOWANCES: readonly string[] = [
  // ---- A: the pass ----
  // ---- B: jobs and rooms ----
  // ---- C: foundations ----
];

function productionFiles(): string[] {
  return PRODUCTION.filter((area) => existsSync(join(ROOT, area)))
    .flatMap((area) =>
      readdirSync(join(ROOT, area), { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.(ts|mts|cts)$/.test(entry.name))
        .filter((entry) => !/\.test\.ts$/.test(entry.name))
        .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))),
    )
    .sort();
}

function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

interface FunctionSize {
  /** "outer.inner" for a nested function, "Class.method" for a method; "(anonymous)" where nothing names it. */
  name: string;
  lines: number;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return parent.name.getText(source);
  }
  return "(anonymous)";
}

/** Every function-like node of a file with its length in lines, nested ones too. */
function functionSizes(path: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node, outer: string): void => {
    let inside = outer;
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
      inside = outer ? `${outer}.${node.name.text}` : node.name.text;
    } else if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessor(node) ||
      ts.isSetAccessor(node)
    ) {
      const name = nameOf(node, source);
      inside = outer ? `${outer}.${name}` : name;
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      sizes.push({ name: inside, lines: last - first + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(source, "");
  return sizes;
}

interface Sizes {
  files: Map<string, number>;
  /** "file: name" → the longest function of that name in that file. */
  functions: Map<string, number>;
}

function measure(files: readonly string[], read: (file: string) => string): Sizes {
  const sizes: Sizes = { files: new Map(), functions: new Map() };
  for (const file of files) {
    const text = read(file);
    sizes.files.set(file, lineCount(text));
    for (const { name, lines } of functionSizes(file, text)) {
      const key = `${file}: ${name}`;
      sizes.functions.set(key, Math.max(lines, sizes.functions.get(key) ?? 0));
    }
  }
  return sizes;
}

/** What to change, one sentence per offender or stale line. */
function problems(
  measured: ReadonlyMap<string, number>,
  allowed: readonly string[],
  limit: number,
  table: "FILE_ALLOWANCES" | "FUNCTION_ALLOWANCES",
): string[] {
  const what =
    table === "FILE_ALLOWANCES" ? "split the file by what it does" : "split the function";
  const over = [...measured].filter(([, lines]) => lines > limit);
  const unlisted = over
    .filter(([key]) => !allowed.includes(key))
    .map(
      ([key, lines]) =>
        `${key} has ${lines} lines (limit ${limit}): ${what}, or, to let it stand until a named step splits it, ` +
        `add this line to ${table} in test/structure.test.ts, in the block of the package that will split it: ` +
        `"${key}", // <step that splits it>`,
    );
  const stale = allowed
    .filter((key) => (measured.get(key) ?? 0) <= limit)
    .map((key) =>
      measured.has(key)
        ? `${table} lists "${key}", which has ${measured.get(key)} lines now (limit ${limit}): delete that line from test/structure.test.ts`
        : `${table} lists "${key}", which does not exist any more: delete that line from test/structure.test.ts`,
    );
  return [...unlisted, ...stale];
}

describe("structure: production files and functions a reader can hold", () => {
  const files = productionFiles();
  const sizes = measure(files, (file) => readFileSync(join(ROOT, file), "utf8"));

  it("reads the production areas", () => {
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain("checks/gate/plan.ts");
    expect(files.some((file) => file.endsWith(".test.ts"))).toBe(false);
  });

  it(`has no production file over ${FILE_LIMIT} lines but those listed in FILE_ALLOWANCES`, () => {
    expect(new Set(FILE_ALLOWANCES).size).toBe(FILE_ALLOWANCES.length);
    expect(problems(sizes.files, FILE_ALLOWANCES, FILE_LIMIT, "FILE_ALLOWANCES")).toEqual([]);
  });

  it(`has no function over ${FUNCTION_LIMIT} lines but those listed in FUNCTION_ALLOWANCES`, () => {
    expect(new Set(FUNCTION_ALLOWANCES).size).toBe(FUNCTION_ALLOWANCES.length);
    expect(
      problems(sizes.functions, FUNCTION_ALLOWANCES, FUNCTION_LIMIT, "FUNCTION_ALLOWANCES"),
    ).toEqual([]);
  });

  it("counts functions whole, nested ones on their own, named after what holds them", () => {
    const body = (n: number) =>
      Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const text =
      `export function outer() {\n${body(50)}\n  const inner = () => {\n${body(60)}\n  };\n  return inner;\n}\n` +
      `class C {\n  method() {\n${body(3)}\n  }\n}\nexport const arrow = async () => 1;\n`;
    expect(functionSizes("probe.ts", text)).toEqual([
      { name: "outer", lines: 115 },
      { name: "outer.inner", lines: 62 },
      { name: "C.method", lines: 5 },
      { name: "arrow", lines: 1 },
    ]);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });

  it("says which line to add for a new offender, and which to delete for one fixed", () => {
    const measured = new Map([
      ["app/a.ts", 601],
      ["app/b.ts", 600],
    ]);
    expect(problems(measured, ["app/b.ts", "app/gone.ts"], 600, "FILE_ALLOWANCES")).toEqual([
      'app/a.ts has 601 lines (limit 600): split the file by what it does, or, to let it stand until a named step splits it, add this line to FILE_ALLOWANCES in test/structure.test.ts, in the block of the package that will split it: "app/a.ts", // <step that splits it>',
      'FILE_ALLOWANCES lists "app/b.ts", which has 600 lines now (limit 600): delete that line from test/structure.test.ts',
      'FILE_ALLOWANCES lists "app/gone.ts", which does not exist any more: delete that line from test/structure.test.ts',
    ]);
    expect(problems(measured, ["app/a.ts"], 600, "FILE_ALLOWANCES")).toEqual([]);
  });
});
