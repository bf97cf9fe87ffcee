import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandRecordSchema } from "../schemas/command-record.js";
import { GIT_ENV, makeRepo, type TestRepo } from "../test/support/git-repo.js";

const CLI = resolve(import.meta.dirname, "..", "dist", "cli", "index.js");
const agate = (repo: TestRepo, ...args: string[]) =>
  spawnSync(CLI, args, {
    cwd: repo.dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...GIT_ENV },
  });

let repo: TestRepo;
afterEach(() => repo?.remove());

describe("agate run (dist/cli/index.js), with no credentials", () => {
  it("runs the base config's commands, prints a table, writes the record under .git", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - name: greet\n    run: echo hi\n  - name: check\n    run: test -f done.txt\n",
    });
    repo.git("checkout", "--quiet", "-b", "agent/task");
    repo.commit({
      "done.txt": "yes\n",
      ".github/agate.yml": "version: 1\ncommands:\n  - name: greet\n    run: 'true'\n",
    });

    const result = agate(repo, "run");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /command\s+result\s+duration\ngreet\s+✓ passed\s+\d+ms\ncheck\s+✓ passed/,
    );
    expect(result.stdout).toContain("agate: 2 of 2 required commands passed on");
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(join(repo.dir, ".git", "agate", "command-record.json"), "utf8")),
    );
    expect(record.workflow).toBeNull();
    expect(record.tested.sha).toBe(repo.git("rev-parse", "HEAD").trim());
  });

  it("exits 1 when a command fails, 2 on a config error, and --base picks the base", () => {
    repo = makeRepo();
    const good = repo.commit({
      ".github/agate.yml": "version: 1\ncommands:\n  - { name: f, run: exit 3 }\n",
    });
    repo.commit({ ".github/agate.yml": "version: 1\ncommands: oops\n" });
    const failed = agate(repo, "run", "--base", good);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain("f        ✗ failed (exit 3)");
    const broken = agate(repo, "run", "--base", "HEAD");
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('commands at line 2, column 11: expected a list, got "oops"');
  });

  it("works in the shadow git dir under .git/agate while commands run, names each command's changes, leaves no shadow", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml":
        "version: 1\ncommands:\n  - name: shadow\n    run: test -f .git/agate/shadow-git/HEAD\n  - name: build\n    run: echo out > built.txt\n",
      ".gitignore": "ignored.txt\n",
    });
    // A file the person ignores everywhere (their global ignore file) is not a change either.
    const home = join(repo.dir, ".git", "home");
    mkdirSync(join(home, ".config", "git"), { recursive: true });
    writeFileSync(join(home, ".config", "git", "ignore"), ".idea/\n");
    repo.write({ ".idea/workspace.xml": "<x/>\n" });
    const result = spawnSync(CLI, ["run"], {
      cwd: repo.dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, ...GIT_ENV, HOME: home },
    });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const record = commandRecordSchema.parse(
      JSON.parse(readFileSync(join(repo.dir, ".git", "agate", "command-record.json"), "utf8")),
    );
    expect(record.commands.map((c) => [c.name, c.exit_code, c.changed_paths])).toEqual([
      ["shadow", 0, []],
      ["build", 0, ["built.txt"]],
    ]);
    expect(record.tested).toMatchObject({ clean_before: true, clean: false });
    expect(existsSync(join(repo.dir, ".git", "agate", "shadow-git"))).toBe(false);
  });

  it("usage errors exit 2 with the usage; --version prints the version", () => {
    repo = makeRepo();
    expect(agate(repo, "frobnicate").status).toBe(2);
    expect(agate(repo, "run", "--nope").stderr).toContain("Usage:");
    expect(agate(repo, "--version").stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("agate handoff (dist/cli/index.js)", () => {
  it("writes the file from agate run's record, keeps what was written, exits 2 on what to fix", () => {
    repo = makeRepo();
    repo.commit({
      ".github/agate.yml": "version: 1\ncommands:\n  - name: unit\n    run: 'true'\n",
    });
    repo.git("checkout", "--quiet", "-b", "agent/task");
    repo.commit({ "src/a.ts": "a\n" });

    const noTask = agate(repo, "handoff");
    expect(noTask.status).toBe(2);
    expect(noTask.stderr).toContain("there is no .agate/handoff.md yet: pass --task");

    expect(agate(repo, "run").status).toBe(0);
    const first = agate(repo, "handoff", "--task", "#12", "--open-item", "a", "--open-item", "b");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain(
      "agate: .agate/handoff.md written: status in-progress, 1 changed file, last_command `true` (exit 0).",
    );
    const text = readFileSync(join(repo.dir, ".agate", "handoff.md"), "utf8");
    expect(text).toMatch(
      /^---\ntask: "#12"\nbranch: agent\/task\nstatus: in-progress\nchanged_files:\n {2}- src\/a\.ts\nlast_command:\n {2}run: "true"\n {2}exit_code: 0\n/,
    );
    expect(text).toContain("open_items:\n  - a\n  - b\n---\n");

    const again = agate(repo, "handoff", "--status", "ready", "--open-item", "");
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain("updated: status ready");
    expect(readFileSync(join(repo.dir, ".agate", "handoff.md"), "utf8")).toContain('task: "#12"');

    const bad = agate(repo, "handoff", "--status", "done");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--status "done" is not one of in-progress, ready, blocked');
    const unknown = agate(repo, "handoff", "--colour");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Usage:");
    expect(agate(repo, "handoff", "--help").stdout).toContain("agate handoff [--base REF]");
  });
});
