import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

/**
 * checks/ and schemas/ get facts and return decisions. Everything they may import is listed
 * here; anything else (app/, action/, probot, octokit, @actions/*, node:http, node:fs, ...)
 * would let I/O creep into the decision logic, so it fails this test rather than a review.
 */
const PURE_DIRS = ["checks", "schemas"];
const ALLOWED_PACKAGES = new Set(["zod", "yaml", "picomatch", "node:crypto"]);

function sourceFiles(dir: string): string[] {
  return (
    readdirSync(dir, { withFileTypes: true, recursive: true })
      // Tests beside the logic may touch real files; the logic itself may not.
      .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
      .filter((entry) => !/\.test\.ts$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name))
  );
}

function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
}

function violations(file: string, text = readFileSync(file, "utf8")): string[] {
  return importsOf(text).filter((specifier) => {
    if (specifier.startsWith(".")) {
      const target = relative(ROOT, resolve(file, "..", specifier));
      if (target === "package.json") return false; // agate's version, read at build time
      return !PURE_DIRS.some((dir) => target === dir || target.startsWith(`${dir}/`));
    }
    return !ALLOWED_PACKAGES.has(specifier);
  });
}

describe("architecture: checks/ and schemas/ stay pure", () => {
  const files = PURE_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir)));

  it("has files to look at", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((file) => [relative(ROOT, file)]))("%s imports only pure modules", (file) => {
    expect(violations(join(ROOT, file))).toEqual([]);
  });

  it("the rule catches I/O, app/ and GitHub imports", () => {
    const probe = join(ROOT, "checks", "probe.ts");
    const text =
      'import http from "node:http";\nimport { Octokit } from "@octokit/rest";\n' +
      'import { run } from "../action/main.js";\nimport { x } from "./config/digest.js";\n' +
      'const later = await import("probot");\n';
    expect(importsOf(text)).toHaveLength(5);
    expect(violations(probe, text)).toEqual([
      "node:http",
      "@octokit/rest",
      "../action/main.js",
      "probot",
    ]);
  });
});
