import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import {
  git,
  gitMaybe,
  gitShadow,
  gitShadowBuffer,
  type ShadowLocation,
  userExcludesFile,
} from "./git.js";

/**
 * A git dir of agate's own for the work tree under test, built before the first command runs and
 * used for every look at the work tree from then on.
 *
 * Why: a command can write anything into the repository's `.git` (`.git/config` with
 * `core.fsmonitor`, `include.path`, `filter.<x>.clean` named by a `.gitattributes` it also writes,
 * `diff.<x>.textconv`, `core.sshCommand`; hooks; `info/attributes`; replace refs; an index with
 * skip-worktree bits that hide its edits). Any git call that reads that `.git` after the commands
 * started can run the command's code inside agate, or be lied to. The shadow has:
 *
 * - `config`: agate's own (no drivers, no fsmonitor, hooks at /dev/null), so nothing the
 *   repository's config names can run;
 * - `index`: the checkout's index, reset to the tested commit's tree (stat data kept, so unchanged
 *   files are not re-read), kept in agate's memory;
 * - `HEAD`: the tested commit; `objects/info/alternates`: the real object store (read-only use:
 *   the snapshots below read no objects at all, only the index and the work tree);
 * - `info/exclude`: the repository's ignore rules as they were before the commands.
 *
 * The commands run as the same user and can find and rewrite the shadow too, so it is deleted and
 * written again from memory before every use (`restore`): what they wrote there is gone.
 */
export interface ShadowGit extends ShadowLocation {
  objectFormat: "sha1" | "sha256";
  /**
   * The tested tree's submodules (gitlinks) and a digest of what their directories held when the
   * shadow was built (SUBMODULES below), by path key.
   */
  submodules: Map<string, string>;
  /** Delete whatever is at gitDir and write the shadow again from agate's memory. */
  restore(): void;
  remove(): void;
}

/** core.* settings copied from the repository: they say how the checkout was written, run nothing. */
const COPIED_CORE_SETTINGS = [
  "filemode",
  "symlinks",
  "ignorecase",
  "precomposeunicode",
  "autocrlf",
  "eol",
];

export interface ShadowGitOptions {
  /** A directory of the work tree (its root is found from here). */
  cwd: string;
  /** The commit under test. */
  sha: string;
  /** Where the shadow is written (removed and rewritten on every restore). */
  gitDir: string;
  /**
   * `tested-tree` (default): the index reset to the tested commit's tree, the baseline the
   * snapshots compare the work tree with. `as-is`: the repository's index unchanged, staged
   * changes included (for `agate handoff`, which describes the branch as it will be committed).
   */
  index?: "tested-tree" | "as-is";
}

/** Builds the shadow. Call it before the first command: it reads the repository's `.git`. */
export function createShadowGit(options: ShadowGitOptions): ShadowGit {
  return buildShadow(options, false).shadow;
}

/**
 * The shadow and the work tree's state as workTreeState would read it at once, both from one
 * `ls-files` (the cached entries name the submodules, the modified and other ones the state):
 * a git process fewer before the first command.
 */
export function createShadowGitWithState(options: ShadowGitOptions): {
  shadow: ShadowGit;
  state: WorkTreeState;
} {
  const { shadow, paths } = buildShadow(options, true);
  try {
    return { shadow, state: stateOf(shadow, paths ?? new Set()) };
  } catch (error) {
    shadow.remove();
    throw error;
  }
}

function buildShadow(
  options: ShadowGitOptions,
  withState: boolean,
): { shadow: ShadowGit; paths: Set<string> | undefined } {
  const { sha } = options;
  const gitDir = resolve(options.gitDir);
  const [root = "", realGitDir = "", commonDir = "", objectFormat = ""] = git(options.cwd, [
    "rev-parse",
    "--show-toplevel",
    "--absolute-git-dir",
    "--git-common-dir",
    "--show-object-format",
  ])
    .trim()
    .split("\n");
  const common = resolve(options.cwd, commonDir);
  const objects = realpathSync(join(common, "objects"));
  const format = objectFormat === "sha256" ? "sha256" : "sha1";

  const config = shadowConfig(options.cwd, format);
  const exclude = excludeRules(common);

  let index: Buffer | undefined;
  let indexTime = 0;
  const files = (): [string, Buffer | string][] => [
    ["HEAD", `${sha}\n`],
    ["config", config],
    [join("objects", "info", "alternates"), `${objects}\n`],
    [join("info", "exclude"), exclude],
    ...(index ? [["index", index] as [string, Buffer]] : []),
  ];
  const restore = () => {
    rmSync(gitDir, { recursive: true, force: true });
    for (const dir of ["refs", join("objects", "info"), "info"]) {
      mkdirSync(join(gitDir, dir), { recursive: true, mode: 0o700 });
    }
    for (const [name, content] of files()) writeFileSync(join(gitDir, name), content);
    // The index file's time is part of its meaning: git trusts an entry's stat data only when the
    // file is older than the index ("racy git"). A rewritten index must keep the old time, or an
    // edit in the same second as the checkout, of the same size, would look unchanged.
    if (index) utimesSync(join(gitDir, "index"), indexTime, indexTime);
  };
  const shadow: ShadowGit = {
    gitDir,
    workTree: root,
    objectFormat: format,
    submodules: new Map(),
    restore,
    remove: () => rmSync(gitDir, { recursive: true, force: true }),
  };

  try {
    restore();
    buildIndex(shadow, realGitDir, sha, options.index ?? "tested-tree");
    const indexFile = join(gitDir, "index");
    if (existsSync(indexFile)) {
      index = readFileSync(indexFile);
      indexTime = Math.floor(statSync(indexFile).mtimeMs / 1000);
    }
    restore();
    const listing = withState ? cachedAndChanged(shadow) : { gitlinks: gitlinks(shadow) };
    for (const key of listing.gitlinks) {
      shadow.submodules.set(key, directoryToken(pathOf(shadow, key), format));
    }
    return { shadow, paths: "paths" in listing ? listing.paths : undefined };
  } catch (error) {
    shadow.remove();
    throw error;
  }
}

/** agate's own config for the shadow: the repository's harmless core.* settings, nothing else. */
function shadowConfig(cwd: string, format: "sha1" | "sha256"): string {
  // Read as text, never run: `config --get-regexp` prints values.
  const listed = gitMaybe(cwd, ["config", "-z", "--get-regexp", "^core\\."]) ?? "";
  const settings = new Map<string, string>();
  for (const entry of listed.split("\0")) {
    const [key = "", value = ""] = entry.split("\n");
    const name = COPIED_CORE_SETTINGS.find((known) => `core.${known}` === key.toLowerCase());
    if (name && /^[A-Za-z0-9_-]+$/.test(value)) settings.set(name, value);
  }
  return [
    "[core]",
    `\trepositoryformatversion = ${format === "sha1" ? 0 : 1}`,
    "\tbare = false",
    "\tfsmonitor = false",
    "\thooksPath = /dev/null",
    "\tuntrackedCache = false",
    "\tsplitIndex = false",
    ...[...settings].map(([name, value]) => `\t${name} = ${value}`),
    ...(format === "sha1" ? [] : ["[extensions]", `\tobjectformat = ${format}`]),
    "",
  ].join("\n");
}

/** The repository's ignore rules and the user's, as they are before the first command. */
function excludeRules(common: string): Buffer {
  const readIfFile = (path: string) => (existsSync(path) ? readFileSync(path) : Buffer.alloc(0));
  const userExcludes = userExcludesFile();
  return Buffer.concat([
    readIfFile(join(common, "info", "exclude")),
    Buffer.from("\n"),
    userExcludes ? readIfFile(userExcludes) : Buffer.alloc(0),
  ]);
}

/** Writes the shadow's index from the checkout's (see ShadowGitOptions.index). */
function buildIndex(
  shadow: ShadowGit,
  realGitDir: string,
  sha: string,
  mode: "tested-tree" | "as-is",
): void {
  const { gitDir } = shadow;
  // The checkout's index, with its stat data, so that files nobody touched are not hashed again.
  // A split index keeps its entries in sharedindex.* files beside it.
  const realIndex = join(realGitDir, "index");
  let split = false;
  if (existsSync(realIndex)) {
    writeFileSync(join(gitDir, "index"), readFileSync(realIndex));
    keepTimestamp(join(gitDir, "index"), realIndex);
    for (const name of readdirSync(realGitDir)) {
      if (name.startsWith("sharedindex.")) {
        writeFileSync(join(gitDir, name), readFileSync(join(realGitDir, name)));
        split = true;
      }
    }
  }
  if (mode !== "as-is") {
    // Reset it to the tested tree: what an earlier step staged is a difference, not the
    // baseline. `-m` keeps the stat data of entries that already match; an index read-tree
    // cannot merge (unmerged entries, a broken file) is replaced by the tree itself. Either
    // writes one whole index (splitIndex is off), which is all that is kept.
    try {
      gitShadow(shadow, ["read-tree", "-m", sha]);
    } catch {
      rmSync(join(gitDir, "index"), { force: true });
      gitShadow(shadow, ["read-tree", sha]);
      // No stat data now: record it once, or every snapshot would hash every file.
      refreshIndex(shadow);
    }
  } else if (split) {
    gitShadow(shadow, ["update-index", "--no-split-index"]);
  }
}

/**
 * SUBMODULES. git looks at a submodule only through its checked-out commit: files a command
 * writes inside it (an uninitialised submodule's empty directory included, as actions/checkout
 * leaves it by default), edits, new files, even `git submodule update --init`, are no
 * difference to `ls-files`, so a command could change what a later one runs without a trace
 * (issue 26, tried on real repositories). So agate reads their directories itself: the content
 * digest of each (every name, mode and blob id under it, symlinks not followed) is taken when
 * the shadow is built, before the first command, and a submodule whose content differs from it
 * later is a difference like any changed path (named by its path, so commands[].writes decides).
 * What an earlier step did inside a submodule cannot be told from the tested commit (its
 * content is another repository's): only changes from the first command on are seen.
 */
function gitlinks(shadow: ShadowGit): string[] {
  const out = gitShadowBuffer(shadow, ["ls-files", "-z", "--stage"]).toString("latin1");
  return out
    .split("\0")
    .filter((line) => line.startsWith("160000 "))
    .map((line) => line.slice(line.indexOf("\t") + 1));
}

/**
 * gitlinks() and workTreeState's listing in one process: `-t` tags each entry (`?` other, `C`
 * modified or deleted, any other tag a cached entry), `--stage` gives a cached entry's mode.
 */
function cachedAndChanged(shadow: ShadowGit): { gitlinks: string[]; paths: Set<string> } {
  const out = gitShadowBuffer(shadow, [
    "ls-files",
    "-z",
    "-t",
    "--stage",
    "--cached",
    "--modified",
    "--others",
    "--exclude-standard",
  ]).toString("latin1");
  const links = new Set<string>();
  const paths = new Set<string>();
  for (const entry of out.split("\0")) {
    if (entry.startsWith("? ")) {
      paths.add(entry.slice(2));
      continue;
    }
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const path = entry.slice(tab + 1);
    if (entry.startsWith("C ")) paths.add(path);
    else if (entry.slice(2).startsWith("160000 ")) links.add(path);
  }
  return { gitlinks: [...links], paths };
}

const pathOf = (shadow: ShadowGit, key: string) =>
  Buffer.concat([Buffer.from(`${shadow.workTree}/`), Buffer.from(key, "latin1")]);

/**
 * A digest of a directory's whole content (`160000 <sha256>`): each entry's name and pathToken,
 * directories recursed, in name order; `deleted` when it is gone, a file's token when it is one.
 */
function directoryToken(path: Buffer, format: "sha1" | "sha256"): string {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    return "deleted";
  }
  if (!stat.isDirectory()) return pathToken(path, format);
  const hash = createHash("sha256");
  const walk = (dir: Buffer, prefix: string) => {
    const names = readdirSync(dir, { encoding: "buffer" }).sort(Buffer.compare);
    for (const name of names) {
      const full = Buffer.concat([dir, Buffer.from("/"), name]);
      const shown = `${prefix}${name.toString("latin1")}`;
      const token = pathToken(full, format);
      hash.update(`${shown}\0${token}\n`);
      if (token === "160000 directory") walk(full, `${shown}/`);
    }
  };
  walk(path, "");
  return `160000 ${hash.digest("hex")}`;
}

/** Gives `copy` the time of `original`, rounded down: an older index only trusts fewer entries. */
function keepTimestamp(copy: string, original: string): void {
  const time = Math.floor(statSync(original).mtimeMs / 1000);
  utimesSync(copy, time, time);
}

function gitMaybeShadow(shadow: ShadowGit, args: string[]): void {
  try {
    gitShadow(shadow, args);
  } catch {
    // --refresh exits 1 when a file needs updating: that is an answer, not a failure.
  }
}

/**
 * Brings the shadow index's stat data up to date (content unchanged, stat changed: not a
 * difference), so plumbing such as diff-index compares content, not timestamps.
 */
export function refreshIndex(shadow: ShadowGit): void {
  gitMaybeShadow(shadow, ["update-index", "-q", "--ignore-submodules", "--refresh"]);
}

/**
 * The work tree's differences from the tested commit: each path whose content or existence
 * differs (modified, deleted, or new and not ignored), with a token of what is there now (mode
 * and git blob id, or `deleted`). Read through the shadow, after restoring it: no object is read,
 * nothing of the repository's `.git` is consulted, nothing it configures runs.
 */
export type WorkTreeState = Map<string, string>;

export function workTreeState(shadow: ShadowGit): WorkTreeState {
  shadow.restore();
  const out = gitShadowBuffer(shadow, [
    "ls-files",
    "-z",
    "--modified",
    "--others",
    "--exclude-standard",
  ]);
  // Paths are bytes to git; latin1 keeps every byte as one character, so no name is mangled.
  const paths = new Set<string>();
  let start = 0;
  for (let end = out.indexOf(0); end >= 0; end = out.indexOf(0, start)) {
    if (end > start) paths.add(out.subarray(start, end).toString("latin1"));
    start = end + 1;
  }
  return stateOf(shadow, paths);
}

/** The state of the paths git listed as modified or other, and of every submodule. */
function stateOf(shadow: ShadowGit, paths: Set<string>): WorkTreeState {
  const root = Buffer.from(`${shadow.workTree}/`);
  const state: WorkTreeState = new Map();
  // A submodule differs when git says its commit moved, or when its content is not what it was
  // before the first command (SUBMODULES); either way its token is its content's digest.
  for (const [key, baseline] of shadow.submodules) {
    const token = directoryToken(pathOf(shadow, key), shadow.objectFormat);
    if (token !== baseline || paths.has(key)) state.set(key, token);
    paths.delete(key);
  }
  for (const key of [...paths].sort()) {
    // `dir/`: a new nested repository; its content, not its being there, is what a later
    // command runs, so it is read like a submodule.
    const nested = key.endsWith("/");
    const path = Buffer.concat([root, Buffer.from(nested ? key.slice(0, -1) : key, "latin1")]);
    state.set(
      key,
      nested ? directoryToken(path, shadow.objectFormat) : pathToken(path, shadow.objectFormat),
    );
  }
  return new Map([...state].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A path key of a WorkTreeState as text for the record. */
export const pathText = (key: string): string => Buffer.from(key, "latin1").toString("utf8");

/**
 * What is at a path now: git's mode and blob id of a file or symlink (computed here from the raw
 * bytes, no filter or conversion), `160000 directory` for a directory (a nested repository or a
 * submodule, whose content directoryToken reads), `deleted`.
 * lstat and O_NOFOLLOW: a symlink is hashed as a link, never followed; O_NONBLOCK: a FIFO a command
 * left behind cannot make agate wait forever.
 */
export function pathToken(path: Buffer, format: "sha1" | "sha256"): string {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    return "deleted";
  }
  if (stat.isSymbolicLink()) {
    return `120000 ${blobId(format, [readlinkSync(path, { encoding: "buffer" })])}`;
  }
  if (stat.isDirectory()) return "160000 directory";
  if (!stat.isFile()) return "other";
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return "unreadable";
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return "other";
    const mode = opened.mode & 0o111 ? "100755" : "100644";
    const buffer = Buffer.alloc(1024 * 1024);
    const hash = createHash(format);
    hash.update(`blob ${opened.size}\0`);
    let left = opened.size;
    while (left > 0) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, left), null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
      left -= read;
    }
    return `${mode} ${left === 0 ? hash.digest("hex") : "changing"}`;
  } finally {
    closeSync(fd);
  }
}

function blobId(format: "sha1" | "sha256", parts: Buffer[]): string {
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const hash = createHash(format).update(`blob ${size}\0`);
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}
