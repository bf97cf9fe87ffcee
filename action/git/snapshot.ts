import { createHash } from "node:crypto";
import { CHANGED_PATHS_LIMIT, type TestedSnapshot } from "../../schemas/command-record.js";
import { readObjects } from "./git.js";
import { pathText, type WorkTreeState } from "./shadow-git.js";

export interface TestedCommit {
  sha: string;
  tree_sha: string;
  parents: string[];
}

/** The name readObjects reads the checked-out commit by. */
export const HEAD_COMMIT = "HEAD^{commit}";

/**
 * The commit the commands are about to run on: bound before they run, so they cannot move it.
 * Tree and parents are read from the commit object itself (whose content is its SHA), so a
 * shallow checkout, where git pretends the boundary commit has no parents, still names them.
 * `head`: the object when the caller read it already (with the base config, in one git call).
 */
export function testedCommit(cwd: string, head = readObjects(cwd, [HEAD_COMMIT])[0]): TestedCommit {
  if (head?.type !== "commit") {
    throw new Error(`no commit checked out in ${cwd}: run agate in a git checkout`);
  }
  const { sha } = head;
  const header = head.content.toString("utf8").split("\n\n", 1)[0] ?? "";
  const field = (name: string) =>
    header
      .split("\n")
      .filter((line) => line.startsWith(`${name} `))
      .map((line) => line.slice(name.length + 1).trim());
  const [tree] = field("tree");
  if (!tree) throw new Error(`the commit ${sha} has no tree: is the checkout corrupt?`);
  return { sha, tree_sha: tree, parents: field("parent") };
}

/** Paths whose token differs between two states (content or existence changed), sorted. */
export function changedBetween(before: WorkTreeState, after: WorkTreeState): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}

/** A sorted list of path keys as the record shows them: text, at most CHANGED_PATHS_LIMIT. */
export function listed(keys: string[]): string[] {
  return keys.slice(0, CHANGED_PATHS_LIMIT).map(pathText);
}

/**
 * Binds what was really tested: the commit, whether the work tree equalled it when the first
 * command started (`before`: whatever an earlier step edited, added or deleted), and whether it
 * still did after the last one (`after`; a command that edits files, or commits, is a
 * difference). A dirty tree is named by a digest over each differing path and what is there,
 * computed from content, never from timestamps or status lines.
 */
export function testedSnapshot(
  commit: TestedCommit,
  before: WorkTreeState,
  after: WorkTreeState,
): TestedSnapshot {
  return {
    ...commit,
    clean_before: before.size === 0,
    dirty_before: listed([...before.keys()]),
    clean: after.size === 0,
    dirty_digest: after.size ? dirtyDigest(after) : null,
  };
}

function dirtyDigest(state: WorkTreeState): string {
  const hash = createHash("sha256");
  for (const [key, token] of state) hash.update(`${pathText(key)}\0${token}\n`);
  return hash.digest("hex");
}
