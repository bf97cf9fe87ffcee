import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { TestedSnapshot } from "../schemas/command-record.js";
import { git } from "./git.js";

export interface TestedCommit {
  sha: string;
  tree_sha: string;
  parents: string[];
}

/** The commit the commands are about to run on: bound before they run, so they cannot move it. */
export function testedCommit(cwd: string): TestedCommit {
  const [sha, ...parents] = git(cwd, ["rev-list", "--parents", "-n", "1", "HEAD"])
    .trim()
    .split(" ");
  if (!sha) throw new Error(`no commit checked out in ${cwd}: run agate in a git checkout`);
  return { sha, tree_sha: git(cwd, ["rev-parse", `${sha}^{tree}`]).trim(), parents };
}

/**
 * Binds what was really tested: the commit, and whether the work tree still equals it after the
 * commands ran. Any difference (an edited, deleted or new file, or HEAD moved by a command) is
 * named by a digest over each differing path and its blob hash, computed from content, never
 * from timestamps or status lines.
 */
export function testedSnapshot(cwd: string, commit: TestedCommit): TestedSnapshot {
  const changed = git(cwd, ["diff", "--no-renames", "--name-only", "-z", commit.sha, "--"]);
  const untracked = git(cwd, ["ls-files", "--others", "--exclude-standard", "-z"]);
  const paths = [
    ...new Set([...changed.split("\0"), ...untracked.split("\0")].filter(Boolean)),
  ].sort();
  return {
    ...commit,
    clean: paths.length === 0,
    dirty_digest: paths.length ? dirtyDigest(cwd, paths) : null,
  };
}

function dirtyDigest(cwd: string, paths: string[]): string {
  const existing = paths.filter((path) => existsSync(join(cwd, path)));
  const blobs = existing.length
    ? git(cwd, ["hash-object", "--stdin-paths"], `${existing.join("\n")}\n`)
        .trim()
        .split("\n")
    : [];
  const blobOf = new Map(existing.map((path, i) => [path, blobs[i]]));
  const hash = createHash("sha256");
  for (const path of paths) hash.update(`${path}\0${blobOf.get(path) ?? "deleted"}\n`);
  return hash.digest("hex");
}
