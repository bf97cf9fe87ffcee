// A real bare git repository driven with the git CLI, so that every blob, tree and commit SHA the
// simulator reports is the SHA git computes, diffs are git's diffs, and tests can clone by path.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface GitIdentity {
  name: string;
  email: string;
  /** Seconds since the epoch; git's own resolution. */
  time?: number;
}

export interface GitCommit {
  sha: string;
  tree: string;
  parents: string[];
  author: Required<GitIdentity>;
  committer: Required<GitIdentity>;
  message: string;
}

export interface GitTreeEntry {
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  /** Bytes for blobs; undefined for trees and submodules. */
  size: number | undefined;
  path: string;
}

export type DiffStatus = "added" | "removed" | "modified" | "renamed" | "copied" | "changed";

export interface GitDiffEntry {
  filename: string;
  previousFilename: string | undefined;
  status: DiffStatus;
  /** Blob SHA at the new side, or at the old side for a removed file (as GitHub reports it). */
  sha: string;
  additions: number;
  deletions: number;
  /** Hunks only (from the first `@@`), as GitHub's `patch` field; undefined for binary files. */
  patch: string | undefined;
}

/** Content as text, or `null` to delete the path. */
export type FileChanges = Record<string, string | Buffer | null>;

const ZERO = "0".repeat(40);

export class GitRepository {
  private constructor(readonly dir: string) {}

  static createBare(defaultBranch: string): GitRepository {
    const dir = mkdtempSync(join(tmpdir(), "agate-sim-git-"));
    execFileSync("git", ["init", "--quiet", "--bare", `--initial-branch=${defaultBranch}`, dir]);
    return new GitRepository(dir);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private git(args: string[], input?: string | Buffer, env?: Record<string, string>): Buffer {
    return execFileSync("git", args, {
      cwd: this.dir,
      input,
      env: { ...process.env, ...env, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" },
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["pipe", "pipe", "pipe"],
    });
  }

  private text(args: string[], input?: string | Buffer, env?: Record<string, string>): string {
    return this.git(args, input, env).toString("utf8");
  }

  /** The commit SHA a ref, branch name or SHA names, or undefined. */
  resolveCommit(ref: string): string | undefined {
    if (ref.startsWith("-")) return undefined;
    try {
      return this.text(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  objectType(sha: string): "blob" | "tree" | "commit" | "tag" | undefined {
    if (!/^[0-9a-f]{4,40}$/.test(sha)) return undefined;
    try {
      return this.text(["cat-file", "-t", sha]).trim() as "blob" | "tree" | "commit" | "tag";
    } catch {
      return undefined;
    }
  }

  /** Full SHA for an abbreviated or full object id of the given type. */
  resolveObject(sha: string, type: "blob" | "tree" | "commit"): string | undefined {
    if (this.objectType(sha) !== type) return undefined;
    return this.text(["rev-parse", "--verify", "--quiet", sha]).trim();
  }

  refs(prefix = "refs/"): { ref: string; sha: string }[] {
    const out = this.text(["for-each-ref", "--format=%(objectname) %(refname)", prefix]);
    return out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [sha = "", ref = ""] = line.split(" ");
        return { ref, sha };
      });
  }

  /** Moves a ref, failing when it no longer points at `expected` (compare-and-swap like a push). */
  updateRef(ref: string, sha: string, expected?: string): void {
    this.git(["update-ref", ref, sha, ...(expected === undefined ? [] : [expected || ZERO])]);
  }

  deleteRef(ref: string): void {
    this.git(["update-ref", "-d", ref]);
  }

  readCommit(sha: string): GitCommit {
    const raw = this.text(["cat-file", "commit", sha]);
    const split = raw.indexOf("\n\n");
    const header = raw.slice(0, split === -1 ? raw.length : split);
    const message = split === -1 ? "" : raw.slice(split + 2);
    const parents: string[] = [];
    let tree = "";
    let author: Required<GitIdentity> = { name: "", email: "", time: 0 };
    let committer = author;
    for (const line of header.split("\n")) {
      const space = line.indexOf(" ");
      const key = line.slice(0, space);
      const value = line.slice(space + 1);
      if (key === "tree") tree = value;
      else if (key === "parent") parents.push(value);
      else if (key === "author") author = parseIdentity(value);
      else if (key === "committer") committer = parseIdentity(value);
    }
    return { sha, tree, parents, author, committer, message };
  }

  /** Tree entries; with `recursive`, every blob and subtree below, with full paths. */
  listTree(treeish: string, recursive = false): GitTreeEntry[] {
    const args = ["ls-tree", "-z", "-l", ...(recursive ? ["-r", "-t"] : []), treeish];
    return parseLsTree(this.text(args));
  }

  /** The entry at `path` in a commit or tree, or undefined; "" names the root tree. */
  entryAt(treeish: string, path: string): GitTreeEntry | undefined {
    if (path === "") {
      const sha = this.text(["rev-parse", `${treeish}^{tree}`]).trim();
      return { mode: "040000", type: "tree", sha, size: undefined, path: "" };
    }
    const entries = parseLsTree(this.text(["ls-tree", "-z", "-l", treeish, "--", path]));
    return entries.find((entry) => entry.path === path);
  }

  readBlob(sha: string): Buffer {
    return this.git(["cat-file", "blob", sha]);
  }

  writeBlob(content: string | Buffer): string {
    return this.text(["hash-object", "-w", "--stdin"], content).trim();
  }

  /**
   * Writes a tree from `base` (or empty) with entries set or removed, using a throwaway index so
   * nested paths work like GitHub's `base_tree` + `path/with/slashes`.
   */
  writeTree(
    base: string | undefined,
    entries: { path: string; mode: string; sha: string | null }[],
  ) {
    const index = join(this.dir, `index.${process.pid}.${Math.random().toString(36).slice(2)}`);
    const env = { GIT_INDEX_FILE: index };
    try {
      this.git(["read-tree", ...(base ? [base] : ["--empty"])], undefined, env);
      // Mode 0 with the null SHA removes a path; --index-info needs no work tree (a bare repo).
      const info = entries
        .map((entry) =>
          entry.sha === null
            ? `0 ${ZERO}\t${entry.path}\0`
            : `${entry.mode} ${entry.sha}\t${entry.path}\0`,
        )
        .join("");
      if (info) this.git(["update-index", "-z", "--index-info"], info, env);
      return this.text(["write-tree"], undefined, env).trim();
    } finally {
      rmSync(index, { force: true });
    }
  }

  writeCommit(input: {
    tree: string;
    parents: string[];
    message: string;
    author: GitIdentity;
    committer?: GitIdentity;
  }): string {
    const author = input.author;
    const committer = input.committer ?? author;
    const now = Math.floor(Date.now() / 1000);
    const env = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: `${author.time ?? now} +0000`,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: `${committer.time ?? now} +0000`,
    };
    const parentArgs = input.parents.flatMap((parent) => ["-p", parent]);
    return this.text(["commit-tree", input.tree, ...parentArgs], input.message, env).trim();
  }

  /** Applies file changes on top of `parent` (or an empty tree) and writes the commit. */
  commitFiles(input: {
    parent: string | undefined;
    files: FileChanges;
    message: string;
    author: GitIdentity;
    committer?: GitIdentity;
  }): string {
    const entries = Object.entries(input.files).map(([path, content]) => {
      assertPlainPath(path);
      return {
        path,
        mode: "100644",
        sha: content === null ? null : this.writeBlob(content),
      };
    });
    const baseTree = input.parent ? this.readCommit(input.parent).tree : undefined;
    const tree = this.writeTree(baseTree, entries);
    return this.writeCommit({
      tree,
      parents: input.parent ? [input.parent] : [],
      message: input.message,
      author: input.author,
      ...(input.committer ? { committer: input.committer } : {}),
    });
  }

  mergeBase(a: string, b: string): string | undefined {
    try {
      return this.text(["merge-base", a, b]).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Commits reachable from `head` and not from `base`, oldest first (GitHub's order). */
  commitsBetween(base: string | undefined, head: string): string[] {
    const range = base ? [head, `^${base}`] : [head];
    return this.text(["rev-list", "--reverse", ...range, "--"])
      .split("\n")
      .filter(Boolean);
  }

  /** Commits reachable from `head`, newest first, optionally only those touching `path`. */
  revList(head: string, path?: string): string[] {
    return this.text(["rev-list", head, "--", ...(path ? [path] : [])])
      .split("\n")
      .filter(Boolean);
  }

  /** The unified diff text (what `Accept: application/vnd.github.diff` returns). */
  diffText(base: string, head: string): string {
    return this.text(["diff", "-M", "--no-color", "--no-ext-diff", base, head, "--"]);
  }

  isAncestor(ancestor: string, descendant: string): boolean {
    try {
      this.git(["merge-base", "--is-ancestor", ancestor, descendant]);
      return true;
    } catch {
      return false;
    }
  }

  /** The change from `base` to `head` file by file, renames detected as GitHub does by default. */
  diff(base: string, head: string): GitDiffEntry[] {
    const raw = this.text(["diff", "--raw", "-z", "-M", "--no-abbrev", base, head, "--"]);
    const numstat = this.text(["diff", "--numstat", "-z", "-M", base, head, "--"]);
    const patch = this.text(["diff", "-M", "--no-color", "--no-ext-diff", base, head, "--"]);
    const counts = parseNumstat(numstat);
    const patches = splitPatch(patch);
    return parseRaw(raw).map((entry, index) => {
      const count = counts[index];
      return {
        ...entry,
        additions: count?.additions ?? 0,
        deletions: count?.deletions ?? 0,
        patch: patches[index],
      };
    });
  }
}

function parseIdentity(value: string): Required<GitIdentity> {
  const match = /^(.*) <(.*)> (\d+) [+-]\d{4}$/.exec(value);
  return { name: match?.[1] ?? "", email: match?.[2] ?? "", time: Number(match?.[3] ?? 0) };
}

function parseLsTree(out: string): GitTreeEntry[] {
  return out
    .split("\0")
    .filter(Boolean)
    .map((record) => {
      const tab = record.indexOf("\t");
      const [mode = "", type = "blob", sha = "", size = "-"] = record.slice(0, tab).split(/ +/);
      return {
        mode,
        type: type as GitTreeEntry["type"],
        sha,
        size: size === "-" ? undefined : Number(size),
        path: record.slice(tab + 1),
      };
    });
}

function parseRaw(out: string): Omit<GitDiffEntry, "additions" | "deletions" | "patch">[] {
  const fields = out.split("\0");
  const entries: Omit<GitDiffEntry, "additions" | "deletions" | "patch">[] = [];
  for (let i = 0; i < fields.length; ) {
    const meta = fields[i++];
    if (!meta?.startsWith(":")) continue;
    const [, , oldSha = "", newSha = "", code = "M"] = meta.slice(1).split(" ");
    const letter = code[0];
    const first = fields[i++] ?? "";
    if (letter === "R" || letter === "C") {
      const second = fields[i++] ?? "";
      entries.push({
        filename: second,
        previousFilename: first,
        status: letter === "R" ? "renamed" : "copied",
        sha: newSha,
      });
      continue;
    }
    const status: DiffStatus =
      letter === "A"
        ? "added"
        : letter === "D"
          ? "removed"
          : letter === "M"
            ? "modified"
            : "changed";
    entries.push({
      filename: first,
      previousFilename: undefined,
      status,
      sha: letter === "D" ? oldSha : newSha,
    });
  }
  return entries;
}

function parseNumstat(out: string): { additions: number; deletions: number }[] {
  const fields = out.split("\0");
  const counts: { additions: number; deletions: number }[] = [];
  for (let i = 0; i < fields.length; ) {
    const field = fields[i++];
    if (!field) continue;
    const [additions = "0", deletions = "0", path = ""] = field.split("\t");
    // A rename leaves the path empty and puts old and new path in the next two fields.
    if (path === "") i += 2;
    counts.push({
      additions: additions === "-" ? 0 : Number(additions),
      deletions: deletions === "-" ? 0 : Number(deletions),
    });
  }
  return counts;
}

function splitPatch(out: string): (string | undefined)[] {
  const sections = out.split(/^diff --git /m).slice(1);
  return sections.map((section) => {
    const hunk = section.search(/^@@/m);
    if (hunk === -1) return undefined;
    return section.slice(hunk).replace(/\n$/, "");
  });
}

function assertPlainPath(path: string): void {
  if (
    path === "" ||
    path.startsWith("/") ||
    path.endsWith("/") ||
    path.split("/").some((part) => part === "" || part === "." || part === ".." || part === ".git")
  ) {
    throw new Error(`not a repository file path: ${JSON.stringify(path)}`);
  }
}
