import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from "../store/open-store.js";
import type { AppPlace, CommandSandbox, CommandSandboxSettings } from "./policy.js";

/**
 * The `command` evaluator's sandbox, on bubblewrap (bwrap). The command comes from a
 * repository's config (from the operator's allow-list) and reads a bundle full of text the
 * agent wrote; a CLI agent used as evaluator can be talked into running anything. So it runs
 * with nothing of the App reachable:
 *
 * - its own PID, IPC, UTS and (where the host allows) user namespaces, and a /proc of its own
 *   PID namespace: the App's processes, their environments and working directories are not
 *   there to read (`/proc/$PPID/environ` is bwrap's own, and bwrap is started with an empty
 *   environment);
 * - its own network namespace (loopback only) unless the operator allows the host's network;
 * - a root of its own: /usr and the few files in /etc a program needs (CA certificates,
 *   dynamic linker cache, time zone, name service config), read-only; never the App's working
 *   directory, its home, its key file or database, /root, /home or /work. Directories of the App
 *   that happen to lie inside a bound path are covered with an empty tmpfs;
 * - a private tmpfs /tmp and a private tmpfs working directory, /evaluation, holding only
 *   bundle.json; both bounded in size, both gone when the command ends;
 * - an environment of PATH, HOME, TMPDIR, LANG, USER and only the variables the operator lists;
 * - no capabilities, no new user namespaces inside, a new session (no TIOCSTI into the App's
 *   terminal), and killed as a whole when the App or the command's bash exits.
 *
 * Where no sandbox can be had, the command does not run: the evaluation fails and says what the
 * operator must install or allow. There is no fallback.
 */

/** The command's working directory and HOME inside the sandbox: a tmpfs holding bundle.json. */
export const SANDBOX_WORKDIR = "/evaluation";
export const SANDBOX_BUNDLE = `${SANDBOX_WORKDIR}/bundle.json`;
/** The command's PATH before the listed directories; also where bwrap is looked up when the App has no PATH. */
export const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
/** nobody: the uid and gid the command has inside a user namespace. */
const SANDBOX_ID = 65534;
/** Each tmpfs (/tmp, /evaluation) takes at most this much memory. */
export const SANDBOX_TMPFS_BYTES = 256 * 1024 * 1024;
const PROBE_TIMEOUT_MS = 10_000;

/** On merged-/usr systems these are symlinks into /usr; elsewhere directories bound read-only. */
const ROOT_DIRS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
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

export type SandboxResult =
  | { ok: true; sandbox: Sandbox }
  | { ok: false; error: string; fix: string };

/** What the operator must do when no sandbox can be had; shown on the pull request as the fix. */
export const SANDBOX_FIX =
  "the App's operator installs bubblewrap 0.8 or later (Debian and Ubuntu: apt-get install bubblewrap) or points AGATE_EVALUATOR_BWRAP at it, and lets it create namespaces: unprivileged user namespaces allowed (sysctl user.max_user_namespaces above 0; kernel.unprivileged_userns_clone=1 on older Debian; on Ubuntu 23.10 and later an AppArmor profile that gives bwrap userns, or kernel.apparmor_restrict_unprivileged_userns=0), and in a container a seccomp and AppArmor profile that allow them (see docs/evaluator.md); or set evaluator.kind to llm or review in .github/agate.yml on the base branch";

type Mode = "userns" | "plain";
type Probe = { ok: true; mode: Mode } | { ok: false; detail: string };
const probes = new Map<string, Promise<Probe>>();

/**
 * Builds the sandbox for the operator's settings: finds bwrap, probes once per process which
 * namespaces the host allows (a user namespace where possible; bwrap installed setuid, or an
 * App running as root where user namespaces are off, does without), checks the listed paths.
 * Everything it takes from the App's environment is in `settings`, captured at start.
 */
export async function prepareSandbox(settings: CommandSandbox): Promise<SandboxResult> {
  const bwrap = findBwrap(settings.bwrap, settings.searchPath);
  if (bwrap === null) {
    return {
      ok: false,
      error: `the command evaluator runs only in a sandbox, and there is none on the App's host: ${settings.bwrap.includes("/") ? `AGATE_EVALUATOR_BWRAP is ${settings.bwrap}, which is not an executable file` : "bubblewrap (bwrap) is not on the App's PATH"}`,
      fix: SANDBOX_FIX,
    };
  }
  const probe = await probeSandbox(bwrap, settings.network);
  if (!probe.ok) {
    return {
      ok: false,
      error: `the command evaluator runs only in a sandbox, and bubblewrap at ${bwrap} cannot make one on the App's host: ${probe.detail}`,
      fix: SANDBOX_FIX,
    };
  }
  const places = appPlaces(settings.appPlaces);
  const binds: Bind[] = [];
  for (const path of settings.paths) {
    const real = realOrNull(path);
    if (real === null) {
      return refused(
        `AGATE_EVALUATOR_COMMAND_PATHS names ${path}, which does not exist on the App's host`,
        "the App's operator removes it from AGATE_EVALUATOR_COMMAND_PATHS or installs the program there",
      );
    }
    const holds = places.find((place) => place.path === real || inside(real, place.path));
    if (holds) {
      return refused(
        `AGATE_EVALUATOR_COMMAND_PATHS names ${path}, which holds ${holds.what} (${holds.path}); the command would read it`,
        "the App's operator lists only the directory of the evaluator's program in AGATE_EVALUATOR_COMMAND_PATHS (such as /opt/judge), one that holds nothing of the App",
      );
    }
    binds.push({ source: real, dest: path, listed: true });
  }
  const built = sandboxArgs(probe.mode, settings, binds, places);
  if ("error" in built) {
    return refused(
      built.error,
      "the App's operator runs the App from a directory of its own, with a HOME of its own (such as /srv/agate)",
    );
  }
  const id = probe.mode === "userns" ? SANDBOX_ID : (process.getuid?.() ?? SANDBOX_ID);
  const gid = probe.mode === "userns" ? SANDBOX_ID : (process.getgid?.() ?? SANDBOX_ID);
  return {
    ok: true,
    sandbox: {
      bwrap,
      args: [...built.args, ...environmentArgs(settings)],
      passwd: `evaluator:x:${id}:${gid}:agate evaluator:${SANDBOX_WORKDIR}:/bin/sh\n`,
      group: `evaluator:x:${gid}:\n`,
    },
  };
}

/**
 * For the App's start: null when the `command` kind can run on this host with these settings,
 * otherwise what is wrong and the fix, for the App to log when AGATE_EVALUATOR_COMMANDS lists a
 * command, instead of blocking the first pull request. (Invalid settings never get this far:
 * the App refuses to start on them.)
 */
export async function commandSandboxProblem(
  settings: CommandSandbox,
): Promise<{ error: string; fix: string } | null> {
  const prepared = await prepareSandbox(settings);
  return prepared.ok ? null : { error: prepared.error, fix: prepared.fix };
}

/** Bash's reserved words and builtins: a command that starts with one is bash's to read. */
const BASH_WORDS = new Set(
  (
    "! [[ { case coproc for function if select time until while " +
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt continue " +
    "declare dirs disown echo enable eval exec exit export false fc fg getopts hash help " +
    "history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly " +
    "return set shift shopt source suspend test times trap true type typeset ulimit umask " +
    "unalias unset wait"
  ).split(" "),
);

/**
 * For the settings module, at start: why a command from AGATE_EVALUATOR_COMMANDS cannot run in
 * the sandbox as it is set up, found without running anything; null when nothing is known to be
 * wrong. Only a plain first word (after `NAME=value` assignments) is looked at: the program.
 * Given by path, it must be absolute (the command runs in /evaluation, which holds only
 * bundle.json); by name, it must be on the sandbox's PATH; either way an executable file whose
 * real path the sandbox shows (/usr, or a path in AGATE_EVALUATOR_COMMAND_PATHS). Quoting,
 * expansions and compound commands are left to bash.
 */
export function commandProgramProblem(
  run: string,
  settings: Pick<CommandSandboxSettings, "paths">,
): string | null {
  const words = run.trim().split(/\s+/);
  let index = 0;
  while (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? "")) index += 1;
  const program = words[index];
  if (program === undefined || !/^[A-Za-z0-9_./+@%,:-]+$/.test(program)) return null;
  if (BASH_WORDS.has(program)) return null;
  const listed = (what: string) =>
    `AGATE_EVALUATOR_COMMANDS lists ${JSON.stringify(run)}, whose program ${program} ${what}`;
  let found: string | null;
  if (program.includes("/")) {
    if (!program.startsWith("/")) {
      return listed(
        `is a relative path, and the command runs in ${SANDBOX_WORKDIR}, which holds only bundle.json: give the program's absolute path (such as /opt/judge/bin/judge), and list its directory in AGATE_EVALUATOR_COMMAND_PATHS`,
      );
    }
    found = executableFile(program);
    if (found === null) {
      return listed(
        "is not an executable file on the App's host: install it there, or correct the command in AGATE_EVALUATOR_COMMANDS",
      );
    }
  } else {
    const searched = [...SYSTEM_PATH.split(":"), ...settings.paths.filter(isDirectory)];
    found = null;
    for (const dir of searched) {
      found = executableFile(join(dir, program));
      if (found !== null) break;
    }
    if (found === null) {
      return listed(
        `is not on the sandbox's PATH (${searched.join(":")}): install it under /usr, or list its directory in AGATE_EVALUATOR_COMMAND_PATHS`,
      );
    }
  }
  const real = found;
  const shown = [
    "/usr",
    ...ROOT_DIRS.filter((dir) => !lstatOrNull(dir)?.isSymbolicLink()),
    ...settings.paths,
  ]
    .map(realOrNull)
    .filter((dir): dir is string => dir !== null);
  if (!shown.some((dir) => dir === real || inside(dir, real))) {
    return listed(
      `is ${real} on the App's host, which the sandbox does not show (it shows /usr and the paths in AGATE_EVALUATOR_COMMAND_PATHS): list ${dirname(real)} in AGATE_EVALUATOR_COMMAND_PATHS, or install the program under /usr`,
    );
  }
  return null;
}

/** The real path of an executable regular file, or null. */
function executableFile(path: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    const real = realpathSync(path);
    return lstatOrNull(real)?.isFile() ? real : null;
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean {
  const real = realOrNull(path);
  return real !== null && lstatOrNull(real)?.isDirectory() === true;
}

function refused(error: string, fix: string): SandboxResult {
  return { ok: false, error, fix };
}

/**
 * Whether bwrap can make the sandbox here: runs `true` in it, first with a user namespace, then
 * without. Remembered per process once it works; a failure is tried again next time, so an
 * operator's fix takes effect without a restart.
 */
export function probeSandbox(bwrap: string, network: "none" | "allow"): Promise<Probe> {
  const key = `${bwrap}\0${network}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = (async (): Promise<Probe> => {
      const details: string[] = [];
      for (const mode of ["userns", "plain"] as const) {
        const built = sandboxArgs(mode, { network, paths: [], env: [] }, [], []);
        if ("error" in built) return { ok: false, detail: built.error };
        const run = await runToEnd(
          {
            bwrap,
            args: [...built.args, "--clearenv", "--setenv", "PATH", SYSTEM_PATH],
            passwd: "",
            group: "",
          },
          ["true"],
        );
        if (run.ok) return { ok: true, mode };
        details.push(`${mode === "userns" ? "with" : "without"} a user namespace: ${run.detail}`);
      }
      return { ok: false, detail: details.join("; ") };
    })();
    probes.set(key, probe);
    void probe.then((result) => {
      if (!result.ok) probes.delete(key);
    });
  }
  return probe;
}

interface Bind {
  /** The real host path. */
  source: string;
  /** Where it appears inside the sandbox. */
  dest: string;
  listed: boolean;
}

interface Place {
  /** Real path of a directory of the App's own. */
  path: string;
  what: string;
}

const WORKING_DIRECTORY = "the App's working directory (its .env, its database)";

/**
 * For the settings module, at start: the App's own places, from its settings' values (HOME, the
 * key file, the database URL, the directory relative paths resolve against).
 */
export function appPlacesOf(app: {
  cwd: string;
  home: string | undefined;
  privateKeyPath: string | undefined;
  databaseUrl: string | undefined;
}): AppPlace[] {
  const places: AppPlace[] = [{ path: resolve(app.cwd), what: WORKING_DIRECTORY }];
  if (app.home) places.push({ path: app.home, what: "the App's HOME" });
  if (app.privateKeyPath) {
    places.push({
      path: dirname(resolve(app.cwd, app.privateKeyPath)),
      what: "the App's private key",
    });
  }
  try {
    const target = parseDatabaseUrl(app.databaseUrl || DEFAULT_DATABASE_URL, app.cwd);
    if (target.kind === "sqlite")
      places.push({ path: dirname(target.filename), what: "the App's database" });
  } catch {
    // An invalid URL keeps the App from starting; nothing to hide.
  }
  return places;
}

/**
 * The App's own directories, real paths: never shown to the command, covered where a bind
 * contains them. The process's working directory and its user's home, as they are now, and the
 * places the settings named.
 */
function appPlaces(fromSettings: readonly AppPlace[]): Place[] {
  const places: Place[] = [];
  const add = (path: string | undefined, what: string) => {
    if (!path) return;
    const real = realOrNull(path);
    // "/" (a service's usual working directory) holds everything; nothing of it is bound anyway.
    if (real !== null && real !== "/" && !places.some((place) => place.path === real)) {
      places.push({ path: real, what });
    }
  };
  add(process.cwd(), WORKING_DIRECTORY);
  add(homedir(), "the home directory of the App's user");
  for (const place of fromSettings) add(place.path, place.what);
  return places;
}

function sandboxArgs(
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
function environmentArgs(settings: CommandSandbox): string[] {
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

/** Runs a short command in the sandbox to the end: the probe. */
function runToEnd(
  sandbox: Sandbox,
  command: readonly string[],
): Promise<{ ok: true } | { ok: false; detail: string }> {
  return new Promise((resolveRun) => {
    let sandboxed: Sandboxed;
    try {
      sandboxed = spawnSandboxed(sandbox, command, "");
    } catch (error) {
      resolveRun({ ok: false, detail: (error as Error).message });
      return;
    }
    const { child } = sandboxed;
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    child.stdout.resume();
    child.stdin.on("error", () => {});
    child.stdin.end();
    const timer = setTimeout(() => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
    }, PROBE_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolveRun({ ok: false, detail: error.message });
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolveRun({ ok: true });
      const said = stderr.trim().replace(/\s+/g, " ");
      resolveRun({
        ok: false,
        detail: `bwrap ${code === null ? `was killed by ${signal}` : `exited with code ${code}`}${said ? ` (${said})` : ""}`,
      });
    });
  });
}

function findBwrap(setting: string, path: string): string | null {
  const candidates = setting.includes("/")
    ? [setting]
    : path
        .split(delimiter)
        .filter((dir) => dir.startsWith("/"))
        .map((dir) => join(dir, setting));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (lstatOrNull(realpathSync(candidate))?.isFile()) return candidate;
    } catch {
      // Not this one.
    }
  }
  return null;
}

/** Whether `path` lies strictly inside `dir` (both real, absolute). */
function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith("/");
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
