/**
 * The bwrap invocation of the `command` evaluator's sandbox (sandbox.ts says what it keeps out
 * and why): the options that make the command's world, its environment, and the start with the
 * options, the bundle, /etc/passwd and /etc/group on descriptors.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { CommandSandbox, CommandSandboxSettings } from "./policy.js";

/** The command's working directory and HOME inside the sandbox: a tmpfs holding bundle.json. */
export const SANDBOX_WORKDIR = "/evaluation";
export const SANDBOX_BUNDLE = `${SANDBOX_WORKDIR}/bundle.json`;
/** The command's PATH before the listed directories; also where bwrap is looked up when the App has no PATH. */
export const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
/** nobody: the uid and gid the command has inside a user namespace. */
export const SANDBOX_ID = 65534;
/** Each tmpfs (/tmp, /evaluation) takes at most this much memory. */
export const SANDBOX_TMPFS_BYTES = 256 * 1024 * 1024;

/** On merged-/usr systems these are symlinks into /usr; elsewhere directories bound read-only. */
export const ROOT_DIRS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/**
 * What of /etc a program needs, bound read-only where present. Never all of /etc: it holds
 * the host's secrets (shadow, ssl/private, credentials of package managers and git), and a
 * command mapped to the App's user can read what that user owns.
 */
const ETC_FILES = [
  "/etc/ssl/certs",
  "/etc/ssl/openssl.cnf",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/pki/tls/certs",
  "/etc/pki/tls/openssl.cnf",
  "/etc/pki/ca-trust/extracted",
  "/etc/crypto-policies",
  "/etc/alternatives",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/nsswitch.conf",
  "/etc/hosts",
  "/etc/protocols",
  "/etc/services",
  "/etc/mime.types",
];
/** Name resolution, bound only with the network allowed. */
const NETWORK_FILES = ["/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf"];

/**
 * Extra descriptors bwrap reads at start: the bundle, /etc/passwd and /etc/group, its status,
 * and its options. The options go through a descriptor, not the command line, so the values of
 * the variables the operator passes (a CLI agent's key) are in no process's /proc/PID/cmdline,
 * which every user of the host can read.
 */
const FD_BUNDLE = 3;
const FD_PASSWD = 4;
const FD_GROUP = 5;
const FD_STATUS = 6;
const FD_ARGS = 7;

export interface Sandbox {
  /** bwrap's absolute path. */
  bwrap: string;
  /** bwrap's options, handed over on a descriptor; `--` and the command follow on its command line. */
  args: readonly string[];
  /** Contents of the sandbox's /etc/passwd and /etc/group. */
  passwd: string;
  group: string;
}

export type Mode = "userns" | "plain";

export interface Bind {
  /** The real host path. */
  source: string;
  /** Where it appears inside the sandbox. */
  dest: string;
  listed: boolean;
}

export interface Place {
  /** Real path of a directory of the App's own. */
  path: string;
  what: string;
}

export function sandboxArgs(
  mode: Mode,
  settings: Pick<CommandSandboxSettings, "network" | "paths" | "env">,
  listed: readonly Bind[],
  places: readonly Place[],
): { args: string[] } | { error: string } {
  const args: string[] = [];
  if (mode === "userns") {
    args.push(
      "--unshare-user",
      "--disable-userns",
      "--uid",
      String(SANDBOX_ID),
      "--gid",
      String(SANDBOX_ID),
    );
  }
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (settings.network === "none") args.push("--unshare-net");
  args.push(
    "--hostname",
    "agate-evaluator",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
  );

  const binds: Bind[] = [];
  const system = (path: string) => {
    const real = realOrNull(path);
    if (real !== null) binds.push({ source: real, dest: path, listed: false });
  };
  system("/usr");
  args.push("--ro-bind", "/usr", "/usr");
  for (const dir of ROOT_DIRS) {
    const stat = lstatOrNull(dir);
    if (stat?.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (stat?.isDirectory()) {
      system(dir);
      args.push("--ro-bind", dir, dir);
    }
  }
  for (const file of [...ETC_FILES, ...(settings.network === "allow" ? NETWORK_FILES : [])]) {
    const real = realOrNull(file);
    if (real === null) continue;
    binds.push({ source: real, dest: file, listed: false });
    args.push("--ro-bind", real, file);
  }
  args.push(
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--size",
    String(SANDBOX_TMPFS_BYTES),
    "--tmpfs",
    "/tmp",
    "--size",
    String(SANDBOX_TMPFS_BYTES),
    "--tmpfs",
    SANDBOX_WORKDIR,
  );
  for (const bind of listed) {
    binds.push(bind);
    args.push("--ro-bind", bind.source, bind.dest);
  }
  // The App's own directories inside something bound (an App installed under /usr/local, say)
  // are covered with an empty tmpfs; one that contains a bound system path cannot be.
  for (const place of places) {
    for (const bind of binds) {
      if (inside(bind.source, place.path)) {
        args.push("--tmpfs", join(bind.dest, relative(bind.source, place.path)));
      } else if (!bind.listed && (place.path === bind.source || inside(place.path, bind.source))) {
        return {
          error: `${place.what} is ${place.path}, which holds ${bind.dest}, a system path the sandbox must show`,
        };
      }
    }
  }
  args.push(
    "--perms",
    "0644",
    "--file",
    String(FD_BUNDLE),
    SANDBOX_BUNDLE,
    "--ro-bind-data",
    String(FD_PASSWD),
    "/etc/passwd",
    "--ro-bind-data",
    String(FD_GROUP),
    "/etc/group",
    "--json-status-fd",
    String(FD_STATUS),
    "--chdir",
    SANDBOX_WORKDIR,
  );
  return { args };
}

/** --clearenv, then only what the command needs and what the operator lists. */
export function environmentArgs(settings: CommandSandbox): string[] {
  const listedDirs = settings.paths.filter((path) => {
    const real = realOrNull(path);
    return real !== null && lstatOrNull(real)?.isDirectory();
  });
  const env: Record<string, string> = {
    PATH: [SYSTEM_PATH, ...listedDirs].join(":"),
    HOME: SANDBOX_WORKDIR,
    TMPDIR: "/tmp",
    LANG: "C.UTF-8",
    USER: "evaluator",
    LOGNAME: "evaluator",
  };
  for (const name of settings.env) {
    const value = settings.passEnv[name];
    if (value !== undefined) env[name] = value;
  }
  const args = ["--clearenv"];
  for (const [name, value] of Object.entries(env)) args.push("--setenv", name, value);
  return args;
}

export interface Sandboxed {
  child: ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable };
  /** true once bwrap reports the command started; false when it ended without. */
  started: Promise<boolean>;
}

/**
 * Starts `command` in the sandbox: bwrap leads a process group of its own and gets an empty
 * environment (its /proc/1/environ inside is all the command could read of it) and its options
 * on a descriptor; the bundle goes to /evaluation/bundle.json (and, from the caller, to stdin).
 */
export function spawnSandboxed(
  sandbox: Sandbox,
  command: readonly string[],
  bundle: string,
): Sandboxed {
  const child = spawn(sandbox.bwrap, ["--args", String(FD_ARGS), "--", ...command], {
    env: {},
    cwd: "/",
    detached: true,
    stdio: ["pipe", "pipe", "pipe", "pipe", "pipe", "pipe", "pipe", "pipe"],
  });
  const stdio = child.stdio as unknown as (Readable | Writable | null | undefined)[];
  const write = (fd: number, text: string) => {
    const stream = stdio[fd] as Writable | null | undefined;
    // bwrap that failed early closes them: that is reported through its exit, not here.
    stream?.on("error", () => {});
    stream?.end(text);
  };
  write(FD_ARGS, sandbox.args.map((arg) => `${arg}\0`).join(""));
  write(FD_BUNDLE, bundle);
  write(FD_PASSWD, sandbox.passwd);
  write(FD_GROUP, sandbox.group);
  const status = stdio[FD_STATUS] as Readable | null | undefined;
  const started = new Promise<boolean>((resolveStarted) => {
    if (!status) return resolveStarted(false);
    let text = "";
    status.setEncoding("utf8");
    status.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes('"child-pid"')) resolveStarted(true);
    });
    status.on("error", () => resolveStarted(false));
    status.on("close", () => resolveStarted(text.includes('"child-pid"')));
  });
  return { child: child as Sandboxed["child"], started };
}

/** Whether `path` lies strictly inside `dir` (both real, absolute). */
export function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith("/");
}

export function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

export function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
