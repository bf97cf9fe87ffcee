import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { systemExecutable, systemPath } from "./executables.js";

/**
 * agate's own git. The repository is the pull request's (or an agent's), so its `.git/config`,
 * hooks and `.gitattributes` are repository-controlled, and the job's environment may have been
 * set by an earlier step. Git runs programs named there: the fsmonitor hook when it refreshes the
 * index, hooks, clean/smudge filters and textconv or external diff drivers, pagers, credential
 * helpers and askpass programs, `core.sshCommand`, `ext::` remote URLs. None of that may run in
 * agate's own processes (which hold the runner's tokens). Every call therefore gets:
 *
 * - a clean environment (`gitEnvironment`): no inherited `GIT_*` (an earlier step can export
 *   `GIT_CONFIG_PARAMETERS`, `GIT_EXTERNAL_DIFF`, `GIT_SSH_COMMAND`, `GIT_DIR`... through
 *   `$GITHUB_ENV`), no system config, no global config (/dev/null) or, when another user owns
 *   the work tree, one of agate's own (in a HOME made for the one call and deleted after it, so
 *   the commands cannot rewrite it), `HOME` and `XDG_CONFIG_HOME` that are not the user's, and
 *   a PATH of system directories only;
 * - the `-c` overrides in `HARDENING`, which beat the repository's config for the keys they name;
 * - the absolute path of the system's git (`systemExecutable`), never a PATH lookup.
 *
 * `-c` cannot switch off a filter or diff driver whose name it does not know, nor an
 * `include.path` that pulls in such a driver. So after the first command starts (the commands can
 * write anything into `.git/config`), agate never reads the repository's config at all: it runs
 * git against a shadow git dir of its own (`shadow-git.ts`, `gitShadow`).
 */
const HARDENING: [key: string, value: string, blocks: string][] = [
  ["core.fsmonitor", "false", "an fsmonitor hook program, run whenever git refreshes the index"],
  [
    "core.hooksPath",
    "/dev/null",
    "hooks (reference-transaction on fetch, ...): no file can exist under /dev/null",
  ],
  ["core.pager", "cat", "a pager program"],
  ["core.askPass", "", "an askpass program asked for credentials"],
  ["credential.helper", "", "credential helpers (shell commands); the empty value resets the list"],
  ["core.sshCommand", "ssh", "core.sshCommand, a shell command run for ssh remotes"],
  ["core.alternateRefsCommand", "true", "a command run during fetch to list the alternates' refs"],
  ["protocol.ext.allow", "never", "ext:: remote URLs, which run a command"],
  ["protocol.git.allow", "never", "git:// remotes and core.gitProxy, a command run for them"],
  ["diff.external", "", "an external diff program"],
  ["gc.auto", "0", "gc and its hooks run after a fetch"],
  ["maintenance.auto", "false", "maintenance run after a fetch"],
  ["submodule.recurse", "false", "commands recursing into submodules, whose config is theirs"],
  ["fetch.recurseSubmodules", "false", "fetch recursing into submodules"],
  ["core.untrackedCache", "false", "an untracked cache a command wrote into the index"],
];

const HARDENING_ARGS = HARDENING.flatMap(([key, value]) => ["-c", `${key}=${value}`]);

/** Repositories agate's git may open though another user owns them (container jobs). */
const safeDirectories = new Set<string>();
let userExcludes: string | undefined;

const quote = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/**
 * The global config agate's git reads: `safe.directory` lets git open a checkout owned by another
 * user (container jobs), as the runner's own config would; nothing else. (The user's global ignore
 * file is not named here: its patterns are copied into the shadow's info/exclude before the
 * commands, the only calls that consult ignore rules.)
 */
function globalConfig(): string {
  const lines = ["[safe]"];
  for (const dir of safeDirectories) {
    if (!/[\n\r\0]/.test(dir)) lines.push(`\tdirectory = ${quote(dir)}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * agate's own HOME for one git call, with its global config: made just before the call and
 * deleted right after, so no command finds it to rewrite, and nothing is left behind. Needed
 * only when another user owns the work tree (safe.directory must name it); otherwise HOME,
 * XDG_CONFIG_HOME and the global config are /dev/null, under which no file can ever exist (so
 * no command can plant an ignore or attributes file there either), and a git call costs no
 * directory made and removed.
 */
function withGitHome<T>(root: string | undefined, run: (home: string) => T): T {
  if (root === undefined || !ownedByAnother(root)) return run(NO_HOME);
  const home = mkdtempSync(join(tmpdir(), "agate-git-"));
  try {
    writeFileSync(join(home, "config"), globalConfig());
    return run(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const NO_HOME = "/dev/null";

/** Whether git's ownership check would refuse `root` without safe.directory (or cannot tell). */
function ownedByAnother(root: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  try {
    return statSync(root).uid !== uid || statSync(join(root, ".git")).uid !== uid;
  } catch {
    return true;
  }
}

/**
 * For `agate run` and `agate handoff` on a person's machine: their global ignore file (the
 * `core.excludesFile` of their ~/.gitconfig, else git's default), so that what they ignore
 * everywhere (.idea/, .DS_Store) is ignored here too. Only a file of patterns is taken from their
 * config, read with `git config --file` (which runs nothing). The Action never calls this.
 */
export function useUserExcludesFile(env: NodeJS.ProcessEnv): void {
  const userHome = env.HOME;
  if (!userHome) return;
  const xdg = env.XDG_CONFIG_HOME || join(userHome, ".config");
  const expand = (path: string) =>
    path.startsWith("~/") ? join(userHome, path.slice(2)) : resolve(userHome, path);
  let configured: string | undefined;
  for (const file of [join(userHome, ".gitconfig"), join(xdg, "git", "config")]) {
    if (configured || !existsSync(file)) continue;
    configured = gitMaybe(userHome, [
      "config",
      "--file",
      file,
      "--includes",
      "--get",
      "core.excludesFile",
    ])?.trim();
  }
  const path = configured ? expand(configured) : join(xdg, "git", "ignore");
  userExcludes = existsSync(path) ? path : undefined;
}

/** The user's global ignore file, when useUserExcludesFile found one. */
export const userExcludesFile = (): string | undefined => userExcludes;

/** The work tree's root, found without git (so safe.directory can name it before git runs). */
function workTreeRoot(cwd: string): string | undefined {
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return undefined;
  }
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The whole environment of agate's git: nothing inherited, see the module comment. */
export function gitEnvironment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: systemPath(),
    HOME: home,
    XDG_CONFIG_HOME: home === NO_HOME ? NO_HOME : join(home, "xdg"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: home === NO_HOME ? NO_HOME : join(home, "config"),
    GIT_TERMINAL_PROMPT: "0",
    // Replace refs would let a repository substitute one object for another.
    GIT_NO_REPLACE_OBJECTS: "1",
    // Reading commands must not rewrite the repository's index behind the user's back.
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
  };
}

/**
 * A shadow git dir of agate's own and the work tree it describes: git run against it does not read
 * the repository's `.git` at all (no config, no hooks, no index; objects only through the
 * alternates). See shadow-git.ts.
 */
export interface ShadowLocation {
  gitDir: string;
  workTree: string;
}

interface GitOptions {
  input?: string | Buffer | undefined;
  shadow?: ShadowLocation;
}

function runGit(cwd: string, args: string[], options: GitOptions): Buffer {
  const root = workTreeRoot(options.shadow?.workTree ?? cwd);
  if (root) safeDirectories.add(root);
  const location = options.shadow
    ? [`--git-dir=${options.shadow.gitDir}`, `--work-tree=${options.shadow.workTree}`]
    : [];
  const fullArgs = ["--no-pager", ...location, ...HARDENING_ARGS, ...args];
  const executable = systemExecutable("git");
  try {
    return withGitHome(root, (home) =>
      execFileSync(executable, fullArgs, {
        cwd,
        input: options.input,
        env: gitEnvironment(home),
        maxBuffer: 256 * 1024 * 1024,
        stdio: ["pipe", "pipe", "pipe"],
      }),
    );
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(
      `git ${args.join(" ")} failed in ${cwd}: ${stderr || (error as Error).message}`,
    );
  }
}

/** Runs git in `cwd` and returns its stdout; the error names the git command that failed. */
export function git(cwd: string, args: string[], input?: string): string {
  return runGit(cwd, args, { input }).toString("utf8");
}

export interface GitObject {
  sha: string;
  type: string;
  content: Buffer;
}

/**
 * Several objects in one git process (`cat-file --batch`): each name's object as stored (no
 * filter or textconv), or null when git cannot find it. A process per object costs more than
 * reading them (a few ms each, more on a busy runner).
 */
export function readObjects(cwd: string, names: string[]): (GitObject | null)[] {
  if (names.some((name) => /[\n\r]/.test(name))) {
    throw new Error(`an object name cannot contain a line break: ${JSON.stringify(names)}`);
  }
  const out = runGit(cwd, ["cat-file", "--batch"], { input: `${names.join("\n")}\n` });
  const objects: (GitObject | null)[] = [];
  let at = 0;
  for (const _ of names) {
    const end = out.indexOf(0x0a, at);
    if (end < 0) throw new Error("git cat-file --batch ended early");
    const [sha = "", type = "", size = ""] = out.subarray(at, end).toString("utf8").split(" ");
    if (!/^\d+$/.test(size)) {
      // `<name> missing` or `<name> ambiguous`: nothing follows the line.
      objects.push(null);
      at = end + 1;
      continue;
    }
    const content = out.subarray(end + 1, end + 1 + Number(size));
    objects.push({ sha, type, content });
    at = end + 1 + Number(size) + 1;
  }
  return objects;
}

/**
 * agate's own directory in a checkout: `<git dir>/agate`, outside the work tree. `agate run` keeps
 * its shadow git dir and record there (the Action too, off a runner); `agate handoff` reads the
 * record from there.
 */
export function localStateDir(cwd: string): string {
  return join(resolve(cwd, git(cwd, ["rev-parse", "--git-dir"]).trim()), "agate");
}

/** Like git(), but a failure is an answer ("no such object") rather than an error. */
export function gitMaybe(cwd: string, args: string[]): string | undefined {
  try {
    return git(cwd, args);
  } catch {
    return undefined;
  }
}

/** git against a shadow git dir (see ShadowLocation), from the work tree's root. */
export function gitShadow(shadow: ShadowLocation, args: string[], input?: string | Buffer): string {
  return gitShadowBuffer(shadow, args, input).toString("utf8");
}

/** gitShadow(), its output as bytes (paths are bytes to git). */
export function gitShadowBuffer(
  shadow: ShadowLocation,
  args: string[],
  input?: string | Buffer,
): Buffer {
  return runGit(shadow.workTree, args, { shadow, input });
}
