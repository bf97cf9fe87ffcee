import { spawn } from "node:child_process";
import type { Readable } from "node:stream";

/** Beyond this on stdout the answer cannot be a verdict; stop reading rather than buffer it. */
export const COMMAND_STDOUT_LIMIT = 1024 * 1024;
/** How much of stderr the error message keeps: its end, where the reason usually is. */
const STDERR_TAIL_CHARS = 1_500;
const DRAIN_LIMIT_MS = 2_000;

export interface EvaluatorCommandOptions {
  run: string;
  /** Written to stdin, then stdin is closed. */
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when the timeout kills the process group. */
  killGraceMs: number;
  signal?: AbortSignal;
}

export type EvaluatorCommandResult =
  | { ok: true; stdout: string }
  | { ok: false; error: string; fix: string };

/**
 * Names the evaluator command never sees. The command comes from a repository's config and reads
 * a bundle full of text the agent wrote; the App runs it on its own host for every repository it
 * is installed on. With the App's private key or webhook secret, a repository owner (or an agent
 * whose diff talks a CLI evaluator into running `env`) could act as the App on every
 * installation; with the evaluator API key or database URL, spend the operator's money or read
 * every repository's records. So every agate setting and anything that looks like a credential
 * goes, unless the operator passes it on purpose (`passEnv`, e.g. a CLI agent's own key).
 */
const SECRET_NAMES = new Set([
  "PRIVATE_KEY",
  "PRIVATE_KEY_PATH",
  "WEBHOOK_SECRET",
  "WEBHOOK_PROXY_URL",
  "GITHUB_CLIENT_SECRET",
  "CLIENT_SECRET",
  "DATABASE_URL",
]);
const SECRET_PATTERN = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION/i;

export function evaluatorCommandEnvironment(
  env: Record<string, string | undefined>,
  passEnv: readonly string[] = [],
): NodeJS.ProcessEnv {
  const pass = new Set(passEnv);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const secret =
      SECRET_NAMES.has(name) ||
      name.startsWith("AGATE_") ||
      SECRET_PATTERN.test(name) ||
      // A URL with credentials in it (postgres://user:password@host) is a secret whatever its name.
      /^[a-z][a-z0-9+.-]*:\/\/[^/\s]*:[^/\s]*@/i.test(value);
    if (!secret || pass.has(name)) out[name] = value;
  }
  return out;
}

/**
 * Runs the evaluator command once: `bash --norc -eo pipefail -c run` leading its own process group, the
 * bundle on stdin, stdout captured (bounded), stderr's tail kept for the error. A timeout kills
 * the whole group (SIGTERM, then SIGKILL after the grace), and whatever the command left running
 * is killed when it exits. Never throws: every failure is a result with what to do about it.
 */
export async function runEvaluatorCommand(
  options: EvaluatorCommandOptions,
): Promise<EvaluatorCommandResult> {
  // --norc: node's stdio pipes are socket pairs, and bash sources ~/.bashrc of the App's user
  // when stdin is a socket (it takes it for an ssh session); that is no input for an evaluator.
  const child = spawn("bash", ["--norc", "-eo", "pipefail", "-c", options.run], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });

  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };

  let stopped: "timeout" | "overflow" | "aborted" | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (reason: "timeout" | "overflow" | "aborted") => {
    if (stopped) return;
    stopped = reason;
    killGroup("SIGTERM");
    killTimer = setTimeout(() => killGroup("SIGKILL"), options.killGraceMs);
  };

  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    if (stdoutBytes + chunk.length > COMMAND_STDOUT_LIMIT) {
      stdoutBytes = COMMAND_STDOUT_LIMIT + 1;
      stop("overflow");
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

  // A command that never reads stdin closes the pipe early: that is its business, not an error.
  child.stdin.on("error", () => {});
  child.stdin.end(options.input);

  const timeout = setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = () => stop("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const exit = await new Promise<
    { code: number | null; signal: NodeJS.Signals | null } | { spawnError: Error }
  >((resolve) => {
    child.once("error", (error) => resolve({ spawnError: error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  }).finally(() => {
    clearTimeout(timeout);
    options.signal?.removeEventListener("abort", onAbort);
  });
  // bash is gone; anything still in its group is a leftover that must not outlive the evaluation.
  killGroup("SIGKILL");
  clearTimeout(killTimer);
  await drained(child.stdout, child.stderr);

  const tail = stderrTail(stderr);
  if ("spawnError" in exit) {
    return {
      ok: false,
      error: `could not start the evaluator command with bash: ${exit.spawnError.message}`,
      fix: "install bash on the App's host and make sure its PATH finds it",
    };
  }
  if (stopped === "aborted") {
    return { ok: false, error: "the evaluation was cancelled", fix: "use Re-run evaluator" };
  }
  if (stopped === "timeout") {
    return {
      ok: false,
      error: `evaluator.run did not finish within ${options.timeoutMs} ms; its process group was killed${tail}`,
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
  if (exit.code !== 0) {
    const how =
      exit.code === null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return {
      ok: false,
      error: `evaluator.run ${how}${tail}`,
      fix: "make evaluator.run in .github/agate.yml on the base branch exit 0 after printing the verdict JSON; run it by hand with the bundle JSON on stdin to see why it fails",
    };
  }
  return { ok: true, stdout: Buffer.concat(stdout).toString("utf8") };
}

/**
 * Waits for what is still buffered in the pipes. A process that left the group (setsid) could
 * hold them open forever, so after a short while they are closed and the rest is not read.
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
