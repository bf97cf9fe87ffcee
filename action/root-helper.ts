import { type ChildProcess, spawn } from "node:child_process";
import { ISOLATION_SCRIPT } from "./isolation-script.js";
import { canRun, procState } from "./process-group.js";

/**
 * The root steps around each command (handover, signal, reclaim: isolation-script.ts) for a whole
 * job, in one root shell started once (`serve`), instead of a sudo and a bash per step: on a
 * hosted runner a sudo costs 5 to 30 ms (PAM, its log), paid twice per command before.
 *
 * The shell is agate's child: its requests come on a pipe only agate holds (the commands never
 * get agate's descriptors, and another uid cannot open /proc/<agate>/fd), and its answers on its
 * standard output, which no process a step starts inherits (isolation-script.ts). Each step still
 * runs as before, to its end, before agate hears of it: what isolation.ts guarantees around a
 * command is unchanged, only the cost of getting to root is paid once.
 */
export interface RootHelper {
  /** The process agate started (sudo, or bash when agate is root). */
  readonly pid: number | undefined;
  /** Runs one step; resolves when it exited 0, rejects with what it said otherwise. */
  run(step: "handover" | "signal" | "reclaim", args: string[]): Promise<void>;
  /**
   * Ends it: its input closed, and waits (synchronously: a job being cancelled calls this from a
   * signal handler) until the step it may be running has ended, at most `limitMs`.
   */
  close(limitMs?: number): void;
}

interface Pending {
  step: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** `file argv...` runs bash as root (sudo -n -- bash, or bash itself when agate is root). */
export function startRootHelper(file: string, argv: string[], env: NodeJS.ProcessEnv): RootHelper {
  const child: ChildProcess = spawn(file, [...argv, "-s", "--", "serve"], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pending: Pending[] = [];
  let said = "";
  let ended: string | undefined;
  let answers = "";
  const fail = (why: string) => {
    ended ??= why;
    for (const waiting of pending.splice(0)) {
      waiting.reject(new Error(`${waiting.step} of the commands user failed: ${why}`));
    }
  };
  child.stdin?.on("error", () => undefined);
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    said = (said + text).slice(-16_384);
  });
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    answers += text;
    for (let end = answers.indexOf("\n"); end >= 0; end = answers.indexOf("\n")) {
      const status = answers.slice(0, end);
      answers = answers.slice(end + 1);
      const waiting = pending.shift();
      if (!waiting) continue;
      if (status === "0") {
        said = "";
        waiting.resolve();
        continue;
      }
      // What the step said may still be on its way through the other pipe.
      setTimeout(() => {
        const message = said.trim().replace(/^agate-isolation: /gm, "") || `exit ${status}`;
        said = "";
        waiting.reject(new Error(`${waiting.step} of the commands user failed: ${message}`));
      }, 20);
    }
  });
  child.on("error", (error) => fail(error.message));
  child.on("exit", (code, signal) => {
    fail(`the root shell ended (${signal ?? `exit ${code}`}): ${said.trim() || "it said nothing"}`);
  });
  child.stdin?.write(ISOLATION_SCRIPT);
  return {
    pid: child.pid,
    run(step, args) {
      return new Promise<void>((resolve, reject) => {
        if (ended !== undefined || !child.stdin?.writable) {
          reject(
            new Error(`${step} of the commands user failed: ${ended ?? "the root shell is gone"}`),
          );
          return;
        }
        pending.push({ step, resolve, reject });
        const fields = [step, ...args];
        child.stdin.write(`${fields.length}\0${fields.map((field) => `${field}\0`).join("")}`);
      });
    },
    close(limitMs = 30_000) {
      // destroy, not end: it closes the pipe now (end waits for the event loop, which this
      // blocks), and the shell leaves its loop after the step it is in.
      child.stdin?.destroy();
      const pid = child.pid;
      if (pid === undefined || pending.length === 0) return;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      const deadline = Date.now() + limitMs;
      while (running(pid) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 5);
    },
  };
}

/** Whether a child of agate's is still running (not exited; an unreaped zombie has ended). */
function running(pid: number): boolean {
  const proc = procState(pid);
  return proc !== null && canRun(proc.state);
}
