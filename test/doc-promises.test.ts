/**
 * What the docs promise about the product's surfaces, held to the code that keeps the promise:
 * the Action's inputs and outputs (action.yml, the README's tables, the code that reads and sets
 * them), the settings named `AGATE_*` (every one a doc names is read; every one the App, the
 * Action or the CLI reads is documented), and the App's events (app.yml against the routes). A
 * line that promises what the code does not do fails here, as does code that no doc mentions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { entryRoutes } from "../app/entries/route.js";
import { gateRoutes } from "../app/gate/route.js";
import { NORMALISATION_RULES } from "../checks/normalise-output.js";
import { actionInputsSchema } from "../schemas/action.js";
import { EVALUATOR_PROMPT_VERSION } from "../schemas/evaluation.js";
import type { Permission } from "./github/handlers/context.js";
import { statefulOperations } from "./github/handlers/index.js";

const ROOT = join(import.meta.dirname, "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The production TypeScript under `dirs` (tests aside), as [path, text]. */
function sources(...dirs: string[]): [string, string][] {
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
      .map((e) => {
        const path = relative(ROOT, join(e.parentPath, e.name));
        return [path, read(path)] as [string, string];
      }),
  );
}

const README = read("README.md");
const DOCS = [
  "README.md",
  "AGENTS.md",
  "action.yml",
  ...readdirSync(join(ROOT, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
].map((path) => [path, read(path)] as const);

/** The first column of the README table whose header row starts with `| <first> |`. */
function readmeTableNames(first: string): string[] {
  const lines = README.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  expect(start, `a README table headed "| ${first} |"`).toBeGreaterThan(-1);
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cell = line.split(" | ")[0] ?? "";
    rows.push(...[...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ""));
  }
  return rows;
}

describe("the Action's inputs and outputs", () => {
  const action = parseYaml(read("action.yml")) as {
    inputs: Record<string, { default?: string }>;
    outputs: Record<string, unknown>;
  };
  const code = sources("action").filter(([path]) => !path.startsWith("action/cli/"));
  const called = (fn: string) =>
    new Set(
      code.flatMap(([, text]) =>
        [...text.matchAll(new RegExp(`\\b${fn}\\(\\s*"([\\w-]+)"`, "g"))].map((m) => m[1]),
      ),
    );

  it("every input action.yml declares is read by the Action, and none it reads is undeclared", () => {
    const readByCode = new Set([...Object.keys(actionInputsSchema.shape), ...called("getInput")]);
    expect([...readByCode].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it("the defaults action.yml gives are the ones the code takes when an input is empty", () => {
    for (const [name, schema] of Object.entries(actionInputsSchema.shape)) {
      const declared = action.inputs[name]?.default ?? "";
      // The runner fills `${{ github.token }}`; the code's own default is none.
      const expected = declared.startsWith("${{") ? "" : declared;
      const taken = (schema as { parse: (v: unknown) => unknown }).parse(undefined);
      expect(String(taken), `input ${name}`).toBe(expected);
    }
  });

  it("every output action.yml declares is set by the Action, and none it sets is undeclared", () => {
    expect([...called("setOutput")].sort()).toEqual(Object.keys(action.outputs).sort());
  });

  it("the README's input and output tables list exactly action.yml's", () => {
    expect(readmeTableNames("input").sort()).toEqual(Object.keys(action.inputs).sort());
    expect(readmeTableNames("output").sort()).toEqual(Object.keys(action.outputs).sort());
  });
});

/**
 * Variables agate reads that no user sets, each with why it needs no doc: a doc naming one would
 * invite someone to set it.
 */
const UNDOCUMENTED: Record<string, string> = {
  AGATE_UNDUMPABLE_NODE: "the Action passes it to its own re-executed process (action/same-uid.ts)",
};

describe("the AGATE_* settings", () => {
  const named = (text: string) => new Set(text.match(/\bAGATE_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []);
  const documented = new Set(DOCS.flatMap(([, text]) => [...named(text)]));
  /** Where the code reads a variable: `env.X`, `env["X"]`, or a settings schema's key `X:`. */
  const readsOf = (text: string) =>
    [
      ...text.matchAll(/\benv(?:\.|\[")(AGATE_[A-Z0-9_]+)/g),
      ...text.matchAll(/^\s+(AGATE_[A-Z0-9_]+): (?:duration|wholeNumber|optionalText|oneOf)\b/gm),
    ].map((m) => m[1] ?? "");
  const product = sources("app", "action", "github", "checks");
  const readByProduct = new Set(product.flatMap(([, text]) => readsOf(text)));
  /** Everything that may read a variable: the product, the scripts, the tests, CI and npm. */
  const everywhere = [
    ...product,
    ...sources("scripts", "test"),
    ...readdirSync(join(ROOT, "app"), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => [`app/${file}`, read(`app/${file}`)] as [string, string]),
    [".ci/run", read(".ci/run")] as [string, string],
    ["package.json", read("package.json")] as [string, string],
  ];

  it("finds the reads of a settings schema and of an environment", () => {
    expect(readByProduct).toContain("AGATE_WORKERS");
    expect(readByProduct).toContain("AGATE_EVALUATOR_COMMAND_PATHS");
    expect(readByProduct).toContain("AGATE_HOOK_WAIT");
    expect(readByProduct).toContain("AGATE_TIMINGS");
  });

  it("every one the App, the Action or the CLI reads is documented", () => {
    const missing = [...readByProduct].filter(
      (name) => !documented.has(name) && UNDOCUMENTED[name] === undefined,
    );
    expect(
      missing.map((name) => `${name} is read but no doc names it: document it (README or docs/)`),
    ).toEqual([]);
  });

  it("every one a doc names is read by something: the product, a script, a test or CI", () => {
    const stale = [...documented].filter(
      (name) => !everywhere.some(([, text]) => new RegExp(`\\b${name}\\b`).test(text)),
    );
    expect(stale.map((name) => `a doc names ${name}, which nothing reads`)).toEqual([]);
  });

  it("the internal ones are still read, so the list above stays short", () => {
    for (const name of Object.keys(UNDOCUMENTED)) expect(readByProduct, name).toContain(name);
  });
});

const LEVELS = ["none", "read", "write"] as const;
const covers = (granted: string | undefined, needed: string) =>
  LEVELS.indexOf((granted ?? "none") as (typeof LEVELS)[number]) >=
  LEVELS.indexOf(needed as (typeof LEVELS)[number]);

describe("the permissions app.yml asks for", () => {
  const manifest = parseYaml(read("app.yml")) as { default_permissions: Record<string, string> };
  /** Every GitHub operation agate's code calls, by the id `github/` counts it under. */
  const operations = [
    ...new Set(
      sources("github").flatMap(([, text]) =>
        [...text.matchAll(/"((?:actions|checks|git|issues|pulls|repos|teams)\/[a-z-]+)"/g)].map(
          (m) => m[1] ?? "",
        ),
      ),
    ),
  ].sort();
  /**
   * What an operation takes, as the simulator enforces GitHub's rule: each entry one requirement,
   * met by any of its alternatives. Labels and comments on a number are written on plain issues
   * (entries, the dashboard), which take `issues: write`, and on pull requests, which take
   * `pull_requests: write` (test/github/handlers/issues.ts says why); read, `issues` covers both.
   */
  const requirements = (operation: string): [string, string][][] => {
    const permission = statefulOperations[operation]?.permission;
    expect(permission, `the simulator's rule for ${operation}`).toBeDefined();
    if (typeof permission === "function") {
      const reads = operation.startsWith("issues/list") || operation.startsWith("issues/get");
      return reads ? [[["issues", "read"]]] : [[["issues", "write"]], [["pull_requests", "write"]]];
    }
    const p = permission as Permission;
    return [(typeof p[0] === "string" ? [p] : p) as [string, string][]];
  };
  const allowed = (granted: Record<string, string>, operation: string) =>
    requirements(operation).every((alternatives) =>
      alternatives.some(
        ([name, level]) =>
          (name === "metadata" && level === "read") || covers(granted[name], level),
      ),
    );

  it("finds the calls", () => {
    expect(operations).toContain("checks/create");
    expect(operations).toContain("teams/get-membership-for-user-in-org");
  });

  it("grant every call agate's code makes (one missing is a bug)", () => {
    expect(operations.filter((op) => !allowed(manifest.default_permissions, op))).toEqual([]);
  });

  it("are each needed at their level: one step lower, some call is refused", () => {
    const more = Object.entries(manifest.default_permissions)
      .filter(([name]) => name !== "metadata")
      .filter(([name, level]) => {
        const lower = LEVELS[LEVELS.indexOf(level as (typeof LEVELS)[number]) - 1] ?? "none";
        const granted = { ...manifest.default_permissions, [name]: lower };
        return operations.every((op) => allowed(granted, op));
      })
      .map(([name, level]) => `${name}: ${level} is more than any call needs`);
    expect(more).toEqual([]);
  });
});

describe("the events app.yml subscribes to", () => {
  const manifest = parseYaml(read("app.yml")) as { default_events: string[] };
  const routed = new Set(
    [gateRoutes, entryRoutes].flatMap((domain) => Object.keys(domain.events ?? {})),
  );

  it("are exactly the events a domain routes (installation events come unasked)", () => {
    expect([...manifest.default_events].sort()).toEqual([...routed].sort());
  });
});

describe("what docs name by the code's own names", () => {
  it("docs/output-normalisation.md lists exactly the rules checks/normalise-output.ts applies", () => {
    const doc = read("docs/output-normalisation.md");
    const listed = [...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(NORMALISATION_RULES.map((rule) => rule.name));
  });

  it("every evaluator prompt version a doc names is the one the evaluator sends", () => {
    const named = DOCS.flatMap(([path, text]) =>
      [...text.matchAll(/agate-eval-\d+/g)].map((m) => `${path}: ${m[0]}`),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((entry) => !entry.endsWith(`: ${EVALUATOR_PROMPT_VERSION}`))).toEqual([]);
  });
});

describe("the npm scripts the docs name", () => {
  it("are each in package.json", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> })
      .scripts;
    const named = DOCS.flatMap(([path, text]) =>
      [...text.matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => [path, m[1] ?? ""] as const),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(
      named
        .filter(([, name]) => scripts[name] === undefined)
        .map(([path, name]) => `${path}: npm run ${name}`),
    ).toEqual([]);
  });
});

describe("the CLI's --help", () => {
  /** Every option its usage texts offer (the `…USAGE` template literals of action/cli/). */
  const options = [
    ...new Set(
      sources("action/cli").flatMap(([, text]) =>
        [...text.matchAll(/USAGE = `([\s\S]*?)`;/g)].flatMap((m) =>
          [...(m[1] ?? "").matchAll(/--[a-z][a-z-]+/g)].map((o) => o[0]),
        ),
      ),
    ),
  ];

  it("finds the usage texts' options", () => {
    expect(options).toEqual(expect.arrayContaining(["--max-turns", "--wait", "--open-item"]));
  });

  it("offers no option the docs do not name (--help and --version aside)", () => {
    const docs = DOCS.map(([, text]) => text).join("\n");
    const unnamed = options.filter(
      (option) => !["--help", "--version"].includes(option) && !docs.includes(option),
    );
    expect(unnamed.map((option) => `${option} is in --help but in no doc`)).toEqual([]);
  });
});
