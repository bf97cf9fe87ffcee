// The simulator writes blobs, trees and commits in process (loose objects) and reads refs from
// their files: the SHAs must be exactly the ones git computes, and git must read what it wrote.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitRepository } from "./git.js";

const repos: GitRepository[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.remove();
});

function bare(): GitRepository {
  const repo = GitRepository.createBare("main");
  repos.push(repo);
  return repo;
}

const git = (cwd: string, args: string[], input?: string, env?: Record<string, string>) =>
  execFileSync("git", args, {
    cwd,
    input,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...env },
  }).trim();

/** The tree git itself writes for these files (a throwaway index in a scratch repository). */
function gitTree(files: Record<string, { mode: string; content: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), "agate-git-oracle-"));
  try {
    git(dir, ["init", "--quiet", "--bare"]);
    const info = Object.entries(files)
      .map(([path, file]) => {
        const sha = git(dir, ["hash-object", "-w", "--stdin"], file.content);
        return `${file.mode} ${sha}\t${path}\0`;
      })
      .join("");
    const env = { GIT_INDEX_FILE: join(dir, "oracle-index") };
    git(dir, ["update-index", "-z", "--index-info"], info, env);
    return git(dir, ["write-tree"], undefined, env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("objects written in process", () => {
  it("writes the tree git writes: byte order, a tree sorting as name + '/', modes, nesting", () => {
    const repo = bare();
    const files: Record<string, { mode: string; content: string }> = {
      a: { mode: "100644", content: "a\n" },
      "a-b": { mode: "100644", content: "ab\n" },
      "a.txt": { mode: "100755", content: "#!/bin/sh\n" },
      "a/b": { mode: "100644", content: "nested\n" },
      "a/c/d": { mode: "100644", content: "deep\n" },
      "a0/x": { mode: "100644", content: "x\n" },
      Zed: { mode: "120000", content: "a.txt" },
      "ü.md": { mode: "100644", content: "unicode\n" },
    };
    // `a` and `a/b` cannot both exist; drop the file to keep a valid tree.
    delete files.a;
    const tree = repo.writeTree(
      undefined,
      Object.entries(files).map(([path, file]) => ({
        path,
        mode: file.mode,
        sha: repo.writeBlob(file.content),
      })),
    );
    expect(tree).toBe(gitTree(files));
    expect(git(repo.dir, ["fsck", "--strict", "--no-dangling"])).toBe("");
  });

  it("edits a base tree: replaces, adds, deletes, drops emptied directories, keeps untouched subtrees", () => {
    const repo = bare();
    const base = repo.commitFiles({
      parent: undefined,
      files: { "src/a.ts": "a\n", "src/b.ts": "b\n", "docs/x.md": "x\n", "keep/deep/k": "k\n" },
      message: "base\n",
      author: { name: "t", email: "t@example.com", time: 1_700_000_000 },
    });
    const next = repo.commitFiles({
      parent: base,
      files: { "src/a.ts": "A\n", "src/new/c.ts": "c\n", "docs/x.md": null, "missing/y": null },
      message: "next\n",
      author: { name: "t", email: "t@example.com", time: 1_700_000_100 },
    });
    const tree = repo.readCommit(next).tree;
    expect(tree).toBe(
      gitTree({
        "src/a.ts": { mode: "100644", content: "A\n" },
        "src/b.ts": { mode: "100644", content: "b\n" },
        "src/new/c.ts": { mode: "100644", content: "c\n" },
        "keep/deep/k": { mode: "100644", content: "k\n" },
      }),
    );
    expect(repo.entryAt(next, "keep")?.sha).toBe(repo.entryAt(base, "keep")?.sha);
    expect(repo.entryAt(next, "docs")).toBeUndefined();
    expect(git(repo.dir, ["fsck", "--strict", "--no-dangling"])).toBe("");
  });

  it("writes the commit `git commit-tree` writes, which git reads back", () => {
    const repo = bare();
    const tree = repo.writeTree(undefined, [
      { path: "f", mode: "100644", sha: repo.writeBlob("f\n") },
    ]);
    const author = { name: "A U Thor", email: "author@example.com", time: 1_700_000_000 };
    const committer = { name: "C O Mitter", email: "c@example.com", time: 1_700_000_050 };
    const mine = repo.writeCommit({
      tree,
      parents: [],
      message: "subject\n\nbody\n",
      author,
      committer,
    });
    const theirs = git(repo.dir, ["commit-tree", tree], "subject\n\nbody\n", {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: `${author.time} +0000`,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: `${committer.time} +0000`,
    });
    expect(mine).toBe(theirs);
    expect(repo.readCommit(mine)).toMatchObject({ tree, parents: [], author, committer });
  });

  it("reads refs from their files and from packed-refs, and objects git packed", () => {
    const repo = bare();
    const sha = repo.commitFiles({
      parent: undefined,
      files: { f: "f\n" },
      message: "m\n",
      author: { name: "t", email: "t@example.com" },
    });
    repo.updateRef("refs/heads/main", sha);
    repo.updateRef("refs/heads/feature/x", sha);
    expect(repo.resolveCommit("refs/heads/main")).toBe(sha);
    git(repo.dir, ["pack-refs", "--all"]);
    git(repo.dir, ["repack", "-a", "-d", "-q"]);
    git(repo.dir, ["prune-packed"]);
    const fresh = GitRepository.forkOf(repo);
    repos.push(fresh);
    expect(fresh.readRef("refs/heads/feature/x")).toBe(sha);
    expect(fresh.refs("refs/heads/")).toEqual([
      { ref: "refs/heads/feature/x", sha },
      { ref: "refs/heads/main", sha },
    ]);
    expect(fresh.readCommit(sha).message).toBe("m\n");
    expect(fresh.listTree(sha).map((entry) => [entry.path, entry.size])).toEqual([["f", 2]]);
  });
});
