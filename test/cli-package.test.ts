import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_PACKAGE } from "../checks/handoff/verify.js";
import { cliManifest, packCli } from "../scripts/pack-cli.js";
import { GIT_ENV, makeRepo, type TestRepo } from "./support/git-repo.js";
import { tempDir } from "./support/store.js";

/**
 * The npm package `agate-gate` as a person gets it: packed by the release's script, installed
 * from the tarball into an empty project with the registry out of reach (it has no dependencies to
 * fetch), and run from node_modules/.bin. The repository's own package.json is the App's.
 */
const ROOT = resolve(import.meta.dirname, "..");
const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  private?: boolean;
  dependencies: Record<string, string>;
};

let temp: { dir: string; cleanup: () => void };
let tarball: string;
let project: string;
let repo: TestRepo | undefined;

beforeAll(() => {
  temp = tempDir();
  tarball = packCli(join(temp.dir, "packed"));
  project = join(temp.dir, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    '{ "name": "someone-elses-project", "private": true }\n',
  );
}, 60_000);
afterAll(() => {
  repo?.remove();
  temp.cleanup();
});

describe("the npm package agate-gate", () => {
  it("is the CLI bundle alone: no dependencies, its licence and README, nothing of the App", () => {
    const listed = spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split("\n").sort()).toEqual([
      "package/LICENSE",
      "package/README.md",
      "package/index.js",
      "package/package.json",
    ]);
    const manifest = cliManifest(
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Parameters<
        typeof cliManifest
      >[0],
    );
    expect(manifest).toMatchObject({
      name: CLI_PACKAGE,
      version: root.version,
      bin: { [CLI_PACKAGE]: "index.js" },
    });
    expect(manifest).not.toHaveProperty("dependencies");
    // The App's package is not the one published: it stays private, with the App's dependencies.
    expect(root.private).toBe(true);
    expect(root.name).not.toBe(CLI_PACKAGE);
    expect(Object.keys(root.dependencies)).toContain("probot");
  });

  it("installs from the tarball without the registry and runs validate, a Stop hook and --version from node_modules/.bin", () => {
    const installed = spawnSync(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball],
      { cwd: project, encoding: "utf8" },
    );
    expect(installed.status, installed.stderr).toBe(0);
    const bin = join(project, "node_modules", ".bin", CLI_PACKAGE);

    const version = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(root.version);

    repo = makeRepo();
    repo.commit({
      ".github/agate.yml": "version: 1\ncommands:\n  - name: test\n    run: 'true'\n",
    });
    const valid = spawnSync(bin, ["validate"], {
      cwd: repo.dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, ...GIT_ENV },
    });
    expect(valid.status, valid.stderr).toBe(0);
    expect(valid.stdout).toContain(".github/agate.yml is a valid agate config (1 required command");
    // The Stop hooks ship as subcommands of the same bin (docs/agents.md): Claude Code's input on
    // stdin, its output format on stdout; with no token the stop goes through, saying why.
    const hook = spawnSync(bin, ["hook", "claude-code"], {
      cwd: repo.dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, ...GIT_ENV },
      input: JSON.stringify({
        session_id: "s",
        transcript_path: join(repo.dir, "t.jsonl"),
        cwd: repo.dir,
        permission_mode: "default",
        hook_event_name: "Stop",
        stop_hook_active: false,
      }),
    });
    expect(hook.status, hook.stderr).toBe(0);
    expect(JSON.parse(hook.stdout).systemMessage).toContain("no token");
    // Nothing but the package itself was installed.
    const tree = spawnSync("npm", ["ls", "--all", "--parseable"], {
      cwd: project,
      encoding: "utf8",
    });
    expect(tree.stdout.trim().split("\n").slice(1)).toEqual([
      join(project, "node_modules", CLI_PACKAGE),
    ]);
  }, 60_000);
});
