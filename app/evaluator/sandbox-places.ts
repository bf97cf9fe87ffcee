/**
 * What the sandbox must never show: the App's own places (its working directory, HOME, key file
 * and database), and, at the App's start, whether a listed command's program is one the sandbox
 * shows at all.
 */
import { accessSync, constants, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from "../store/open-store.js";
import type { AppPlace, CommandSandboxSettings } from "./policy.js";
import {
  inside,
  lstatOrNull,
  type Place,
  ROOT_DIRS,
  realOrNull,
  SANDBOX_WORKDIR,
  SYSTEM_PATH,
} from "./sandbox-bwrap.js";

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
export function appPlaces(fromSettings: readonly AppPlace[]): Place[] {
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
