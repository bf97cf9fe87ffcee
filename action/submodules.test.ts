/**
 * Submodules (issue 26, item 6), found by trying with real repositories: git sees a submodule only
 * through its checked-out commit, so files a command writes inside one (its empty directory when
 * it was never initialised, as actions/checkout leaves it), edits, new files and an
 * initialisation were no difference, and a command could change what a later one runs without a
 * trace. The record now names the submodule as a changed path (commands[].writes then decides).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GIT_ENV, makeRepo, type TestRepo } from "../test/support/git-repo.js";
import { createShadowGit, pathText, workTreeState } from "./git/shadow-git.js";
import { changedBetween, testedCommit } from "./git/snapshot.js";
import { type RunLog, runRequiredCommands } from "./required-commands.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "protocol.file.allow=always", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...GIT_ENV },
  });

/** A repository whose `lib` is a submodule (its check.sh fails), and a clone of it. */
function withSubmodule(config = ""): { main: TestRepo; clone: string } {
  const lib = makeRepo("agate-lib-");
  cleanups.push(() => lib.remove());
  lib.commit({ "check.sh": "exit 1\n" });
  const main = makeRepo("agate-main-");
  cleanups.push(() => main.remove());
  main.write({ "a.txt": "a\n", ...(config ? { ".github/agate.yml": config } : {}) });
  git(main.dir, "submodule", "add", "--quiet", lib.dir, "lib");
  git(main.dir, "add", "--all");
  git(main.dir, "commit", "--quiet", "-m", "with a submodule");
  const parent = mkdtempSync(join(tmpdir(), "agate-clone-"));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const clone = join(parent, "clone");
  git(parent, "clone", "--quiet", main.dir, clone);
  return { main, clone };
}

function changesAfter(clone: string, command: () => void): string[] {
  const scratch = mkdtempSync(join(tmpdir(), "agate-shadow-"));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const shadow = createShadowGit({
    cwd: clone,
    sha: testedCommit(clone).sha,
    gitDir: join(scratch, "shadow"),
  });
  const before = workTreeState(shadow);
  expect([...before.keys()]).toEqual([]);
  command();
  return changedBetween(before, workTreeState(shadow)).map(pathText);
}

describe("a command that changes a submodule's content is seen", () => {
  it("files written into a submodule never initialised (its empty directory)", () => {
    const { clone } = withSubmodule();
    expect(
      changesAfter(clone, () => writeFileSync(join(clone, "lib", "check.sh"), "exit 0\n")),
    ).toEqual(["lib"]);
  });

  it("initialising it, editing a file in it, adding one to it", () => {
    let { clone } = withSubmodule();
    expect(
      changesAfter(clone, () => git(clone, "submodule", "update", "--quiet", "--init")),
    ).toEqual(["lib"]);
    ({ clone } = withSubmodule());
    git(clone, "submodule", "update", "--quiet", "--init");
    expect(
      changesAfter(clone, () => writeFileSync(join(clone, "lib", "check.sh"), "exit 0\n")),
    ).toEqual(["lib"]);
    expect(changesAfter(clone, () => writeFileSync(join(clone, "lib", "new.sh"), "x\n"))).toEqual([
      "lib",
    ]);
  });

  it("and nothing when a command leaves it alone (git reading it included)", () => {
    const { clone } = withSubmodule();
    git(clone, "submodule", "update", "--quiet", "--init");
    expect(
      changesAfter(clone, () => {
        git(join(clone, "lib"), "status", "--short");
        writeFileSync(join(clone, "a.txt"), "b\n");
      }),
    ).toEqual(["a.txt"]);
  });

  it("the record names it, so a command that may not write there is told apart from one that may", async () => {
    const config =
      'version: 1\ncommands:\n  - name: fix\n    run: "printf \'exit 0\\\\n\' > lib/check.sh"\n  - name: check\n    run: "sh lib/check.sh"\n';
    const { main, clone } = withSubmodule(config);
    const quiet: RunLog = { info() {}, command: (_name, run) => run(), output() {} };
    const outcome = await runRequiredCommands({
      cwd: clone,
      configPath: ".github/agate.yml",
      baseSha: main.git("rev-parse", "HEAD").trim(),
      env: { PATH: process.env.PATH },
      stateDir: join(clone, ".git", "agate"),
      log: quiet,
      repository: "octo/repo",
    });
    if (outcome.kind !== "ran") throw new Error("expected the commands to run");
    expect(outcome.record.commands.map((c) => [c.name, c.exit_code, c.changed_paths])).toEqual([
      ["fix", 0, ["lib"]],
      ["check", 0, []],
    ]);
    expect(outcome.record.tested.clean).toBe(false);
  });
});
