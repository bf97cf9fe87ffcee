// A real bare git repository, so that every blob, tree and commit SHA the simulator reports is the
// SHA git computes, diffs are git's diffs, and tests can clone and fetch by path.
//
// Speed: a `git` subprocess costs 5-10 ms here (forking a process with a large heap), and the
// simulator used to run several per request. Objects are therefore read and written in process
// where git's format is simple and stable (loose objects: zlib-deflated `<type> <size>\0<body>`;
// refs: one file per ref, or `packed-refs`), with `git` as the fallback for anything else (packed
// objects, revision expressions). History queries (merge bases, diffs, commit ranges) still run
// `git`, but their results are memoised by SHA, because nothing about two fixed SHAs can change.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

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

/** Totals of a diff without the per-file patches (what a pull request's counts need). */
export interface GitDiffStats {
  changedFiles: number;
  additions: number;
  deletions: number;
}

/** Content as text, or `null` to delete the path. */
export type FileChanges = Record<string, string | Buffer | null>;

type ObjectType = "blob" | "tree" | "commit" | "tag";

const ZERO = "0".repeat(40);
const FULL_SHA = /^[0-9a-f]{40}$/;
/** A ref name that needs no revision parsing (no `~ ^ : @{ ..`). */
const PLAIN_REF = /^refs\/[A-Za-z0-9._/+-]+$/;
/** Results memoised per repository; plenty for a test file, bounded for the benchmarks. */
const MEMO_LIMIT = 2_000;

export class GitRepository {
  private readonly commits = new Map<string, GitCommit>();
  private readonly types = new Map<string, ObjectType>();
  private readonly memo = new Map<string, unknown>();
  /** Object folders (`objects/ab`) known to exist. */
  private readonly folders = new Set<string>();
  /** How many `git` processes this repository started (see measure.ts). */
  static processes = 0;

  private constructor(readonly dir: string) {}

  static createBare(defaultBranch: string): GitRepository {
    const dir = mkdtempSync(join(tmpdir(), "agate-sim-git-"));
    GitRepository.processes++;
    execFileSync("git", ["init", "--quiet", "--bare", `--initial-branch=${defaultBranch}`, dir]);
    const repo = new GitRepository(dir);
    repo.allowFetchBySha();
    return repo;
  }

  /** A fork: a bare clone with the source's branches and tags (no pull request refs), as GitHub's. */
  static forkOf(source: GitRepository): GitRepository {
    const dir = mkdtempSync(join(tmpdir(), "agate-sim-fork-"));
    GitRepository.processes++;
    execFileSync("git", ["clone", "--quiet", "--bare", source.dir, dir], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const repo = new GitRepository(dir);
    repo.allowFetchBySha();
    return repo;
  }

  /**
   * GitHub serves any commit by SHA (actions/checkout fetches `+<sha>:refs/remotes/pull/N/merge`,
   * and a re-run fetches a test merge commit the merge ref has moved away from).
   */
  private allowFetchBySha(): void {
    const config = join(this.dir, "config");
    writeFileSync(
      config,
      `${readFileSync(config, "utf8")}[uploadpack]\n\tallowAnySHA1InWant = true\n`,
    );
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private git(args: string[], input?: string | Buffer, env?: Record<string, string>): Buffer {
    GitRepository.processes++;
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

  /** Memoises a result that depends only on full SHAs (objects never change). */
  private remember<T>(key: string, compute: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const value = compute();
    if (this.memo.size >= MEMO_LIMIT) {
      const oldest = this.memo.keys().next().value;
      if (oldest !== undefined) this.memo.delete(oldest);
    }
    this.memo.set(key, value);
    return value;
  }

  // ---- objects ------------------------------------------------------------------------------

  private objectPath(sha: string): string {
    return join(this.dir, "objects", sha.slice(0, 2), sha.slice(2));
  }

  /** An object's type and body: a loose object read in process, anything else through git. */
  private readObject(sha: string): { type: ObjectType; body: Buffer } | undefined {
    if (!FULL_SHA.test(sha)) return undefined;
    const path = this.objectPath(sha);
    if (existsSync(path)) {
      const raw = inflateSync(readFileSync(path));
      const nul = raw.indexOf(0);
      const [type = ""] = raw.subarray(0, nul).toString("latin1").split(" ");
      return { type: type as ObjectType, body: raw.subarray(nul + 1) };
    }
    // Packed (a fork's clone, a fetch): `cat-file --batch` prints "<sha> <type> <size>\n<body>\n".
    const out = this.git(["cat-file", "--batch"], `${sha}\n`);
    const newline = out.indexOf(10);
    const header = out.subarray(0, newline).toString("latin1").split(" ");
    if (header[1] === "missing" || header.length < 3) return undefined;
    const size = Number(header[2]);
    return {
      type: header[1] as ObjectType,
      body: out.subarray(newline + 1, newline + 1 + size),
    };
  }

  private writeObject(type: ObjectType, body: Buffer): string {
    const store = Buffer.concat([Buffer.from(`${type} ${body.length}\0`, "latin1"), body]);
    const sha = createHash("sha1").update(store).digest("hex");
    if (this.types.get(sha) !== type) {
      const folder = sha.slice(0, 2);
      if (!this.folders.has(folder)) {
        mkdirSync(join(this.dir, "objects", folder), { recursive: true });
        this.folders.add(folder);
      }
      // Written in one synchronous call, read by nobody before it returns (git runs only after),
      // so no temporary file and rename: that halves the cost of seeding thousands of files.
      try {
        writeFileSync(this.objectPath(sha), zlibStored(store), {
          mode: 0o444,
          flag: "wx",
        });
      } catch (error) {
        if ((error as { code?: string }).code !== "EEXIST") throw error;
      }
    }
    this.types.set(sha, type);
    return sha;
  }

  objectType(sha: string): ObjectType | undefined {
    if (!/^[0-9a-f]{4,40}$/.test(sha)) return undefined;
    const known = this.types.get(sha);
    if (known) return known;
    if (FULL_SHA.test(sha)) {
      const type = this.readObject(sha)?.type;
      if (type) this.types.set(sha, type);
      return type;
    }
    try {
      return this.text(["cat-file", "-t", sha]).trim() as ObjectType;
    } catch {
      return undefined;
    }
  }

  /** Full SHA for an abbreviated or full object id of the given type. */
  resolveObject(sha: string, type: "blob" | "tree" | "commit"): string | undefined {
    if (this.objectType(sha) !== type) return undefined;
    if (FULL_SHA.test(sha)) return sha;
    return this.text(["rev-parse", "--verify", "--quiet", sha]).trim();
  }

  readCommit(sha: string): GitCommit {
    const cached = this.commits.get(sha);
    if (cached) return cached;
    const object = this.readObject(sha);
    if (object?.type !== "commit") throw new Error(`not a commit: ${sha}`);
    const raw = object.body.toString("utf8");
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
    const commit = { sha, tree, parents, author, committer, message };
    this.commits.set(sha, commit);
    return commit;
  }

  /** The entries of one tree object (not recursive), in git's order. */
  private readTree(sha: string): { mode: string; name: string; sha: string }[] {
    return this.remember(`tree:${sha}`, () => {
      const object = this.readObject(sha);
      if (object?.type !== "tree") throw new Error(`not a tree: ${sha}`);
      const entries: { mode: string; name: string; sha: string }[] = [];
      const body = object.body;
      for (let at = 0; at < body.length; ) {
        const space = body.indexOf(32, at);
        const nul = body.indexOf(0, space);
        entries.push({
          mode: body.subarray(at, space).toString("latin1").padStart(6, "0"),
          name: body.subarray(space + 1, nul).toString("utf8"),
          sha: body.subarray(nul + 1, nul + 21).toString("hex"),
        });
        at = nul + 21;
      }
      return entries;
    });
  }

  private treeOf(treeish: string): string {
    const type = this.objectType(treeish);
    if (type === "tree") return this.resolveObject(treeish, "tree") ?? treeish;
    const commit = this.resolveCommit(treeish);
    if (!commit) throw new Error(`not a tree or commit: ${treeish}`);
    return this.readCommit(commit).tree;
  }

  private entryOf(mode: string, sha: string, path: string): GitTreeEntry {
    const type: GitTreeEntry["type"] =
      mode === "040000" ? "tree" : mode === "160000" ? "commit" : "blob";
    return {
      mode,
      type,
      sha,
      size: type === "blob" ? this.blobSize(sha) : undefined,
      path,
    };
  }

  private blobSize(sha: string): number | undefined {
    return this.remember(`size:${sha}`, () => this.readObject(sha)?.body.length);
  }

  /** Tree entries; with `recursive`, every blob and subtree below, with full paths. */
  listTree(treeish: string, recursive = false): GitTreeEntry[] {
    const result: GitTreeEntry[] = [];
    const walk = (tree: string, prefix: string) => {
      for (const entry of this.readTree(tree)) {
        const path = `${prefix}${entry.name}`;
        result.push(this.entryOf(entry.mode, entry.sha, path));
        if (recursive && entry.mode === "040000") walk(entry.sha, `${path}/`);
      }
    };
    walk(this.treeOf(treeish), "");
    return result;
  }

  /** The entry at `path` in a commit or tree, or undefined; "" names the root tree. */
  entryAt(treeish: string, path: string): GitTreeEntry | undefined {
    let tree = this.treeOf(treeish);
    if (path === "") return { mode: "040000", type: "tree", sha: tree, size: undefined, path: "" };
    const parts = path.split("/");
    for (const [index, part] of parts.entries()) {
      const found = this.readTree(tree).find((entry) => entry.name === part);
      if (!found) return undefined;
      if (index === parts.length - 1) return this.entryOf(found.mode, found.sha, path);
      if (found.mode !== "040000") return undefined;
      tree = found.sha;
    }
    return undefined;
  }

  readBlob(sha: string): Buffer {
    const object = this.readObject(sha);
    if (object?.type !== "blob") throw new Error(`not a blob: ${sha}`);
    return object.body;
  }

  writeBlob(content: string | Buffer): string {
    return this.writeObject("blob", typeof content === "string" ? Buffer.from(content) : content);
  }

  /**
   * Writes a tree from `base` (or empty) with entries set or removed, like GitHub's `base_tree` +
   * `path/with/slashes`: intermediate trees are created, emptied ones dropped, untouched subtrees
   * kept by SHA. Entries are sorted as git sorts them (a tree compares as its name plus "/").
   */
  writeTree(
    base: string | undefined,
    entries: { path: string; mode: string; sha: string | null }[],
  ): string {
    interface Node {
      /** Entries by name: a leaf (mode and SHA) or a subtree being edited. */
      children: Map<string, { mode: string; sha: string } | Node>;
    }
    const load = (tree: string | undefined): Node => ({
      children: new Map(
        (tree ? this.readTree(tree) : []).map((entry) => [
          entry.name,
          { mode: entry.mode, sha: entry.sha },
        ]),
      ),
    });
    const isNode = (value: unknown): value is Node =>
      typeof value === "object" && value !== null && "children" in value;
    const root = load(base);
    for (const entry of entries) {
      const parts = entry.path.split("/");
      const name = parts.pop() ?? "";
      let node = root;
      let missing = false;
      for (const part of parts) {
        const child = node.children.get(part);
        if (isNode(child)) node = child;
        else if (child && child.mode === "040000") {
          const loaded = load(child.sha);
          node.children.set(part, loaded);
          node = loaded;
        } else if (entry.sha === null) {
          missing = true;
          break;
        } else {
          const created: Node = { children: new Map() };
          node.children.set(part, created);
          node = created;
        }
      }
      if (missing) continue;
      if (entry.sha === null) node.children.delete(name);
      else node.children.set(name, { mode: normalMode(entry.mode), sha: entry.sha });
    }
    const write = (node: Node): string | undefined => {
      const items: { mode: string; name: string; sha: string }[] = [];
      for (const [name, child] of node.children) {
        if (isNode(child)) {
          const sha = write(child);
          if (sha) items.push({ mode: "040000", name, sha });
        } else items.push({ mode: child.mode, name, sha: child.sha });
      }
      if (items.length === 0 && node !== root) return undefined;
      items.sort((a, b) => compareTreeNames(a, b));
      const body = Buffer.concat(
        items.flatMap((item) => [
          Buffer.from(`${item.mode.replace(/^0+/, "")} ${item.name}\0`, "utf8"),
          Buffer.from(item.sha, "hex"),
        ]),
      );
      return this.writeObject("tree", body);
    };
    return write(root) ?? this.writeObject("tree", Buffer.alloc(0));
  }

  writeCommit(input: {
    tree: string;
    parents: string[];
    message: string;
    author: GitIdentity;
    committer?: GitIdentity;
  }): string {
    const now = Math.floor(Date.now() / 1000);
    const author = { ...input.author, time: input.author.time ?? now };
    const committer = { ...(input.committer ?? input.author) };
    committer.time = committer.time ?? now;
    // The bytes `git commit-tree` writes: identities with a +0000 offset, the message verbatim.
    const line = (role: string, who: Required<GitIdentity>) =>
      `${role} ${sanitize(who.name)} <${sanitize(who.email)}> ${who.time} +0000\n`;
    const text =
      `tree ${input.tree}\n` +
      input.parents.map((parent) => `parent ${parent}\n`).join("") +
      line("author", author) +
      line("committer", committer as Required<GitIdentity>) +
      `\n${input.message}`;
    return this.writeObject("commit", Buffer.from(text, "utf8"));
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

  // ---- refs ---------------------------------------------------------------------------------

  /** The SHA a ref points at (a loose ref file, else `packed-refs`), following symbolic refs. */
  readRef(ref: string, depth = 0): string | undefined {
    if (!PLAIN_REF.test(ref) && ref !== "HEAD") return undefined;
    const path = join(this.dir, ref);
    try {
      if (statSync(path).isFile()) {
        const value = readFileSync(path, "utf8").trim();
        if (value.startsWith("ref: ") && depth < 5) return this.readRef(value.slice(5), depth + 1);
        return FULL_SHA.test(value) ? value : undefined;
      }
    } catch {
      // not a loose ref
    }
    return this.packedRefs().get(ref);
  }

  private packedRefs(): Map<string, string> {
    const refs = new Map<string, string>();
    let text: string;
    try {
      text = readFileSync(join(this.dir, "packed-refs"), "utf8");
    } catch {
      return refs;
    }
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#") || line.startsWith("^")) continue;
      const [sha = "", name = ""] = line.split(" ");
      refs.set(name, sha);
    }
    return refs;
  }

  /** The commit SHA a ref, branch name or SHA names, or undefined. */
  resolveCommit(ref: string): string | undefined {
    if (ref.startsWith("-")) return undefined;
    if (FULL_SHA.test(ref)) {
      const type = this.objectType(ref);
      if (type === "commit") return ref;
      if (type !== "tag") return undefined;
    } else if (PLAIN_REF.test(ref)) {
      const sha = this.readRef(ref);
      if (!sha) return undefined;
      const type = this.objectType(sha);
      if (type === "commit") return sha;
      if (type !== "tag") return undefined;
    }
    try {
      return this.text(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Refs under a prefix, sorted by name as `git for-each-ref` sorts them. */
  refs(prefix = "refs/"): { ref: string; sha: string }[] {
    const found = new Map<string, string>();
    for (const [name, sha] of this.packedRefs()) if (name.startsWith(prefix)) found.set(name, sha);
    const walk = (relative: string) => {
      let names: string[];
      try {
        names = readdirSync(join(this.dir, relative));
      } catch {
        return;
      }
      for (const name of names) {
        if (name.endsWith(".lock")) continue;
        const ref = `${relative}/${name}`;
        const full = join(this.dir, ref);
        if (statSync(full).isDirectory()) walk(ref);
        else {
          const value = readFileSync(full, "utf8").trim();
          if (FULL_SHA.test(value) && ref.startsWith(prefix)) found.set(ref, value);
        }
      }
    };
    walk("refs");
    return [...found.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([ref, sha]) => ({ ref, sha }));
  }

  /** Moves a ref, failing when it no longer points at `expected` (compare-and-swap like a push). */
  updateRef(ref: string, sha: string, expected?: string): void {
    this.git(["update-ref", ref, sha, ...(expected === undefined ? [] : [expected || ZERO])]);
  }

  deleteRef(ref: string): void {
    this.git(["update-ref", "-d", ref]);
  }

  /** Fetches a ref of another repository (a fork) into `ref` here, objects and all. */
  fetchRef(source: GitRepository, sourceRef: string, ref: string): string {
    this.git(["fetch", "--quiet", "--no-tags", source.dir, `+${sourceRef}:${ref}`]);
    const sha = this.readRef(ref);
    if (!sha) throw new Error(`fetching ${sourceRef} from ${source.dir} wrote no ${ref}`);
    return sha;
  }

  // ---- history (git, memoised by SHA) ----------------------------------------------------------

  mergeBase(a: string, b: string): string | undefined {
    const compute = () => {
      try {
        return this.text(["merge-base", a, b]).trim() || undefined;
      } catch {
        return undefined;
      }
    };
    return FULL_SHA.test(a) && FULL_SHA.test(b)
      ? this.remember(`mb:${a}:${b}`, compute)
      : compute();
  }

  /** Commits reachable from `head` and not from `base`, oldest first (GitHub's order). */
  commitsBetween(base: string | undefined, head: string): string[] {
    const compute = () => {
      const range = base ? [head, `^${base}`] : [head];
      return this.text(["rev-list", "--reverse", ...range, "--"])
        .split("\n")
        .filter(Boolean);
    };
    return FULL_SHA.test(head) && (base === undefined || FULL_SHA.test(base))
      ? this.remember(`between:${base}:${head}`, compute)
      : compute();
  }

  /** Commits reachable from `head`, newest first, optionally only those touching `path`. */
  revList(head: string, path?: string): string[] {
    const compute = () =>
      this.text(["rev-list", head, "--", ...(path ? [path] : [])])
        .split("\n")
        .filter(Boolean);
    return FULL_SHA.test(head)
      ? this.remember(`revlist:${head}:${path ?? ""}`, compute)
      : compute();
  }

  isAncestor(ancestor: string, descendant: string): boolean {
    const compute = () => {
      try {
        this.git(["merge-base", "--is-ancestor", ancestor, descendant]);
        return true;
      } catch {
        return false;
      }
    };
    return FULL_SHA.test(ancestor) && FULL_SHA.test(descendant)
      ? this.remember(`anc:${ancestor}:${descendant}`, compute)
      : compute();
  }

  /** The unified diff text (what `Accept: application/vnd.github.diff` returns). */
  diffText(base: string, head: string): string {
    return this.remember(`difftext:${base}:${head}`, () =>
      this.text(["diff", "-M", "--no-color", "--no-ext-diff", "--no-textconv", base, head, "--"]),
    );
  }

  /** The change from `base` to `head` file by file, renames detected as GitHub does by default. */
  diff(base: string, head: string): GitDiffEntry[] {
    return this.remember(`diff:${base}:${head}`, () => {
      const raw = this.text(["diff", "--raw", "-z", "-M", "--no-abbrev", base, head, "--"]);
      const counts = this.numstat(base, head);
      const patches = splitPatch(this.diffText(base, head));
      return parseRaw(raw).map((entry, index) => {
        const count = counts[index];
        return {
          ...entry,
          additions: count?.additions ?? 0,
          deletions: count?.deletions ?? 0,
          patch: patches[index],
        };
      });
    });
  }

  /** Counts only, one `git diff --numstat` (a pull request's payload needs no patches). */
  diffStats(base: string, head: string): GitDiffStats {
    return this.remember(`stats:${base}:${head}`, () => {
      const counts = this.numstat(base, head);
      return {
        changedFiles: counts.length,
        additions: counts.reduce((sum, file) => sum + file.additions, 0),
        deletions: counts.reduce((sum, file) => sum + file.deletions, 0),
      };
    });
  }

  private numstat(base: string, head: string): { additions: number; deletions: number }[] {
    return this.remember(`numstat:${base}:${head}`, () =>
      parseNumstat(this.text(["diff", "--numstat", "-z", "-M", base, head, "--"])),
    );
  }

  /**
   * Merges two commits without a work tree (`git merge-tree --write-tree`, git 2.38+): the
   * merged tree, or undefined when they conflict.
   */
  mergeTree(ours: string, theirs: string): string | undefined {
    return this.remember(`merge:${ours}:${theirs}`, () => {
      try {
        return this.text(["merge-tree", "--write-tree", "--no-messages", ours, theirs])
          .split("\n")[0]
          ?.trim();
      } catch (error) {
        // Exit status 1 is a conflict; anything else is a real failure.
        if ((error as { status?: number }).status === 1) return undefined;
        throw error;
      }
    });
  }
}

/**
 * A zlib stream of stored (uncompressed) deflate blocks: what git needs for a loose object,
 * without a zlib call per object (its set-up dominates for the small blobs tests write).
 */
export function zlibStored(data: Buffer): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / 65_535));
  const out = Buffer.alloc(2 + blocks * 5 + data.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const start = block * 65_535;
    const length = Math.min(65_535, data.length - start);
    out[at] = block === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    data.copy(out, at + 5, start, start + length);
    at += 5 + length;
  }
  // Adler-32, summed in runs short enough not to overflow before the modulo.
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 5552, data.length);
    for (; i < end; i++) {
      a += data[i] ?? 0;
      b += a;
    }
    a %= 65_521;
    b %= 65_521;
  }
  out.writeUInt32BE(((b << 16) | a) >>> 0, at);
  return out;
}

function normalMode(mode: string): string {
  const digits = mode.replace(/^0+/, "");
  return digits === "40000" ? "040000" : digits;
}

/** git's tree order: byte order of names, a tree's name compared as if it ended in "/". */
function compareTreeNames(
  a: { mode: string; name: string },
  b: { mode: string; name: string },
): number {
  const key = (entry: { mode: string; name: string }) =>
    Buffer.from(entry.mode === "040000" ? `${entry.name}/` : entry.name, "utf8");
  return Buffer.compare(key(a), key(b));
}

/** git drops these from identities (`strbuf_addstr_without_crud`). */
function sanitize(value: string): string {
  return value.replace(/[<>\n]/g, "").trim();
}

function parseIdentity(value: string): Required<GitIdentity> {
  const match = /^(.*) <(.*)> (\d+) [+-]\d{4}$/.exec(value);
  return { name: match?.[1] ?? "", email: match?.[2] ?? "", time: Number(match?.[3] ?? 0) };
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
