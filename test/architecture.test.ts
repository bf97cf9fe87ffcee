import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

type Area = "schemas" | "checks" | "app" | "action" | "scripts" | "test";

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
  app: { areas: ["schemas", "checks", "app"], packages: "dependencies" },
  action: { areas: ["schemas", "checks", "action"], packages: "dependencies" },
  scripts: { areas: "any", packages: "any" },
  test: { areas: "any", packages: "any" },
};

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
  return rule.packages.has(specifier)
    ? undefined
    : `${area}/ may import only ${[...rule.packages].join(", ")}, not ${specifier}`;
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
      'action/probe.ts imports "../app/store/open-store.js": action/ may import only schemas/, checks/, action/, not app/',
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

  it("lets test/ and scripts/ import anything", () => {
    const text = 'import { x } from "../app/main.js";\nimport { y } from "../action/main.js";\n';
    expect(violations(join(ROOT, "scripts", "probe.ts"), text)).toEqual([]);
    expect(violations(join(ROOT, "test", "probe.ts"), text)).toEqual([]);
  });
});
