/**
 * The `command` evaluator's sandbox, on bubblewrap (bwrap). The command comes from a
 * repository's config (from the operator's allow-list) and reads a bundle full of text the
 * agent wrote; a CLI agent used as evaluator can be talked into running anything. So it runs
 * with nothing of the App reachable:
 *
 * - its own PID, IPC, UTS and (where the host allows) user namespaces, and a /proc of its own
 *   PID namespace: the App's processes, their environments and working directories are not
 *   there to read (`/proc/$PPID/environ` is bwrap's own, and bwrap is started with an empty
 *   environment);
 * - its own network namespace (loopback only) unless the operator allows the host's network;
 * - a root of its own: /usr and the few files in /etc a program needs (CA certificates,
 *   dynamic linker cache, time zone, name service config), read-only; never the App's working
 *   directory, its home, its key file or database, /root, /home or /work. Directories of the App
 *   that happen to lie inside a bound path are covered with an empty tmpfs;
 * - a private tmpfs /tmp and a private tmpfs working directory, /evaluation, holding only
 *   bundle.json; both bounded in size, both gone when the command ends;
 * - an environment of PATH, HOME, TMPDIR, LANG, USER and only the variables the operator lists;
 * - no capabilities, no new user namespaces inside, a new session (no TIOCSTI into the App's
 *   terminal), and killed as a whole when the App or the command's bash exits.
 *
 * Where no sandbox can be had, the command does not run: the evaluation fails and says what the
 * operator must install or allow. There is no fallback.
 *
 * This file puts it together; sandbox-bwrap.ts holds bwrap's options and the start,
 * sandbox-places.ts the App's places it never shows, sandbox-probe.ts the try whether bwrap
 * works on this host.
 */
import type { CommandSandbox } from "./policy.js";
import {
  type Bind,
  environmentArgs,
  inside,
  realOrNull,
  SANDBOX_ID,
  SANDBOX_WORKDIR,
  type Sandbox,
  sandboxArgs,
} from "./sandbox-bwrap.js";
import { appPlaces } from "./sandbox-places.js";
import { findBwrap, probeSandbox } from "./sandbox-probe.js";

export type SandboxResult =
  | { ok: true; sandbox: Sandbox }
  | { ok: false; error: string; fix: string };

/** What the operator must do when no sandbox can be had; shown on the pull request as the fix. */
export const SANDBOX_FIX =
  "the App's operator installs bubblewrap 0.8 or later (Debian and Ubuntu: apt-get install bubblewrap) or points AGATE_EVALUATOR_BWRAP at it, and lets it create namespaces: unprivileged user namespaces allowed (sysctl user.max_user_namespaces above 0; kernel.unprivileged_userns_clone=1 on older Debian; on Ubuntu 23.10 and later an AppArmor profile that gives bwrap userns, or kernel.apparmor_restrict_unprivileged_userns=0), and in a container a seccomp and AppArmor profile that allow them (see docs/evaluator.md); or set evaluator.kind to llm or review in .github/agate.yml on the base branch";

/**
 * Builds the sandbox for the operator's settings: finds bwrap, probes once per process which
 * namespaces the host allows (a user namespace where possible; bwrap installed setuid, or an
 * App running as root where user namespaces are off, does without), checks the listed paths.
 * Everything it takes from the App's environment is in `settings`, captured at start.
 */
export async function prepareSandbox(settings: CommandSandbox): Promise<SandboxResult> {
  const bwrap = findBwrap(settings.bwrap, settings.searchPath);
  if (bwrap === null) {
    return {
      ok: false,
      error: `the command evaluator runs only in a sandbox, and there is none on the App's host: ${settings.bwrap.includes("/") ? `AGATE_EVALUATOR_BWRAP is ${settings.bwrap}, which is not an executable file` : "bubblewrap (bwrap) is not on the App's PATH"}`,
      fix: SANDBOX_FIX,
    };
  }
  const probe = await probeSandbox(bwrap, settings.network);
  if (!probe.ok) {
    return {
      ok: false,
      error: `the command evaluator runs only in a sandbox, and bubblewrap at ${bwrap} cannot make one on the App's host: ${probe.detail}`,
      fix: SANDBOX_FIX,
    };
  }
  const places = appPlaces(settings.appPlaces);
  const binds: Bind[] = [];
  for (const path of settings.paths) {
    const real = realOrNull(path);
    if (real === null) {
      return refused(
        `AGATE_EVALUATOR_COMMAND_PATHS names ${path}, which does not exist on the App's host`,
        "the App's operator removes it from AGATE_EVALUATOR_COMMAND_PATHS or installs the program there",
      );
    }
    const holds = places.find((place) => place.path === real || inside(real, place.path));
    if (holds) {
      return refused(
        `AGATE_EVALUATOR_COMMAND_PATHS names ${path}, which holds ${holds.what} (${holds.path}); the command would read it`,
        "the App's operator lists only the directory of the evaluator's program in AGATE_EVALUATOR_COMMAND_PATHS (such as /opt/judge), one that holds nothing of the App",
      );
    }
    binds.push({ source: real, dest: path, listed: true });
  }
  const built = sandboxArgs(probe.mode, settings, binds, places);
  if ("error" in built) {
    return refused(
      built.error,
      "the App's operator runs the App from a directory of its own, with a HOME of its own (such as /srv/agate)",
    );
  }
  const id = probe.mode === "userns" ? SANDBOX_ID : (process.getuid?.() ?? SANDBOX_ID);
  const gid = probe.mode === "userns" ? SANDBOX_ID : (process.getgid?.() ?? SANDBOX_ID);
  return {
    ok: true,
    sandbox: {
      bwrap,
      args: [...built.args, ...environmentArgs(settings)],
      passwd: `evaluator:x:${id}:${gid}:agate evaluator:${SANDBOX_WORKDIR}:/bin/sh\n`,
      group: `evaluator:x:${gid}:\n`,
    },
  };
}

/**
 * For the App's start: null when the `command` kind can run on this host with these settings,
 * otherwise what is wrong and the fix, for the App to log when AGATE_EVALUATOR_COMMANDS lists a
 * command, instead of blocking the first pull request. (Invalid settings never get this far:
 * the App refuses to start on them.)
 */
export async function commandSandboxProblem(
  settings: CommandSandbox,
): Promise<{ error: string; fix: string } | null> {
  const prepared = await prepareSandbox(settings);
  return prepared.ok ? null : { error: prepared.error, fix: prepared.fix };
}

function refused(error: string, fix: string): SandboxResult {
  return { ok: false, error, fix };
}
