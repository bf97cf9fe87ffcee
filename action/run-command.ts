import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import type { CommandResult } from "../schemas/command-record.js";
import { OutputDigest } from "./output-digest.js";

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
  now?: () => Date;
}

/**
 * Runs one required command with `bash -eo pipefail -c`, stdout and stderr interleaved as the
 * log shows them. The command leads its own process group, so a timeout kills everything it
 * started, and whatever it left running in the background is killed when it exits: a leftover
 * child must not keep writing after the record is made, nor hold the step open.
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandResult> {
  const now = options.now ?? (() => new Date());
  const grace = options.killGraceMs ?? 5_000;
  const digest = new OutputDigest();
  const started = now();
  const startedMs = performance.now();

  const child = spawn("bash", ["-eo", "pipefail", "-c", options.run], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const forward = (chunk: Buffer) => {
    digest.update(chunk);
    options.onOutput?.(chunk);
  };
  child.stdout.on("data", forward);
  child.stderr.on("data", forward);

  let timedOut = false;
  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  let killTimer: NodeJS.Timeout | undefined;
  const timeout = setTimeout(() => {
    timedOut = true;
    killGroup("SIGTERM");
    killTimer = setTimeout(() => killGroup("SIGKILL"), grace);
  }, options.timeoutMs);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code, signal) => resolve({ code, signal }));
    },
  ).finally(() => clearTimeout(timeout));

  // bash is gone; anything still in its group is a leftover background process.
  killGroup("SIGKILL");
  clearTimeout(killTimer);
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
