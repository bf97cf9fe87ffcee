import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { constants, userInfo } from "node:os";
import { dirname, resolve, sep } from "node:path";
import type { Isolation } from "../schemas/command-record.js";
import { systemExecutable } from "./git/executables.js";
import { type GitGuard, gitGuardBreach, gitGuardOf } from "./git-guard.js";
import { ISOLATION_SCRIPT } from "./isolation-script.js";
import { COMMAND_STDIO, type CommandLauncher, processGroupLauncher } from "./process-group.js";
import { type RootHelper, startRootHelper } from "./root-helper.js";
import { mark } from "./timings.js";

/** Where the commands of a run go: the launcher, and what the record says about it. */
export interface CommandsIsolation {
  launcher: CommandLauncher;
  record: Isolation;
  /** Ends it: every process of the commands user killed, the work tree agate's, the user gone. */
  finish(): void;
}

/** The commands run as agate's own user, and the record says why. */
export function sharedIsolation(reason: string): CommandsIsolation {
  return {
    launcher: processGroupLauncher(),
    record: {
      mode: "shared",
      user: currentUser(),
      uid: process.getuid?.() ?? 0,
      reason,
      swept: "process-group",
    },
    finish: () => {},
  };
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? "unknown");
  }
}

/** How agate can act as root here: it is root, or the runner's sudo lets it without a password. */
export type RootAccess = { kind: "root" } | { kind: "sudo"; sudo: string };

/**
 * Whether agate can run the commands as another user, and if not, why (in words for the
 * record). A GitHub-hosted runner's user has passwordless sudo; a container job runs as root.
 */
export function rootAccess(): RootAccess | { kind: "none"; reason: string } {
  access ??= findRootAccess();
  return access;
}

let access: RootAccess | { kind: "none"; reason: string } | undefined;

function findRootAccess(): RootAccess | { kind: "none"; reason: string } {
  if (process.platform !== "linux") {
    return {
      kind: "none",
      reason: `agate runs the commands as a separate user on Linux runners only; this runner is ${process.platform}`,
    };
  }
  if (process.getuid?.() === 0) return { kind: "root" };
  let sudo: string;
  try {
    sudo = systemExecutable("sudo");
  } catch {
    return {
      kind: "none",
      reason: `the runner's user (${currentUser()}) is not root and sudo is not installed, so agate cannot make a user for the commands`,
    };
  }
  const probe = spawnSync(sudo, ["-n", "true"], {
    encoding: "utf8",
    env: ROOT_ENV,
    timeout: 10_000,
  });
  if (probe.status !== 0) {
    const said = (probe.stderr || probe.error?.message || "").trim().split("\n")[0];
    return {
      kind: "none",
      reason: `the runner's user (${currentUser()}) has no passwordless sudo (${said || `sudo exited ${probe.status}`}), so agate cannot make a user for the commands`,
    };
  }
  return { kind: "sudo", sudo };
}

/** The only environment agate's root steps get: nothing of the job's. */
const ROOT_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };

/**
 * The commands user's name, one per runner: RUNNER_TEMP is the runner's own directory (the runner
 * sets it for each step; a step cannot change it through GITHUB_ENV), so two runners on one
 * machine, which may run jobs at the same time, never share a user, and one runner's jobs, which
 * run one after another, reuse the name (the user itself is made anew for each job).
 */
export function commandsUserName(env: NodeJS.ProcessEnv, cwd: string): string {
  const key = env.RUNNER_TEMP || cwd;
  return `agate-${createHash("sha256").update(key).digest("hex").slice(0, 10)}`;
}

export interface IsolatedUserOptions {
  access: RootAccess;
  /** The repository's work tree: handed to the commands user before each command, taken back after. */
  workTree: string;
  /**
   * The environment the commands will get (environment.ts), HOME and the user's names aside:
   * through sudo, what sudo changes of it is asked at setup, so a sudo that cannot start the
   * user fails the setup, not the first command. Each command gets the one its start names.
   */
  env: NodeJS.ProcessEnv;
  /** agate's own environment (RUNNER_TEMP, HOME): what the work tree must never contain. */
  agateEnv: NodeJS.ProcessEnv;
  /**
   * The tested tree's submodules (paths relative to the work tree): git enters each one's .git
   * in the job's next git command (`git status` recurses), so each is guarded as the top one is.
   */
  submodules: readonly string[];
}

/**
 * How long killing every process of the user may take at the job's end (and of a leftover user
 * at setup, isolation-script.ts); after each command, the limit is the sweep's caller's.
 */
const FINISH_SWEEP_MS = 10_000;

/**
 * Makes the user of this job's commands (isolation-script.ts `setup`) and returns its launcher:
 * each command starts once the work tree is the user's, as that user (sudo -u, or a root
 * agate's own setuid), and after it every process of the user is killed and the tree is agate's
 * again before agate looks at it. Throws what went wrong, for the record's reason.
 */
export function isolatedUser(options: IsolatedUserOptions): CommandsIsolation {
  const tree = realpathSync(options.workTree);
  refuseWorkTree(tree, options.agateEnv);
  // Whose the top directory is goes back to them (in a container job, the runner's user outside).
  const top = statSync(tree);
  const treeOwner = `${top.uid}:${top.gid}`;
  const name = commandsUserName(options.agateEnv, tree);
  const home = `/home/${name}`;
  const root = rootRunner(options.access);
  const agateUid = process.getuid?.() ?? 0;
  const agateGid = process.getgid?.() ?? 0;

  const [ids = "", ...opened] = root("setup", [name, home, String(agateUid), tree])
    .split("\n")
    .filter(Boolean);
  const [uid, gid] = ids.split(" ").map(Number);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error(`setting up the commands user ${name} printed ${JSON.stringify(ids)}`);
  }
  const user: CommandsUser = { name, uid: uid as number, gid: gid as number, home };
  const ids4 = [String(user.uid), String(user.gid), String(agateUid), String(agateGid)];
  let finished = false;
  let helper: RootHelper | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    // The step it may be running ends first: finish must not overlap a handover.
    helper?.close();
    root("finish", [name, ...ids4, tree, String(FINISH_SWEEP_MS), treeOwner, ...opened]);
    mark("isolation");
  };
  // A cancelled job stops agate with SIGINT, then SIGTERM: the commands user's processes, which
  // agate's own group kill does not reach, and the user itself go first.
  function onSignal(signal: NodeJS.Signals) {
    try {
      finish();
    } finally {
      process.exit(128 + (constants.signals[signal] ?? 15));
    }
  }
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  try {
    const start =
      options.access.kind === "root"
        ? startAsRoot(user)
        : startWithSudo(options.access.sudo, user, userEnv(options.env, user));
    const [shell, ...shellArgs] = rootShell(options.access);
    helper = startRootHelper(shell as string, shellArgs, ROOT_ENV);
    return {
      launcher: userLauncher(start, helper, {
        user,
        tree,
        treeOwner,
        ids4,
        gitGuard: gitGuardOf(tree, options.submodules),
      }),
      record: { mode: "user", user: name, uid: user.uid, reason: null, swept: "user" },
      finish,
    };
  } catch (error) {
    finish();
    throw error;
  }
}

/**
 * Each command starts once the work tree is the user's; after it, every process of the user, not
 * only the command's group, is killed (a daemon, a double fork or setsid cannot outlive the
 * command), and the work tree is agate's again before agate looks at it.
 */
function userLauncher(
  start: StartAs,
  root: RootHelper,
  at: {
    user: CommandsUser;
    tree: string;
    treeOwner: string;
    ids4: string[];
    /** Each .git git would enter (the top one's path ""), and which file it was. */
    gitGuard: GitGuard;
  },
): CommandLauncher {
  const [uid = "", gid = "", agateUid = ""] = at.ids4;
  return {
    async start(bash, args, { cwd, env }) {
      await root.run("handover", [uid, agateUid, at.tree]);
      mark("handover");
      return start(bash, args, cwd, userEnv(env, at.user));
    },
    signal(_child, signal) {
      // The step ends in "|| true": nothing to hear back; the sweep after the command follows it.
      void root.run("signal", [uid, gid, signal.replace(/^SIG/, "")]).catch(() => undefined);
    },
    async sweep(_child, limitMs) {
      mark("commands");
      // A process that outlives limitMs fails the step (reclaim says which): no record is made.
      const limit = String(Math.max(1, Math.ceil(limitMs)));
      await root.run("reclaim", [at.user.name, ...at.ids4, at.tree, limit, at.treeOwner]);
      mark("handover");
      // A .git the commands replaced or made is obeyed by the runner's next git (git-guard.ts).
      const breach = gitGuardBreach(at.tree, at.gitGuard);
      if (breach) {
        throw new Error(
          `agate: the commands ${breach}, which the runner's next git command would obey; no record is made. Commands may not write .git: build in a directory of their own`,
        );
      }
      return true;
    },
  };
}

interface CommandsUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** Starts one command as the commands user, with the environment it is given whole. */
type StartAs = (
  bash: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
) => ReturnType<typeof spawn>;

/** A command's environment as the commands user: its own HOME and names. */
function userEnv(env: NodeJS.ProcessEnv, user: CommandsUser): NodeJS.ProcessEnv {
  return { ...env, HOME: user.home, USER: user.name, LOGNAME: user.name };
}

/** agate is root (a container job): the commands get the user's uid and gid, no group beside. */
function startAsRoot(user: CommandsUser): StartAs {
  return (bash, args, cwd, env) =>
    // libuv drops every supplementary group (setgroups) before setgid and setuid.
    spawn(bash, args, {
      cwd,
      env,
      uid: user.uid,
      gid: user.gid,
      detached: true,
      stdio: COMMAND_STDIO,
    });
}

/**
 * Through the runner's sudo. sudo keeps the environment with -E (the user the runner gives
 * passwordless sudo may), but changes some of it: PATH becomes its secure_path, it adds SUDO_*
 * and removes what it deems dangerous (PYTHONPATH, PERL5LIB, ...). What it changes is found once,
 * by asking sudo for the environment it would give, and put right on `env`'s command line. The
 * other values never appear on a command line (/proc/<pid>/cmdline is readable by every user).
 */
function startWithSudo(sudo: string, user: CommandsUser, first: NodeJS.ProcessEnv): StartAs {
  const envProgram = systemExecutable("env");
  const head = ["-n", "-E", "-u", user.name, "--", envProgram];
  // What sudo changes depends on the environment: asked once for each one the commands get.
  const fixes = new Map<string, { unset: string[]; set: string[] }>();
  const fixesFor = (env: NodeJS.ProcessEnv) => {
    const expected = Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    const key = createHash("sha256").update(JSON.stringify(expected.sort())).digest("hex");
    let known = fixes.get(key);
    if (!known) {
      known = sudoFixes(sudo, head, envProgram, env, expected);
      fixes.set(key, known);
    }
    return known;
  };
  fixesFor(first);
  // The work tree is the user's while the command runs, and may be closed to agate (a directory
  // of mode 700): sudo starts from /, and env changes into it as the user.
  return (bash, args, cwd, env) => {
    const { unset, set } = fixesFor(env);
    return spawn(sudo, [...head, ...unset, "-C", cwd, "--", ...set, bash, ...args], {
      cwd: "/",
      env,
      detached: true,
      stdio: COMMAND_STDIO,
    });
  };
}

/** What sudo would change of `env`, undone: its own names unset, its other values set again. */
function sudoFixes(
  sudo: string,
  head: string[],
  envProgram: string,
  env: NodeJS.ProcessEnv,
  expected: [string, string][],
): { unset: string[]; set: string[] } {
  // `-C /`: env must change directories (coreutils 8.28 on), as it will for every command.
  const given = execFileSync(sudo, [...head, "-C", "/", envProgram, "-0"], {
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  const seen = new Map<string, string>();
  for (const entry of given.toString("utf8").split("\0")) {
    const at = entry.indexOf("=");
    if (at > 0) seen.set(entry.slice(0, at), entry.slice(at + 1));
  }
  const wanted = new Set(expected.map(([name]) => name));
  const unset = [...seen.keys()].filter((name) => !wanted.has(name)).flatMap((n) => ["-u", n]);
  const set = expected
    .filter(([name, value]) => seen.get(name) !== value)
    .map(([n, v]) => `${n}=${v}`);
  return { unset, set };
}

/** How agate starts bash as root: itself when it is root, else through the runner's sudo. */
function rootShell(access: RootAccess): string[] {
  const bash = systemExecutable("bash");
  return access.kind === "root" ? [bash] : [access.sudo, "-n", "--", bash];
}

/** Runs one step of isolation-script.ts as root; its output, or an error with what it said. */
function rootRunner(access: RootAccess) {
  const [file = "", ...shellArgs] = rootShell(access);
  return (step: string, args: string[]): string => {
    const argv = [...shellArgs, "-s", "--", step, ...args];
    const run = spawnSync(file, argv, {
      input: ISOLATION_SCRIPT,
      env: ROOT_ENV,
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
    if (run.status !== 0) {
      const said = (run.stderr || run.error?.message || "").trim();
      throw new Error(
        `${step} of the commands user failed: ${said.replace(/^agate-isolation: /gm, "") || `exit ${run.status ?? run.signal}`}`,
      );
    }
    return run.stdout;
  };
}

/**
 * The work tree is handed to the commands user whole. It must not hold anything of agate's or the
 * runner's: a checkout at the runner's HOME, or one holding RUNNER_TEMP or agate's own bundle,
 * would give the user agate's files. (The workflow names it, from the base branch; this is a
 * guard against a mistake there.)
 */
function refuseWorkTree(tree: string, env: NodeJS.ProcessEnv): void {
  const guarded = [
    env.RUNNER_TEMP,
    env.HOME,
    env.RUNNER_TOOL_CACHE,
    process.argv[1] ? dirname(process.argv[1]) : undefined,
    dirname(process.execPath),
  ].filter((path): path is string => Boolean(path));
  const inside = (path: string) => {
    const full = resolve(path);
    return full === tree || full.startsWith(tree === sep ? sep : `${tree}${sep}`);
  };
  const held = guarded.find(inside);
  if (tree === sep || held) {
    throw new Error(
      `the work tree ${tree} holds ${held ?? "the whole file system"}, which must stay agate's; check out the repository in a directory of its own`,
    );
  }
}
