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
      .filter((line) => line.startsWith("COPY "))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    expect(copied).toEqual(["package.json", "package-lock.json", "app.yml", "dist/app"]);
    for (const path of copied) expect(existsSync(join(ROOT, path)), path).toBe(true);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe("node dist/app/index.js");
    expect(instructions.at(-1)).toBe('CMD ["node", "dist/app/index.js"]');
    expect(instructions).toContain("USER node");
    expect(instructions.find((line) => line.startsWith("RUN npm ci"))).toContain("--omit=dev");
  });
});
