// The users a runner's job runs as, made on this machine so the Action can be run the way each
// kind of runner runs it:
//
// - `hosted`: a GitHub-hosted runner's user, `runner`: not root, with passwordless sudo
//   (`NOPASSWD: ALL`). The Action makes the commands user through that sudo.
// - `plain`: a self-hosted runner's user without sudo. The commands can only run as agate's own
//   user (`evidence.isolation: shared-allowed`).
//
// Making them needs root, or passwordless sudo: CI runs as root (.ci/run), and sets
// AGATE_REQUIRE_ISOLATION_TESTS=1 so that a test that could not run fails instead of skipping.
import { execFileSync, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";

export interface RunnerUser {
  kind: "hosted" | "plain";
  name: string;
  uid: number;
  gid: number;
  home: string;
}

const NAMES = { hosted: "agate-runner", plain: "agate-plain" } as const;

/** CI sets it: an isolation test that cannot run is a failure there, never a skip. */
export const ISOLATION_TESTS_REQUIRED = process.env.AGATE_REQUIRE_ISOLATION_TESTS === "1";

const isRoot = () => process.getuid?.() === 0;

/**
 * Whether the tests may act as root: they run as root, or were told to use passwordless sudo
 * (AGATE_REQUIRE_ISOLATION_TESTS=1). The runner users they make stay on the machine, one of them
 * with NOPASSWD sudo, so sudo that answers only because a person typed a password a minute ago
 * must not make them unasked.
 */
export function canActAsRoot(): boolean {
  if (process.platform !== "linux") return false;
  if (isRoot()) return true;
  if (!ISOLATION_TESTS_REQUIRED) return false;
  return spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
}

/** Runs a program as root (directly, or through passwordless sudo). */
export function asRoot(file: string, args: string[]): string {
  return isRoot()
    ? execFileSync(file, args, { encoding: "utf8" })
    : execFileSync("sudo", ["-n", "--", file, ...args], { encoding: "utf8" });
}

const found = new Map<string, RunnerUser | string>();

/**
 * The runner user of a kind, made when missing; a string saying why there is none (no root, no
 * sudo, not Linux).
 */
export function runnerUser(kind: RunnerUser["kind"]): RunnerUser | string {
  const cached = found.get(kind);
  if (cached) return cached;
  let result: RunnerUser | string;
  if (!canActAsRoot()) {
    result =
      process.platform === "linux"
        ? "the tests run neither as root nor with AGATE_REQUIRE_ISOLATION_TESTS=1 (which lets them use passwordless sudo to make two runner users, left on the machine), so no runner user is made (CI runs them as root)"
        : `runner users are made on Linux only (this is ${process.platform})`;
  } else {
    result = ensureUser(kind);
  }
  found.set(kind, result);
  return result;
}

function ensureUser(kind: RunnerUser["kind"]): RunnerUser | string {
  const name = NAMES[kind];
  const exists = spawnSync("id", ["-u", name], { stdio: "ignore" }).status === 0;
  if (!exists) asRoot("useradd", ["--create-home", "--shell", "/bin/bash", name]);
  const sudoers = `/etc/sudoers.d/${name}`;
  if (kind === "hosted") {
    // As on GitHub's images: the runner's user may do anything through sudo, without a password.
    const line = `${name} ALL=(ALL) NOPASSWD: ALL\n`;
    if (isRoot()) writeFileSync(sudoers, line, { mode: 0o440 });
    else asRoot("bash", ["-c", `printf '%s' "$1" > "$2" && chmod 440 "$2"`, "_", line, sudoers]);
  } else {
    asRoot("rm", ["-f", sudoers]);
  }
  const [uid, gid] = [asRoot("id", ["-u", name]), asRoot("id", ["-g", name])].map((v) =>
    Number(v.trim()),
  );
  const home = asRoot("getent", ["passwd", name]).split(":")[5] ?? `/home/${name}`;
  const sudo = spawnSync("sudo", ["-n", "-u", name, "--", "sudo", "-n", "true"], {
    stdio: "ignore",
  }).status;
  if ((kind === "hosted") !== (sudo === 0)) {
    return `${name} should ${kind === "hosted" ? "" : "not "}have passwordless sudo, and it does${kind === "hosted" ? " not" : ""}`;
  }
  return { kind, name, uid: uid as number, gid: gid as number, home };
}

/** Makes a directory tree the user's (a checkout the runner made, its RUNNER_TEMP). */
export function giveTo(user: RunnerUser, ...paths: string[]): void {
  for (const path of paths) asRoot("chown", ["-R", `${user.uid}:${user.gid}`, path]);
}

/**
 * Starts a program as the runner user, with exactly `env`: from root with its uid and gid (no
 * supplementary group), otherwise through sudo (`env -i`, which puts the values on a command line:
 * fine for a test's environment).
 */
export function spawnAs(
  user: RunnerUser,
  file: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> } & Pick<SpawnOptions, "stdio">,
) {
  if (isRoot()) {
    return spawn(file, args, { ...options, uid: user.uid, gid: user.gid });
  }
  const assignments = Object.entries(options.env).map(([k, v]) => `${k}=${v}`);
  return spawn(
    "sudo",
    ["-n", "-u", user.name, "--", "/usr/bin/env", "-i", ...assignments, file, ...args],
    { cwd: options.cwd, stdio: options.stdio },
  );
}

/**
 * Whether the Action can run the commands as a user of their own on this machine, as the tests
 * run it (root, or a user with passwordless sudo). Where it cannot (a contributor's machine
 * without sudo), a test config that is not about isolation allows shared records, or the Action
 * would refuse to run its commands at all.
 */
export const ACTION_CAN_ISOLATE = canActAsRoot();

/** A test's base config, allowing shared records on a machine where nothing else is possible. */
export function testConfig(text: string): string {
  if (ACTION_CAN_ISOLATE || /^\s+isolation:\s*shared-allowed\s*$/m.test(text)) return text;
  if (/^evidence:\s*$/m.test(text)) {
    return text.replace(/^evidence:\s*$/m, "evidence:\n  isolation: shared-allowed");
  }
  return `${text.endsWith("\n") ? text : `${text}\n`}evidence:\n  isolation: shared-allowed\n`;
}
