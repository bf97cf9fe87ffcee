import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

/**
 * What agate closes in its own process against code of its own user. Where the commands run as a
 * user of their own (isolation.ts) none of it is reachable anyway; where they cannot (a
 * self-hosted runner without sudo, `evidence.isolation: shared-allowed`) these are the levers
 * that can be closed from inside:
 *
 * - Node's inspector. Any process of the same user may send SIGUSR1, and Node then opens its
 *   inspector on 127.0.0.1:9229, where the sender evaluates JavaScript inside agate (and makes
 *   every command's exit 0). A listener of agate's own takes the signal over: Node 20, 22 and 24
 *   then open nothing. (`--disable-sigusr1`, Node 22.14 and 23.7 on, does the same from the
 *   command line, which action.yml cannot give; the re-exec below passes it.)
 * - /proc/<pid>/environ and mem, and ptrace: allowed to the same user for a process that is
 *   "dumpable", and Node cannot call prctl(PR_SET_DUMPABLE). But the kernel makes a process
 *   undumpable when it executes a program its user cannot read, so agate executes itself again
 *   (process.execve, Node 22.15 and 23.11 on: the same process, which the runner waits for) from a
 *   copy of its node that is execute-only: its environ (the runtime token, the token input) and
 *   memory are then root's to read, and no ptrace attaches.
 *
 * What stays open to the same user: other signals (SIGSTOP, SIGKILL: a failed or hung step, never
 * a passing one), the runner's own processes, and a process that leaves the command's group with
 * setsid. The record says the commands ran as agate's user, and the App believes it only when the
 * base config allows that.
 */
export function refuseInspectorSignal(): void {
  process.on("SIGUSR1", () => {
    process.stderr.write(
      "agate: ignored SIGUSR1 (something tried to open Node's inspector in agate's process)\n",
    );
  });
}

const COPY_PREFIX = "agate-node-";

/**
 * Executes agate again from an execute-only copy of its node (see above), with
 * --disable-sigusr1 where Node knows it. Returns only when it did not: in the process already
 * executed that way (whose copy it deletes now, the kernel keeps what runs), or where it cannot
 * (no process.execve, a copy that cannot be made or executed), or when nothing asks for it.
 */
export function becomeUndumpable(env: NodeJS.ProcessEnv): void {
  const copy = env.AGATE_UNDUMPABLE_NODE;
  if (copy && process.execPath === copy && basename(dirname(copy)).startsWith(COPY_PREFIX)) {
    rmSync(dirname(copy), { recursive: true, force: true });
    delete process.env.AGATE_UNDUMPABLE_NODE;
    return;
  }
  const execve = (process as { execve?: (file: string, args: string[], env: object) => never })
    .execve;
  if (typeof execve !== "function" || process.platform !== "linux") return;
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), COPY_PREFIX));
    const node = join(dir, "node");
    copyFileSync(process.execPath, node);
    chmodSync(node, 0o100);
    // A failed execve ends the process (Node aborts): try the copy first (a noexec mount).
    const tried = spawnSync(node, ["-e", "0"], { stdio: "ignore", timeout: 30_000 });
    if (tried.status !== 0) throw new Error(`the copy of node in ${dir} does not run`);
    const flags = process.allowedNodeEnvironmentFlags.has("--disable-sigusr1")
      ? ["--disable-sigusr1"]
      : [];
    execve.call(process, node, [node, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
      ...process.env,
      AGATE_UNDUMPABLE_NODE: node,
    });
  } catch (error) {
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.stderr.write(
      `agate: could not execute itself undumpable (${error instanceof Error ? error.message : String(error)}); its environment stays readable by the commands\n`,
    );
  }
}
