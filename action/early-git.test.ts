import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../test/support/git-repo.js";
import { type EarlyGitTarget, earlyGitFromEnv, startEarlyGit } from "./early-git.js";
import { HEAD_COMMIT, readObjects } from "./git/git.js";
import { createShadowGitWithState } from "./git/shadow-git.js";

const CONFIG = ".github/agate.yml";
let repo: TestRepo | undefined;
let scratch: string | undefined;
afterEach(() => {
  repo?.remove();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function setUp(): { target: EarlyGitTarget; base: string } {
  repo = makeRepo();
  scratch = mkdtempSync(join(tmpdir(), "agate-early-"));
  const base = repo.commit({ [CONFIG]: "version: 1\ncommands: []\n", "a.txt": "a\n" });
  repo.commit({ "a.txt": "b\n", "sub/b.txt": "b\n" });
  repo.write({ "new.txt": "n\n", "a.txt": "edited\n" });
  const target = { cwd: repo.dir, configPath: CONFIG, baseSha: base, gitDir: join(scratch, "git") };
  return { target, base };
}

describe("agate's early git", () => {
  it("reads what the run would read itself: the commit, the base config, the shadow and the state before the first command", async () => {
    const { target, base } = setUp();
    const read = await startEarlyGit(target).take(target);
    const dir = repo?.dir ?? "";
    expect(read?.objects).toEqual(readObjects(dir, [HEAD_COMMIT, `${base}:${CONFIG}`]));
    const shadowAgain = join(scratch ?? "", "again");
    const itself = createShadowGitWithState({
      cwd: dir,
      sha: read?.built?.sha ?? "",
      gitDir: shadowAgain,
    });
    expect(read?.built?.state).toEqual(itself.state);
    expect([...(read?.built?.state.keys() ?? [])]).toEqual(["a.txt", "new.txt"]);
    expect(read?.built?.shadow.workTree).toBe(itself.shadow.workTree);
    expect(existsSync(join(target.gitDir, "index"))).toBe(true);
  });

  it("is taken only for exactly the run's own inputs, once; otherwise its shadow is removed", async () => {
    const { target } = setUp();
    for (const other of [
      { configPath: ".github/other.yml" },
      { baseSha: "0".repeat(40) },
      { cwd: join(target.cwd, "sub") },
      { gitDir: join(scratch ?? "", "elsewhere") },
    ]) {
      const early = startEarlyGit(target);
      expect(await early.take({ ...target, ...other })).toBeUndefined();
      expect(existsSync(target.gitDir)).toBe(false);
    }
    const early = startEarlyGit(target);
    expect((await early.take(target))?.built).toBeDefined();
    expect(await early.take(target)).toBeUndefined();
    // Taken, the shadow is the caller's: discard() leaves it.
    await early.discard();
    expect(existsSync(target.gitDir)).toBe(true);
    const unused = startEarlyGit({ ...target, gitDir: join(scratch ?? "", "unused") });
    await unused.discard();
    expect(existsSync(join(scratch ?? "", "unused"))).toBe(false);
  });

  it("starts only for a pull request or merge group event on a runner, its inputs as action.yml defaults them", () => {
    const { target, base } = setUp();
    const event = join(scratch ?? "", "event.json");
    writeFileSync(event, JSON.stringify({ pull_request: { base: { sha: base } } }));
    const env = {
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: event,
      RUNNER_TEMP: scratch,
      "INPUT_WORKING-DIRECTORY": target.cwd,
    };
    expect(earlyGitFromEnv(env)).toBeDefined();
    expect(earlyGitFromEnv({ ...env, GITHUB_EVENT_NAME: "push" })).toBeUndefined();
    expect(earlyGitFromEnv({ ...env, RUNNER_TEMP: undefined })).toBeUndefined();
    expect(
      earlyGitFromEnv({ ...env, GITHUB_EVENT_PATH: join(scratch ?? "", "none") }),
    ).toBeUndefined();
  });
});
