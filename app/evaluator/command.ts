import type { Readable } from "node:stream";
import { SANDBOX_FIX } from "./sandbox.js";
import { type Sandbox, spawnSandboxed } from "./sandbox-bwrap.js";

/** Beyond this on stdout the answer cannot be a verdict; stop reading rather than buffer it. */
export const COMMAND_STDOUT_LIMIT = 1024 * 1024;
/** How much of stderr the error message keeps: its end, where the reason usually is. */
const STDERR_TAIL_CHARS = 1_500;
const DRAIN_LIMIT_MS = 2_000;

export interface EvaluatorCommandOptions {
  run: string;
  /** Written to stdin, then stdin is closed; also the sandbox's /evaluation/bundle.json. */
  input: string;
  /** Where it runs: see app/evaluator/sandbox.ts. */
  sandbox: Sandbox;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when the timeout kills the sandbox. */
  killGraceMs: number;
  signal?: AbortSignal;
}

export type EvaluatorCommandResult =
  | { ok: true; stdout: string }
  | { ok: false; error: string; fix: string };

/**
 * Runs the evaluator command once, in its sandbox: `bash --norc -eo pipefail -c run` under
 * bwrap, which leads a process group of its own; the bundle on stdin and in bundle.json, stdout
 * captured (bounded), stderr's tail kept for the error. A timeout kills bwrap's group (SIGTERM,
 * then SIGKILL after the grace), and bwrap's death ends the sandbox's PID namespace, so every
 * process in it dies; bash's exit ends it the same way, so nothing the command started outlives
 * it. Never throws: every failure is a result with what to do about it.
 */
export async function runEvaluatorCommand(
  options: EvaluatorCommandOptions,
): Promise<EvaluatorCommandResult> {
  // --norc: bash sources ~/.bashrc when stdin is a socket (it takes it for an ssh session).
  const { child, started } = spawnSandboxed(
    options.sandbox,
    ["bash", "--norc", "-eo", "pipefail", "-c", options.run],
    options.input,
  );

  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };

  let stopped: Stop | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (reason: Stop) => {
    if (stopped) return;
    stopped = reason;
    killGroup("SIGTERM");
    killTimer = setTimeout(() => killGroup("SIGKILL"), options.killGraceMs);
  };

  const output = captured(child, () => stop("overflow"));

  // A command that never reads stdin closes the pipe early: that is its business, not an error.
  child.stdin.on("error", () => {});
  child.stdin.end(options.input);

  const timeout = setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = () => stop("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const exit = await new Promise<Exit>((resolve) => {
    child.once("error", (error) => resolve({ spawnError: error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  }).finally(() => {
    clearTimeout(timeout);
    options.signal?.removeEventListener("abort", onAbort);
  });
  // bwrap is gone, and the sandbox with it; this only makes sure of its process group.
  killGroup("SIGKILL");
  clearTimeout(killTimer);
  await drained(child.stdout, child.stderr);
  return resultOf(options, exit, stopped, started, output);
}

type Stop = "timeout" | "overflow" | "aborted";
type Exit = { code: number | null; signal: NodeJS.Signals | null } | { spawnError: Error };

interface Captured {
  stdout(): string;
  stderr(): string;
}

/** stdout up to COMMAND_STDOUT_LIMIT (beyond it, `overflow` is called and the rest dropped), and stderr's end. */
function captured(child: { stdout: Readable; stderr: Readable }, overflow: () => void): Captured {
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    if (stdoutBytes + chunk.length > COMMAND_STDOUT_LIMIT) {
      stdoutBytes = COMMAND_STDOUT_LIMIT + 1;
      overflow();
      return;
    }
    stdoutBytes += chunk.length;
    stdout.push(chunk);
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4 * STDERR_TAIL_CHARS);
  });
  return { stdout: () => Buffer.concat(stdout).toString("utf8"), stderr: () => stderr };
}

/** The run's result: why it was stopped, or how it ended, and what to do about it. */
async function resultOf(
  options: EvaluatorCommandOptions,
  exit: Exit,
  stopped: Stop | null,
  started: Promise<boolean>,
  output: Captured,
): Promise<EvaluatorCommandResult> {
  const tail = stderrTail(output.stderr());
  if ("spawnError" in exit) {
    return {
      ok: false,
      error: `could not start bubblewrap (${options.sandbox.bwrap}) for the evaluator command: ${exit.spawnError.message}`,
      fix: SANDBOX_FIX,
    };
  }
  if (stopped === "aborted") {
    return { ok: false, error: "the evaluation was cancelled", fix: "use Re-run evaluator" };
  }
  if (stopped === "timeout") {
    return {
      ok: false,
      error: `evaluator.run did not finish within ${options.timeoutMs} ms; its sandbox was killed${tail}`,
      fix: "raise evaluator.timeout in .github/agate.yml on the base branch, or make the command answer sooner",
    };
  }
  if (stopped === "overflow") {
    return {
      ok: false,
      error: `evaluator.run printed more than ${COMMAND_STDOUT_LIMIT} bytes on stdout and was killed`,
      fix: "make evaluator.run print only the verdict JSON on stdout; send logs to stderr",
    };
  }
  if (!(await started)) {
    return {
      ok: false,
      error: `the sandbox for the evaluator command did not start${tail}`,
      fix: SANDBOX_FIX,
    };
  }
  if (exit.code !== 0) {
    const how =
      exit.code === null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return {
      ok: false,
      error: `evaluator.run ${how} in its sandbox${tail}`,
      fix:
        exit.code === 127
          ? "a program that evaluator.run names is not in the sandbox, which shows only /usr and the paths the App's operator lists: install it under /usr, or the App's operator lists its directory in AGATE_EVALUATOR_COMMAND_PATHS"
          : "make evaluator.run in .github/agate.yml on the base branch exit 0 after printing the verdict JSON; run it by hand with the bundle JSON on stdin to see why it fails (in the sandbox it has no network unless the App's operator sets AGATE_EVALUATOR_COMMAND_NETWORK=allow, and only the variables listed in AGATE_EVALUATOR_COMMAND_ENV)",
    };
  }
  return { ok: true, stdout: output.stdout() };
}

/**
 * Waits for what is still buffered in the pipes. They close when the sandbox ends; should one
 * stay open all the same, after a short while it is closed and the rest is not read.
 */
async function drained(...streams: Readable[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(
      streams.map(
        (stream) =>
          new Promise<void>((resolve) => {
            if (stream.readableEnded || stream.destroyed) return resolve();
            stream.once("end", resolve);
            stream.once("close", resolve);
          }),
      ),
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DRAIN_LIMIT_MS);
    }),
  ]);
  clearTimeout(timer);
  for (const stream of streams) stream.destroy();
}

function stderrTail(stderr: string): string {
  const trimmed = stderr.trimEnd();
  if (trimmed === "") return " (stderr was empty)";
  const tail =
    trimmed.length > STDERR_TAIL_CHARS ? `…${trimmed.slice(-STDERR_TAIL_CHARS)}` : trimmed;
  return `; stderr ends:\n${tail}`;
}
