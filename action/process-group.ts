import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * How one required command is started and what is killed after it. runCommand knows nothing of
 * users: the shared launcher is today's process group, the isolated one a user of its own.
 */
export interface CommandLauncher {
  /** Starts `bash args...` for one command (stdout and stderr piped, its own process group). */
  start(
    bash: string,
    args: string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
  ): Promise<ChildProcess>;
  /** A timeout's signal to everything the command started. */
  signal(child: ChildProcess, signal: "SIGTERM" | "SIGKILL"): void;
  /**
   * After bash exited: kills whatever the command left running and resolves once none of it can
   * run any more; false when that took longer than limitMs.
   */
  sweep(child: ChildProcess, limitMs: number): Promise<boolean>;
}

/** A command's standard streams: no input, its output piped to agate (every launcher's). */
export const COMMAND_STDIO: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];

/**
 * A process's state letter and process group, from /proc/<pid>/stat; null when it is not there
 * (gone, or no /proc). A zombie (Z) or a dead one (X) can no longer run.
 */
export function procState(pid: number | string): { state: string; pgrp: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
  const [state = "", , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state, pgrp: Number(pgrp) };
}

/** Whether a process state can still run (not a zombie waiting to be reaped, not dead). */
export const canRun = (state: string) => state !== "Z" && state !== "X";

/**
 * Today's way, and the only one where no other user is possible: bash leads its own process
 * group, the group is killed after it, and a process that left the group (setsid) is not seen.
 */
export function processGroupLauncher(): CommandLauncher {
  const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  return {
    start: async (bash, args, { cwd, env }) =>
      spawn(bash, args, { cwd, env, detached: true, stdio: COMMAND_STDIO }),
    signal: killGroup,
    async sweep(child, limitMs) {
      killGroup(child, "SIGKILL");
      return child.pid === undefined || groupGone(child.pid, limitMs);
    },
  };
}

/** Members of a process group that can still run (a zombie cannot: it waits to be reaped). */
function livingMembers(pgid: number): number {
  try {
    process.kill(-pgid, 0);
  } catch {
    return 0; // ESRCH: no process at all in the group.
  }
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 1; // No /proc (macOS): the group exists, count it as living.
  }
  let living = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = procState(entry);
    if (proc && proc.pgrp === pgid && canRun(proc.state)) living++;
  }
  return living;
}

/** Kills the group again until no member can run; false when that takes longer than limitMs. */
async function groupGone(pgid: number, limitMs: number): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  for (;;) {
    if (livingMembers(pgid) === 0) return true;
    if (performance.now() > deadline) return false;
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
