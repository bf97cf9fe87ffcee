import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GIT_ENV, makeRepo, type TestRepo } from "../../test/support/git-repo.js";
import {
  createShadowGit,
  createShadowGitWithState,
  pathText,
  type ShadowGit,
  workTreeState,
} from "./shadow-git.js";
import { changedBetween, testedCommit } from "./snapshot.js";

let repo: TestRepo | undefined;
let scratch: string | undefined;
afterEach(() => {
  repo?.remove();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  repo = undefined;
  scratch = undefined;
});

function shadowOf(dir: string, sha = testedCommit(dir).sha): ShadowGit {
  scratch = mkdtempSync(join(tmpdir(), "agate-shadow-"));
  return createShadowGit({ cwd: dir, sha, gitDir: join(scratch, "shadow") });
}

const names = (state: Map<string, string>) => [...state.keys()].map(pathText);

describe("the shadow git dir", () => {
  it("sees edits, deletions, new files, mode changes, symlinks and odd names; not ignored files", () => {
    repo = makeRepo();
    repo.commit({
      "a.txt": "a\n",
      "run.sh": "echo\n",
      "gone.txt": "x\n",
      pipe: "a file, then a FIFO\n",
      ".gitignore": "*.log\n",
    });
    const shadow = shadowOf(repo.dir);
    const before = workTreeState(shadow);
    expect(before.size).toBe(0);

    // a.txt: same size, in the same second as the checkout: git's "racy" case.
    repo.write({
      "a.txt": "b\n",
      "gone.txt": null,
      "new dir/with space.txt": "n\n",
      "x.log": "l\n",
    });
    chmodSync(join(repo.dir, "run.sh"), 0o755);
    symlinkSync("/etc/passwd", join(repo.dir, "link"));
    writeFileSync(join(repo.dir, "tab\there.txt"), "t\n");
    writeFileSync(
      Buffer.concat([Buffer.from(`${repo.dir}/`), Buffer.from([0x6c, 0xe9, 0x2e, 0x74])]),
      "latin1 name\n",
    );
    rmSync(join(repo.dir, "pipe"));
    execFileSync("mkfifo", [join(repo.dir, "pipe")]);

    const after = workTreeState(shadow);
    expect(names(after)).toEqual(
      [
        "a.txt",
        "gone.txt",
        "link",
        "new dir/with space.txt",
        "pipe",
        "run.sh",
        "tab\there.txt",
        Buffer.from([0x6c, 0xe9, 0x2e, 0x74]).toString("utf8"),
      ].sort((x, y) => Buffer.compare(Buffer.from(x, "latin1"), Buffer.from(y, "latin1"))),
    );
    expect(after.get("gone.txt")).toBe("deleted");
    expect(after.get("run.sh")).toMatch(/^100755 [0-9a-f]{40}$/);
    // A symlink is hashed as git stores it (its target), never followed; a FIFO is not opened.
    expect(after.get("link")).toBe(
      `120000 ${execFileSync("git", ["hash-object", "--stdin"], { input: "/etc/passwd", encoding: "utf8" }).trim()}`,
    );
    expect(after.get("pipe")).toBe("other");
    expect(after.get("a.txt")).toBe(
      `100644 ${execFileSync("git", ["hash-object", join(repo.dir, "a.txt")], { encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim()}`,
    );
    expect(changedBetween(before, after)).toEqual([...after.keys()]);
    // Same content again: the same token, so no change between the two.
    expect(changedBetween(after, workTreeState(shadow))).toEqual([]);
  });

  it("works for a split index, a linked worktree and a sha256 repository", () => {
    repo = makeRepo();
    repo.git("config", "core.splitIndex", "true");
    repo.commit({ "a.txt": "a\n", "b.txt": "b\n" });
    expect(repo.git("rev-parse", "--git-path", "index").trim()).toBe(".git/index");
    let shadow = shadowOf(repo.dir);
    repo.write({ "b.txt": "changed\n" });
    expect(names(workTreeState(shadow))).toEqual(["b.txt"]);
    rmSync(scratch ?? "", { recursive: true, force: true });

    const linked = join(repo.dir, "..", `${repo.dir.split("/").pop()}-linked`);
    repo.git("worktree", "add", "--quiet", "--detach", linked);
    try {
      shadow = shadowOf(linked);
      writeFileSync(join(linked, "c.txt"), "c\n");
      expect(names(workTreeState(shadow))).toEqual(["c.txt"]);
      expect(shadow.workTree).toBe(linked);
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
    rmSync(scratch ?? "", { recursive: true, force: true });

    const sha256 = mkdtempSync(join(tmpdir(), "agate-sha256-"));
    try {
      const g = (...args: string[]) =>
        execFileSync("git", args, {
          cwd: sha256,
          encoding: "utf8",
          env: { ...process.env, ...GIT_ENV },
        });
      g("init", "--quiet", "--object-format=sha256");
      writeFileSync(join(sha256, "a.txt"), "a\n");
      g("add", ".");
      g("commit", "--quiet", "-m", "x");
      shadow = shadowOf(sha256);
      expect(shadow.objectFormat).toBe("sha256");
      writeFileSync(join(sha256, "a.txt"), "b\n");
      const state = workTreeState(shadow);
      expect(state.get("a.txt")).toBe(`100644 ${g("hash-object", "a.txt").trim()}`);
    } finally {
      rmSync(sha256, { recursive: true, force: true });
    }
  });

  it("what was staged before (by an earlier step) is a difference from the tested commit", () => {
    repo = makeRepo();
    repo.commit({ "a.txt": "a\n" });
    repo.write({ "a.txt": "staged\n", "b.txt": "new\n" });
    repo.git("add", "a.txt", "b.txt");
    const state = workTreeState(shadowOf(repo.dir));
    expect(names(state)).toEqual(["a.txt", "b.txt"]);
  });

  it("restore rewrites whatever was written into the shadow; remove deletes it", () => {
    repo = makeRepo();
    repo.commit({ "a.txt": "a\n" });
    const shadow = shadowOf(repo.dir);
    writeFileSync(join(shadow.gitDir, "config"), "[core]\n\tfsmonitor = /bin/false\n");
    writeFileSync(join(shadow.gitDir, "info", "exclude"), "*\n");
    writeFileSync(join(repo.dir, "hidden.txt"), "x\n");
    expect(names(workTreeState(shadow))).toEqual(["hidden.txt"]);
    shadow.remove();
    expect(existsSync(shadow.gitDir)).toBe(false);
  });

  it("reads the same state and submodules with the shadow, in one git process, as workTreeState after", () => {
    repo = makeRepo();
    const sha = repo.commit({
      "a.txt": "a\n",
      "gone.txt": "x\n",
      "kept.txt": "k\n",
      ".gitignore": "*.log\n",
    });
    const gitIn = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo?.dir, env: { ...process.env, ...GIT_ENV } });
    // A gitlink (a submodule never initialised: its directory holds what a step wrote there).
    gitIn("update-index", "--add", "--cacheinfo", `160000,${sha},sub`);
    gitIn("commit", "--quiet", "-m", "a submodule");
    const tested = testedCommit(repo.dir).sha;
    repo.write({
      "a.txt": "changed\n",
      "gone.txt": null,
      "sub/file": "in the submodule\n",
      "new dir/with space.txt": "n\n",
      "x.log": "ignored\n",
    });
    writeFileSync(join(repo.dir, "tab\there.txt"), "t\n");
    writeFileSync(
      Buffer.concat([Buffer.from(`${repo.dir}/`), Buffer.from([0x6c, 0xe9, 0x2e, 0x74])]),
      "latin1 name\n",
    );
    const read = workTreeState(shadowOf(repo.dir, tested));
    const other = mkdtempSync(join(tmpdir(), "agate-shadow-"));
    try {
      const both = createShadowGitWithState({
        cwd: repo.dir,
        sha: tested,
        gitDir: join(other, "shadow"),
      });
      // Modified, deleted and new files (odd names too), not the ignored one.
      expect(names(both.state)).toHaveLength(5);
      expect(names(both.state)).toEqual(
        expect.arrayContaining(["a.txt", "gone.txt", "tab\there.txt"]),
      );
      expect(both.state).toEqual(read);
      expect([...both.shadow.submodules.keys()]).toEqual(["sub"]);
      expect(both.shadow.submodules).toEqual(shadowOf(repo.dir, tested).submodules);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
