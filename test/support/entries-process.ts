/** Tests only: runs entries-child.ts (the real App) as a Node process; waits until it listens. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./entries-child.ts", import.meta.url));
const TSX = fileURLToPath(import.meta.resolve("tsx"));

export interface AppProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Kills it (SIGKILL: a crash, nothing closed) and waits for the exit. */
  crash(): Promise<void>;
}

/** `cwd` should be a temp dir: Probot and agate read a `.env` there. */
export function startAppProcess(options: {
  env: Record<string, string>;
  cwd: string;
}): Promise<AppProcess> {
  const child = spawn(process.execPath, ["--import", TSX, CHILD], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the App did not start within 20 s:\n${output}`));
    }, 20_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^AGATE_READY (.*)$/m.exec(output);
      if (ready?.[1]) {
        clearTimeout(timer);
        const { url } = JSON.parse(ready[1]) as { url: string };
        resolve({
          url,
          child,
          output: () => output,
          crash: async () => {
            child.kill("SIGKILL");
            await exited;
          },
        });
      }
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the App exited before it listened:\n${output}`));
    });
  });
}
