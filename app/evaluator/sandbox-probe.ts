/**
 * Whether bubblewrap can make the sandbox on this host, found by trying: where bwrap is, and
 * whether it works with a user namespace or only without one.
 */
import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import {
  lstatOrNull,
  type Mode,
  type Sandbox,
  type Sandboxed,
  SYSTEM_PATH,
  sandboxArgs,
  spawnSandboxed,
} from "./sandbox-bwrap.js";

const PROBE_TIMEOUT_MS = 10_000;

type Probe = { ok: true; mode: Mode } | { ok: false; detail: string };
const probes = new Map<string, Promise<Probe>>();

/**
 * Whether bwrap can make the sandbox here: runs `true` in it, first with a user namespace, then
 * without. Remembered per process once it works; a failure is tried again next time, so an
 * operator's fix takes effect without a restart.
 */
export function probeSandbox(bwrap: string, network: "none" | "allow"): Promise<Probe> {
  const key = `${bwrap}\0${network}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = (async (): Promise<Probe> => {
      const details: string[] = [];
      for (const mode of ["userns", "plain"] as const) {
        const built = sandboxArgs(mode, { network, paths: [], env: [] }, [], []);
        if ("error" in built) return { ok: false, detail: built.error };
        const run = await runToEnd(
          {
            bwrap,
            args: [...built.args, "--clearenv", "--setenv", "PATH", SYSTEM_PATH],
            passwd: "",
            group: "",
          },
          ["true"],
        );
        if (run.ok) return { ok: true, mode };
        details.push(`${mode === "userns" ? "with" : "without"} a user namespace: ${run.detail}`);
      }
      return { ok: false, detail: details.join("; ") };
    })();
    probes.set(key, probe);
    void probe.then((result) => {
      if (!result.ok) probes.delete(key);
    });
  }
  return probe;
}

/** Runs a short command in the sandbox to the end: the probe. */
function runToEnd(
  sandbox: Sandbox,
  command: readonly string[],
): Promise<{ ok: true } | { ok: false; detail: string }> {
  return new Promise((resolveRun) => {
    let sandboxed: Sandboxed;
    try {
      sandboxed = spawnSandboxed(sandbox, command, "");
    } catch (error) {
      resolveRun({ ok: false, detail: (error as Error).message });
      return;
    }
    const { child } = sandboxed;
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    child.stdout.resume();
    child.stdin.on("error", () => {});
    child.stdin.end();
    const timer = setTimeout(() => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
    }, PROBE_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolveRun({ ok: false, detail: error.message });
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolveRun({ ok: true });
      const said = stderr.trim().replace(/\s+/g, " ");
      resolveRun({
        ok: false,
        detail: `bwrap ${code === null ? `was killed by ${signal}` : `exited with code ${code}`}${said ? ` (${said})` : ""}`,
      });
    });
  });
}

export function findBwrap(setting: string, path: string): string | null {
  const candidates = setting.includes("/")
    ? [setting]
    : path
        .split(delimiter)
        .filter((dir) => dir.startsWith("/"))
        .map((dir) => join(dir, setting));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (lstatOrNull(realpathSync(candidate))?.isFile()) return candidate;
    } catch {
      // Not this one.
    }
  }
  return null;
}
