/**
 * The .git files and directories the commands may not touch. The commands own the directories
 * around each .git (the work tree is handed to their user), so they could rename one and put
 * their own there (hooks, core.fsmonitor; a submodule's .git file pointing at a git dir of
 * theirs) for the runner's user, who has sudo, to obey in the job's next git command, which
 * enters every submodule, and every submodule's submodules. So, read before the first command
 * and looked at after each one:
 *
 * - the top .git, and each submodule's (paths from the tested tree, present or not: an empty
 *   submodule made live is as bad as a replaced one), must each be the file it was;
 * - inside a submodule, every .git found there before (a nested submodule's) must be the file it
 *   was, and no other may appear: a nested submodule the checkout left empty is not in the top
 *   tree's list, and its gitlink is known only to the submodule's own index, which agate does
 *   not run git in. A nested repository inside a submodule is no build output, so refusing any
 *   new .git there costs nothing honest.
 */
import { type Dirent, lstatSync, readdirSync } from "node:fs";

export interface GitGuard {
  /** Identity by path (latin1, relative to the work tree; "" the top) of every guarded .git. */
  identities: ReadonlyMap<string, string>;
  /** The top tree's submodules, whose directories are walked for a .git that was not there. */
  submodules: readonly string[];
}

/** What is guarded, read before the first command. */
export function gitGuardOf(tree: string, submodules: readonly string[]): GitGuard {
  const paths = new Set(["", ...submodules]);
  for (const submodule of submodules) {
    for (const nested of nestedGitDirs(tree, submodule)) paths.add(nested);
  }
  return {
    identities: new Map([...paths].map((path) => [path, identityOf(gitPathOf(tree, path))])),
    submodules,
  };
}

/** What the commands did to a guarded .git, in words, or null when nothing. */
export function gitGuardBreach(tree: string, guard: GitGuard): string | null {
  for (const [path, was] of guard.identities) {
    if (identityOf(gitPathOf(tree, path)) === was) continue;
    return path === "" ? "replaced the work tree's .git" : `replaced the .git of submodule ${path}`;
  }
  for (const submodule of guard.submodules) {
    let nested: string[];
    try {
      nested = nestedGitDirs(tree, submodule);
    } catch (error) {
      return `left submodule ${submodule} unreadable (${(error as Error).message})`;
    }
    const made = nested.find((path) => !guard.identities.has(path));
    if (made !== undefined) return `made a .git at ${made} inside submodule ${submodule}`;
  }
  return null;
}

/**
 * The directories under a submodule (not itself) that hold a .git, as latin1 paths relative to
 * the work tree. Symbolic links are not followed, and a .git is not entered.
 */
function nestedGitDirs(tree: string, submodule: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries: Dirent<Buffer>[];
    try {
      entries = readdirSync(absolute(tree, dir), { withFileTypes: true, encoding: "buffer" });
    } catch (error) {
      // Absent (an empty submodule): nothing there. Unreadable (the commands took the mode off a
      // directory) could hide a .git: that fails as one would (the caller says where).
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw new Error(`cannot read ${dir} to look for a .git: ${(error as Error).message}`);
    }
    for (const entry of entries) {
      const name = entry.name.toString("latin1");
      if (name === ".git") {
        if (dir !== submodule) found.push(dir);
      } else if (entry.isDirectory()) {
        walk(`${dir}/${name}`);
      }
    }
  };
  walk(submodule);
  return found;
}

/** A path git names in bytes (the shadow keeps them as latin1 text), under the work tree. */
const absolute = (tree: string, path: string) =>
  path === ""
    ? Buffer.from(tree)
    : Buffer.concat([Buffer.from(`${tree}/`), Buffer.from(path, "latin1")]);

const gitPathOf = (tree: string, path: string) =>
  Buffer.concat([absolute(tree, path), Buffer.from("/.git")]);

/** Which file a path is (device and inode, not followed), or that there is none. */
function identityOf(path: Buffer): string {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.isDirectory() ? "d" : "f"}` : "absent";
}
