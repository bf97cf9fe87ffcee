/** Tests only: runs entries-child.ts (the real App) as a Node process; waits until it listens. */
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { spawnAgate } from "./spawn-agate.js";

const CHILD = fileURLToPath(new URL("./entries-child.ts", import.meta.url));

export interface AppProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Kills it (SIGKILL: a crash, nothing closed) and waits for the exit. */
  crash(): Promise<void>;
}

/** `cwd` should be a temp dir: Probot and agate read a `.env` there. */
export async function startAppProcess(options: {
  env: Record<string, string>;
  cwd: string;
}): Promise<AppProcess> {
  const app = await spawnAgate({ ...options, script: CHILD });
  return {
    url: app.url,
    child: app.child,
    output: app.output,
    crash: async () => {
      app.child.kill("SIGKILL");
      await app.exited;
    },
  };
}
