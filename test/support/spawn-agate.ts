/**
 * Tests only: runs child-server.ts (or another script that prints `AGATE_READY <json>` when it
 * listens, such as entries-child.ts) as a real Node process and waits until it listens.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./child-server.ts", import.meta.url));
const TSX = fileURLToPath(import.meta.resolve("tsx"));

export interface AgateProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code or signal once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `cwd` should be a temp dir: Probot reads a `.env` file in the working directory, and so does
 * agate's main.ts; a developer's .env must not leak into a test.
 */
export function spawnAgate(options: {
  env: Record<string, string>;
  cwd: string;
  timeoutMs?: number;
  /** The script to run (a file path); child-server.ts by default. */
  script?: string;
}): Promise<AgateProcess> {
  const child = spawn(process.execPath, ["--import", TSX, options.script ?? CHILD], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  const limitMs = options.timeoutMs ?? 20_000;
  return new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`agate child did not start within ${limitMs} ms:\n${output}`));
    }, limitMs);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = started ? null : /^AGATE_READY (.*)$/m.exec(output);
      if (ready?.[1]) {
        started = true;
        clearTimeout(timer);
        const { url, port } = JSON.parse(ready[1]) as { url: string; port: number };
        resolve({ url, port, child, output: () => output, exited });
      }
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      if (!started) {
        reject(new Error(`agate child exited (${code ?? signal}) before it listened:\n${output}`));
      }
    });
  });
}
