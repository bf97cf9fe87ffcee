import type { Readable } from "node:stream";
import type { CommandResult } from "../schemas/command-record.js";
import { systemExecutable } from "./git/executables.js";
import { OutputDigest } from "./output-digest.js";
import { type CommandLauncher, processGroupLauncher } from "./process-group.js";
import { keepStreamingMemorySmall } from "./stream-memory.js";

/** What running a command observes; the work tree's changes are added by the caller. */
export type CommandRun = Omit<CommandResult, "changed_paths" | "changed_paths_count">;

export interface RunCommandOptions {
  name: string;
  run: string;
  timeoutMs: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Receives the output as it arrives (the live log); the digest sees the same bytes. */
  onOutput?: (chunk: Buffer) => void;
  /** Time between SIGTERM and SIGKILL when the timeout kills the process group. */
  killGraceMs?: number;
  /** How long every process of the group may take to be gone after SIGKILL. */
  goneLimitMs?: number;
  /** bash, by absolute path; default the system's (see executables.ts). */
  bash?: string;
  /**
   * How bash is started and what is killed after it: as the commands user, every process of that
   * user (isolation.ts); default, as agate's user, the command's process group.
   */
  launcher?: CommandLauncher;
  now?: () => Date;
}

/**
 * Runs one required command with `bash --noprofile --norc -eo pipefail -c`, stdout and stderr
 * interleaved as the log shows them. bash is the system's, by absolute path: a `bash` an earlier
 * step put first on PATH is never run. `--noprofile --norc`: no start-up file of the user's runs
 * (BASH_ENV, the one a non-interactive shell reads, is removed from the environment by
 * commandEnvironment). A timeout kills everything the command started, and whatever it left
 * running in the background is killed when it exits: a leftover child must not keep writing after
 * the record is made, nor hold the step open. "Everything" is the launcher's: every process of the
 * commands user when they run as one (a daemon, a double fork, setsid included), else the
 * command's process group (a process that left it with setsid is not seen: see the README's threat
 * model). This returns only once all of it is gone.
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandRun> {
  const now = options.now ?? (() => new Date());
  const grace = options.killGraceMs ?? 5_000;
  keepStreamingMemorySmall();
  const digest = new OutputDigest();
  const started = now();
  const startedMs = performance.now();

  const bash = options.bash ?? systemExecutable("bash");
  const launcher = options.launcher ?? processGroupLauncher();
  const child = await launcher.start(
    bash,
    ["--noprofile", "--norc", "-eo", "pipefail", "-c", options.run],
    {
      cwd: options.cwd,
      env: options.env,
    },
  );
  if (!child.stdout || !child.stderr) throw new Error("agate: the command's output is not piped");
  const forward = (chunk: Buffer) => {
    digest.update(chunk);
    options.onOutput?.(chunk);
  };
  child.stdout.on("data", forward);
  child.stderr.on("data", forward);

  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const timeout = setTimeout(() => {
    timedOut = true;
    launcher.signal(child, "SIGTERM");
    killTimer = setTimeout(() => launcher.signal(child, "SIGKILL"), grace);
  }, options.timeoutMs);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code, signal) => resolve({ code, signal }));
    },
  ).finally(() => clearTimeout(timeout));

  // bash is gone; anything still running is a leftover background process.
  clearTimeout(killTimer);
  if (!(await launcher.sweep(child, options.goneLimitMs ?? 10_000))) {
    throw new Error(
      `agate: a process of the command ${JSON.stringify(options.name)} survived SIGKILL; no record is made while it may still write`,
    );
  }
  await drain([child.stdout, child.stderr], 2_000);

  return {
    name: options.name,
    run: options.run,
    exit_code: timedOut ? null : exit.code,
    signal: timedOut ? (exit.signal ?? "SIGTERM") : exit.signal,
    timed_out: timedOut,
    started_at: started.toISOString(),
    duration_ms: Math.round(performance.now() - startedMs),
    output: digest.finish(),
  };
}

/**
 * Waits for the pipes to deliver what is buffered in them. A process that left the group (setsid)
 * could hold them open forever, so after `limitMs` they are closed and its output is not read.
 */
async function drain(streams: Readable[], limitMs: number): Promise<void> {
  const ended = streams.map(
    (stream) =>
      new Promise<void>((resolve) => {
        if (stream.readableEnded || stream.destroyed) return resolve();
        stream.once("end", resolve);
        stream.once("close", resolve);
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
  });
  await Promise.race([Promise.all(ended), limit]);
  clearTimeout(timer);
  for (const stream of streams) stream.destroy();
}
