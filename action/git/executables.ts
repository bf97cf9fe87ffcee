import { accessSync, constants, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";

/**
 * Where the system's own programs live. agate starts bash and git by absolute path from here,
 * never by a PATH lookup: a step before agate can put any directory first on PATH for the rest of
 * the job (`echo /tmp/evil >> "$GITHUB_PATH"`), and a fake `bash` there that exits 0 would make
 * every command "pass"; a fake `git` would report a clean work tree; a fake `sudo` would run the
 * commands as agate's own user instead of the commands user (isolation.ts), and a fake `env`
 * would start another shell.
 */
export const SYSTEM_DIRECTORIES = [
  "/usr/bin",
  "/bin",
  "/usr/local/bin",
  "/opt/homebrew/bin",
  "/run/current-system/sw/bin",
];

const found = new Map<string, string>();

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of a system program, resolved once per process. `searchPath` is for the CLI
 * only, on a machine where the program lives elsewhere (the person running it owns its PATH);
 * the Action never looks at PATH.
 */
export function systemExecutable(
  name: "bash" | "git" | "sudo" | "env",
  options: { searchPath?: string | undefined } = {},
): string {
  const cached = found.get(name);
  if (cached) return cached;
  const fromPath = (options.searchPath ?? "")
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .map((dir) => join(dir, name));
  const path = [...SYSTEM_DIRECTORIES.map((dir) => join(dir, name)), ...fromPath].find(
    isExecutableFile,
  );
  if (!path) {
    throw new Error(
      `agate needs ${name} in one of ${SYSTEM_DIRECTORIES.join(", ")}; install it there (agate does not look ${name} up on PATH, which an earlier step can change)`,
    );
  }
  found.set(name, path);
  return path;
}

/** PATH for agate's own git: the system directories, never the job's PATH. */
export function systemPath(): string {
  return [...new Set([dirname(systemExecutable("git")), ...SYSTEM_DIRECTORIES])].join(delimiter);
}
