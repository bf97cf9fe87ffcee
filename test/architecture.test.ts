import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

type Area = "schemas" | "checks" | "github" | "app" | "action" | "scripts" | "test";

interface Rule {
  /** Top-level areas a relative import may land in; "any" for anything in the repository. */
  areas: readonly Area[] | "any";
  /** Files at the repository's root a relative import may name. */
  rootFiles?: readonly string[];
  /**
   * Packages it may import: exact specifiers; "dependencies" for node: built-ins and the
   * package.json `dependencies` (never a devDependency: those are test and build tools, and
   * what ships must not need them); "any" for anything.
   */
  packages: ReadonlySet<string> | "dependencies" | "any";
  /** With a set of packages: node: built-ins too. */
  nodeBuiltins?: boolean;
}

/**
 * checks/ and schemas/ get facts and return decisions: anything beyond these packages (probot,
 * octokit, @actions/*, node:http, node:fs, ...) would let I/O creep into the decision logic.
 */
const PURE_PACKAGES = new Set(["zod", "yaml", "picomatch", "node:crypto"]);

/**
 * Who may import whom, for every non-test source file (`*.test.ts` excepted, so a test-support
 * module or benchmark left inside app/ or action/ is held to the rule of the code that ships).
 * A violation fails this test rather than a review.
 */
const RULES: Record<Area, Rule> = {
  // agate's version comes from the root package.json, read at build time.
  schemas: { areas: ["schemas"], rootFiles: ["package.json"], packages: PURE_PACKAGES },
  checks: { areas: ["schemas", "checks"], packages: PURE_PACKAGES },
  // Every GitHub call both the App and the CLI make, over a structural Octokit client: never
  // Probot (the App hands its client in) and never @actions/* (the CLI runs outside Actions).
  github: {
    areas: ["schemas", "checks", "github"],
    packages: new Set(["@octokit/rest"]),
    nodeBuiltins: true,
  },
  app: { areas: ["schemas", "checks", "github", "app"], packages: "dependencies" },
  action: { areas: ["schemas", "checks", "github", "action"], packages: "dependencies" },
  scripts: { areas: "any", packages: "any" },
  test: { areas: "any", packages: "any" },
};

/** Areas checked once their directory exists (the plan of issue 30 adds github/). */
const LATER_AREAS: readonly Area[] = ["github"];

const DEPENDENCIES = new Set(
  Object.keys(
    (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      }
    ).dependencies ?? {},
  ),
);

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name))
    .filter((entry) => !/\.test\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
}

/** "@scope/name/deep" → "@scope/name", "name/deep" → "name". */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

function areaOf(file: string): Area {
  return relative(ROOT, file).split("/")[0] as Area;
}

interface Violation {
  file: string;
  specifier: string;
  why: string;
}

function violations(file: string, text = readFileSync(file, "utf8")): Violation[] {
  const area = areaOf(file);
  const rule = RULES[area];
  const found: Violation[] = [];
  for (const specifier of importsOf(text)) {
    const why = refusal(rule, area, file, specifier);
    if (why) found.push({ file: relative(ROOT, file), specifier, why });
  }
  return found;
}

function refusal(rule: Rule, area: Area, file: string, specifier: string): string | undefined {
  if (specifier.startsWith(".")) {
    if (rule.areas === "any") return undefined;
    const target = relative(ROOT, resolve(file, "..", specifier));
    if (!target.includes("/")) {
      return rule.rootFiles?.includes(target)
        ? undefined
        : `${area}/ may not import the root file ${target}`;
    }
    const targetArea = target.split("/")[0] as Area;
    return rule.areas.includes(targetArea)
      ? undefined
      : `${area}/ may import only ${rule.areas.map((a) => `${a}/`).join(", ")}, not ${targetArea}/`;
  }
  if (rule.packages === "any") return undefined;
  if (rule.packages === "dependencies") {
    return specifier.startsWith("node:") || DEPENDENCIES.has(packageName(specifier))
      ? undefined
      : `${area}/ may import only node: built-ins and package.json dependencies, not ${specifier}`;
  }
  if (rule.nodeBuiltins && specifier.startsWith("node:")) return undefined;
  return rule.packages.has(specifier)
    ? undefined
    : `${area}/ may import only ${rule.nodeBuiltins ? "node: built-ins, " : ""}${[...rule.packages].join(", ")}, not ${specifier}`;
}

function describeViolation(violation: Violation): string {
  return `${violation.file} imports "${violation.specifier}": ${violation.why}`;
}

describe("architecture: imports between areas follow the table", () => {
  const checked = (Object.keys(RULES) as Area[]).filter(
    (area) => RULES[area].areas !== "any" || RULES[area].packages !== "any",
  );
  const files = checked.flatMap((area) => sourceFiles(join(ROOT, area)));

  it("has files to look at in every checked area", () => {
    for (const area of checked) {
      if (LATER_AREAS.includes(area) && !existsSync(join(ROOT, area))) continue;
      expect(files.filter((file) => areaOf(file) === area).length, area).toBeGreaterThan(0);
    }
  });

  it.each(files.map((file) => [relative(ROOT, file)]))(
    "%s imports only what its area may",
    (file) => {
      expect(violations(join(ROOT, file)).map(describeViolation)).toEqual([]);
    },
  );

  it("catches I/O, app/ and GitHub imports in checks/", () => {
    const probe = join(ROOT, "checks", "probe.ts");
    const text =
      'import http from "node:http";\nimport { Octokit } from "@octokit/rest";\n' +
      'import { run } from "../action/main.js";\nimport { x } from "./config/digest.js";\n' +
      'const later = await import("probot");\n';
    expect(importsOf(text)).toHaveLength(5);
    expect(violations(probe, text).map((v) => v.specifier)).toEqual([
      "node:http",
      "@octokit/rest",
      "../action/main.js",
      "probot",
    ]);
  });

  it("catches action/ importing app/, and a root file other than package.json in schemas/", () => {
    const probe = join(ROOT, "action", "probe.ts");
    const text =
      'import { openStore } from "../app/store/open-store.js";\n' +
      'import type { Config } from "../schemas/config.js";\nimport { x } from "./git.js";\n' +
      'import { y } from "../checks/gate/decide.js";\nimport * as core from "@actions/core";\n';
    expect(violations(probe, text).map(describeViolation)).toEqual([
      'action/probe.ts imports "../app/store/open-store.js": action/ may import only schemas/, checks/, github/, action/, not app/',
    ]);
    const schema = join(ROOT, "schemas", "probe.ts");
    expect(
      violations(
        schema,
        'import p from "../package.json";\nimport c from "../tsconfig.json";\n',
      ).map((v) => v.specifier),
    ).toEqual(["../tsconfig.json"]);
  });

  it("catches app/ importing test/, scripts/, action/ or a test tool", () => {
    const probe = join(ROOT, "app", "runtime", "probe.ts");
    const text =
      'import { recordingLog } from "../../test/support/recording-log.js";\n' +
      'import { x } from "../../scripts/demo.js";\nimport { run } from "../../action/main.js";\n' +
      'import { expect } from "vitest";\nimport { Probot } from "probot";\n' +
      'import { startAgate } from "./server.js";\nimport Database from "better-sqlite3";\n' +
      'import { createServer } from "node:http";\nimport { z } from "zod/v4";\n';
    expect(violations(probe, text).map((v) => v.specifier)).toEqual([
      "../../test/support/recording-log.js",
      "../../scripts/demo.js",
      "../../action/main.js",
      "vitest",
    ]);
  });

  it("catches github/ importing Probot, @actions/*, app/ or action/", () => {
    const probe = join(ROOT, "github", "probe.ts");
    const text =
      'import { Probot } from "probot";\nimport * as core from "@actions/core";\n' +
      'import { x } from "../app/github/adapter.js";\nimport { y } from "../action/github.js";\n' +
      'import type { Octokit } from "@octokit/rest";\nimport { readFile } from "node:fs/promises";\n' +
      'import { z } from "../checks/github-answers.js";\nimport { w } from "./call.js";\n';
    expect(violations(probe, text).map((v) => v.specifier)).toEqual([
      "probot",
      "@actions/core",
      "../app/github/adapter.js",
      "../action/github.js",
    ]);
  });

  it("lets test/ and scripts/ import anything", () => {
    const text = 'import { x } from "../app/main.js";\nimport { y } from "../action/main.js";\n';
    expect(violations(join(ROOT, "scripts", "probe.ts"), text)).toEqual([]);
    expect(violations(join(ROOT, "test", "probe.ts"), text)).toEqual([]);
  });
});

// ---- rooms inside app/ and action/, and the pass's shape -------------------------------------

const DOMAINS = ["app/gate/", "app/entries/", "app/dashboard/"];
const APP_BELOW_DOMAINS = [
  "app/runtime/",
  "app/evaluator/",
  "app/github/",
  "app/store/",
  "app/kit/",
];

/**
 * The rooms inside app/ and action/, floor by floor from the top, keyed by path: "app/gate/" is
 * everything under that directory, "app/main.ts" one file, "action/*" the files directly in
 * action/. A room may import itself, and schemas/, checks/ and github/ (the table above); beyond
 * that, only the rooms it lists. The three domains never import each other (one queues another's
 * job through that job's spec in schemas/), and the runtime knows no domain (it is handed the job
 * registry and the route), so every arrow points down and a reader can learn one floor at a time.
 */
const ROOMS: Record<string, readonly string[]> = {
  // The composition root: settings → job registry and route → the server.
  "app/main.ts": ["app/compose.ts", ...DOMAINS, ...APP_BELOW_DOMAINS],
  "app/compose.ts": [...DOMAINS, ...APP_BELOW_DOMAINS],
  // The gate: its route and jobs, the pass (gather → decide → apply), merge groups, overrides.
  "app/gate/": ["app/runtime/", "app/evaluator/", "app/github/", "app/store/", "app/kit/"],
  // Handoff entries: their route, jobs and pass.
  "app/entries/": ["app/runtime/", "app/github/", "app/store/", "app/kit/"],
  // The triage dashboard's refresh job.
  "app/dashboard/": ["app/runtime/", "app/github/", "app/store/", "app/kit/"],
  // Intake, workers, job registry and routing machinery, server, settings, retention.
  "app/runtime/": ["app/evaluator/", "app/github/", "app/store/", "app/kit/"],
  // Model clients, the command judge and its sandbox (which hides the database), allow-lists.
  "app/evaluator/": ["app/store/", "app/kit/"],
  // The App's GitHub adapter, maintainers, the manifest.
  "app/github/": ["app/kit/"],
  // The durable store: ports, both backends, migrations.
  "app/store/": [],
  // Helpers that know no domain: backoff, keep trying, bounded maps.
  "app/kit/": [],
  // The agate-gate CLI.
  "action/cli/": ["action/*", "action/git/", "action/trace/"],
  // The Action: index.ts → main.ts, required commands, output digest, summary, upload.
  "action/*": ["action/git/", "action/trace/"],
  // The trace reader.
  "action/trace/": [],
  // agate's own git: executables, git, shadow git, snapshot.
  "action/git/": [],
};

/**
 * The pass's shape: checks/ is crossed to plan the reads and to decide, never from inside the
 * reads or the writes, so a delivery's walk to its check never returns to a room it left. gather
 * (and the evidence reader, app/gate/evidence.ts, and the trace reader beside it) executes a
 * read plan, so from checks/gate/ it takes only that plan (reads.ts) and types: provenance is
 * judged in the decision (checks/gate/evidence.ts), never while reading; apply
 * carries out the effects the decision listed, so it takes no value from checks/ at all. A type
 * counts only as `import type`: `import { type X }` still loads the module.
 */
const PASS_FILES: readonly {
  files: readonly string[];
  may: (to: string) => boolean;
  rule: string;
}[] = [
  {
    files: [
      "app/gate/gather.ts",
      "app/gate/gather/",
      "app/gate/evidence.ts",
      "app/gate/trace-report.ts",
    ],
    may: (to) => !to.startsWith("checks/gate/") || to === "checks/gate/reads.ts",
    rule: "gather executes the read plan: from checks/gate/ it may take only reads.ts, and types (import type)",
  },
  {
    files: ["app/gate/apply.ts"],
    may: (to) => !to.startsWith("checks/"),
    rule: "apply carries out the decision's effects: it may take no value from checks/, only types (import type)",
  },
];

/**
 * Arrows that break the two rules above today: each line is one importing file and the file it
 * imports, in the block of the package (of issue 30's plan) whose step removes it, with that step.
 * The test fails on an arrow not listed here, and on a line no import needs any more: removing an
 * arrow means deleting its line. Keep one arrow per line, so merges stay clean.
 */
const ALLOWED_ARROWS: readonly string[] = [
  // ---- A: the pass ----
  // ---- B: jobs and rooms ----
  // ---- C: foundations ----
];

interface Arrow {
  from: string;
  to: string;
  why: string;
}

/** Every import of a file, and whether it is type-only (`import type`, `export type`, `import("x").T`). */
function importsWithKind(text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile("probe.ts", text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly === true
        : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The room of a repository path ("app/gate/" for app/gate/gather/index.ts), if it is in one. */
function roomOf(path: string): string | undefined {
  if (Object.hasOwn(ROOMS, path)) return path;
  const parts = path.split("/");
  const key = parts.length === 2 ? `${parts[0]}/*` : `${parts[0]}/${parts[1]}/`;
  return Object.hasOwn(ROOMS, key) ? key : undefined;
}

/** Where a relative import lands, as a repository path of the source (`.js` names its `.ts`). */
function targetOf(from: string, specifier: string): string {
  return relative(ROOT, resolve(ROOT, from, "..", specifier)).replace(/\.js$/, ".ts");
}

/** The arrows of one file (a repository path) that break the room table or the pass's shape. */
function brokenArrows(from: string, text: string): Arrow[] {
  const area = from.split("/")[0];
  const fromRoom = roomOf(from);
  const pass = PASS_FILES.find((p) =>
    p.files.some((f) => (f.endsWith("/") ? from.startsWith(f) : from === f)),
  );
  const arrows: Arrow[] = [];
  for (const { specifier, typeOnly } of importsWithKind(text)) {
    if (!specifier.startsWith(".")) continue;
    const to = targetOf(from, specifier);
    const toRoom = roomOf(to);
    if (fromRoom && toRoom && fromRoom !== toRoom && to.split("/")[0] === area) {
      const may = ROOMS[fromRoom] ?? [];
      if (!may.includes(toRoom)) {
        const list = may.length > 0 ? may.join(", ") : "no other room";
        arrows.push({
          from,
          to,
          why: `${fromRoom} may import ${list} (and schemas/, checks/, github/), not ${toRoom}`,
        });
      }
    }
    if (pass && !typeOnly && !pass.may(to)) arrows.push({ from, to, why: pass.rule });
  }
  return arrows;
}

const arrowKey = (arrow: Pick<Arrow, "from" | "to">): string => `${arrow.from} -> ${arrow.to}`;

function unlistedArrows(arrows: readonly Arrow[], allowed: readonly string[]): string[] {
  return arrows
    .filter((arrow) => !allowed.includes(arrowKey(arrow)))
    .map(
      (arrow) =>
        `${arrowKey(arrow)}: ${arrow.why}. Make the arrow point down (move the code to the room it belongs in), ` +
        `or, to let it stand until a named step removes it, add this line to ALLOWED_ARROWS in ` +
        `test/architecture.test.ts, in the block of the package that will remove it: ` +
        `"${arrowKey(arrow)}", // <step that removes it>`,
    );
}

function unneededAllowances(arrows: readonly Arrow[], allowed: readonly string[]): string[] {
  const made = new Set(arrows.map(arrowKey));
  return allowed
    .filter((line) => !made.has(line))
    .map(
      (line) =>
        `ALLOWED_ARROWS lists "${line}", which no import makes any more: delete that line from test/architecture.test.ts`,
    );
}

describe("architecture: rooms inside app/ and action/, and the pass's shape", () => {
  const files = (["app", "action"] as const)
    .flatMap((area) => sourceFiles(join(ROOT, area)))
    .map((file) => relative(ROOT, file));
  const arrows = files.flatMap((file) =>
    brokenArrows(file, readFileSync(join(ROOT, file), "utf8")),
  );

  it("puts every file of app/ and action/ in a room", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(
      files
        .filter((file) => roomOf(file) === undefined)
        .map(
          (file) =>
            `${file} is in no room: add its room to ROOMS in test/architecture.test.ts (with the rooms it may import) and a row to AGENTS.md's map, or move it into a room`,
        ),
    ).toEqual([]);
  });

  it("has every arrow between rooms point down the floors, or listed in ALLOWED_ARROWS", () => {
    expect(unlistedArrows(arrows, ALLOWED_ARROWS)).toEqual([]);
  });

  it("has no line in ALLOWED_ARROWS that no import needs", () => {
    expect(new Set(ALLOWED_ARROWS).size).toBe(ALLOWED_ARROWS.length);
    expect(unneededAllowances(arrows, ALLOWED_ARROWS)).toEqual([]);
  });

  /** The arrows a probe file of these imports (`from` specifiers) would break. */
  const probe = (file: string, ...from: string[]): string[] =>
    brokenArrows(file, from.map((specifier) => `import { x } from "${specifier}";\n`).join("")).map(
      arrowKey,
    );

  it("catches a lower room importing a higher one, and one domain importing another", () => {
    expect(
      probe(
        "app/evaluator/probe.ts",
        "../gate/route.js",
        "../store/store.js",
        "../runtime/backoff.js",
        "./judge.js",
      ),
    ).toEqual([
      "app/evaluator/probe.ts -> app/gate/route.ts",
      "app/evaluator/probe.ts -> app/runtime/backoff.ts",
    ]);
    expect(
      probe(
        "app/entries/probe.ts",
        "../gate/jobs.js",
        "../runtime/worker.js",
        "../github/adapter.js",
        "../../checks/entries/machine.js",
      ),
    ).toEqual(["app/entries/probe.ts -> app/gate/jobs.ts"]);
    // A type is an arrow too: a reader follows it all the same.
    expect(
      brokenArrows(
        "app/dashboard/probe.ts",
        'import type { GateDeps } from "../gate/jobs.js";\n',
      ).map(arrowKey),
    ).toEqual(["app/dashboard/probe.ts -> app/gate/jobs.ts"]);
    expect(
      brokenArrows("app/runtime/probe.ts", 'import { r } from "../gate/route.js";\n')[0]?.why,
    ).toBe(
      "app/runtime/ may import app/evaluator/, app/github/, app/store/, app/kit/ (and schemas/, checks/, github/), not app/gate/",
    );
    expect(probe("app/main.ts", "./gate/route.js", "./runtime/server.js")).toEqual([]);
  });

  it("catches the Action importing the CLI, and a room no one has named", () => {
    expect(probe("action/probe.ts", "./cli/main.js")).toEqual([
      "action/probe.ts -> action/cli/main.ts",
    ]);
    expect(probe("action/cli/probe.ts", "../main.js")).toEqual([]);
    expect(roomOf("app/somewhere/file.ts")).toBeUndefined();
    expect(roomOf("app/helpers.ts")).toBeUndefined();
    expect(roomOf("app/gate/gather/index.ts")).toBe("app/gate/");
    expect(roomOf("action/trace.ts")).toBe("action/*");
  });

  it("catches gather taking a decision from checks/gate/, and apply taking any value from checks/", () => {
    expect(
      probe(
        "app/gate/gather/probe.ts",
        "../../../checks/gate/decide.js",
        "../../../checks/gate/reads.js",
        "../../../checks/markdown.js",
      ),
    ).toEqual(["app/gate/gather/probe.ts -> checks/gate/decide.ts"]);
    // The evidence reader reads; the decision judges what it read.
    expect(
      probe(
        "app/gate/evidence.ts",
        "../../checks/gate/provenance.js",
        "../../checks/gate/reads.js",
      ),
    ).toEqual(["app/gate/evidence.ts -> checks/gate/provenance.ts"]);
    // Only `import type` is a type: `import { type X }` still loads the module.
    const types =
      'import type { GatePlan } from "../../../checks/gate/plan.js";\n' +
      'import { type Listing } from "../../../checks/gate/listing.js";\n';
    expect(brokenArrows("app/gate/gather/probe.ts", types).map(arrowKey)).toEqual([
      "app/gate/gather/probe.ts -> checks/gate/listing.ts",
    ]);
    expect(
      brokenArrows("app/gate/apply.ts", 'import type { P } from "../../checks/gate/plan.js";\n'),
    ).toEqual([]);
    expect(probe("app/gate/apply.ts", "../../checks/markdown.js", "./check-runs.js")).toEqual([
      "app/gate/apply.ts -> checks/markdown.ts",
    ]);
  });

  it("says which line to add for a new arrow, and which to delete for one gone", () => {
    const arrow = { from: "app/evaluator/a.ts", to: "app/gate/b.ts", why: "why" };
    expect(unlistedArrows([arrow], [])).toEqual([
      expect.stringContaining(
        'add this line to ALLOWED_ARROWS in test/architecture.test.ts, in the block of the package that will remove it: "app/evaluator/a.ts -> app/gate/b.ts", //',
      ),
    ]);
    expect(unlistedArrows([arrow], ["app/evaluator/a.ts -> app/gate/b.ts"])).toEqual([]);
    expect(unneededAllowances([], ["app/x.ts -> app/y/z.ts"])).toEqual([
      'ALLOWED_ARROWS lists "app/x.ts -> app/y/z.ts", which no import makes any more: delete that line from test/architecture.test.ts',
    ]);
  });
});

// ---- GitHub calls: made in github/, counted there -------------------------------------------

/**
 * Every REST call (`.rest.…`, `.paginate(`, `.request(` on a client) is made in github/, by GitHub
 * area over one counted call helper, which the App reaches through app/github/adapter.ts and the
 * CLI directly: one implementation of each call, and every call of a job counted. Files outside
 * that make calls of their own today are listed with the step that moves them.
 */
const CALLS_ALLOWED: readonly string[] = [
  // ---- B: jobs and rooms ----
  // ---- C: foundations ----
];

const REST_CALL = /\.(rest\.[a-z]+\.[a-zA-Z]+|paginate|request)\(/;

function makesRestCalls(text: string): boolean {
  return text.split("\n").some((line) => !/^\s*(\/\/|\*)/.test(line) && REST_CALL.test(line));
}

describe("architecture: GitHub's REST calls are made in github/", () => {
  const files = (["app", "action"] as const)
    .flatMap((area) => sourceFiles(join(ROOT, area)))
    .map((file) => relative(ROOT, file));
  const calling = files.filter((file) => makesRestCalls(readFileSync(join(ROOT, file), "utf8")));

  it("has no REST call outside github/ but the listed files, and no listed file without one", () => {
    expect(
      calling
        .filter((file) => !CALLS_ALLOWED.includes(file))
        .map(
          (file) =>
            `${file} calls GitHub's REST API itself: make the call in github/<area>.ts (the App reaches it through app/github/adapter.ts)`,
        ),
    ).toEqual([]);
    expect(CALLS_ALLOWED.filter((file) => !calling.includes(file))).toEqual([]);
  });

  it("catches a call through rest, paginate or request, and not a comment naming one", () => {
    expect(makesRestCalls("  const { data } = await octokit.rest.issues.get({ owner });")).toBe(
      true,
    );
    expect(makesRestCalls("  return this.octokit.paginate(this.octokit.rest.x.y, {});")).toBe(true);
    expect(makesRestCalls('  await client.request("GET /repos/{owner}/{repo}", {});')).toBe(true);
    expect(makesRestCalls("  // octokit.rest.issues.get({ owner })\n * .paginate(x)")).toBe(false);
    expect(makesRestCalls("  const answer = await fetch(url);")).toBe(false);
  });
});
