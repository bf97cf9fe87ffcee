import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { batchInput, type GitObject, HEAD_COMMIT, parseBatch } from "./git/git.js";
import { type GitSteps, runInBackground } from "./git/git-steps.js";
import { LOCATE_REQUESTS, type ShadowWithState, shadowWithStateSteps } from "./git/shadow-git.js";

/**
 * agate's git before its bundle has loaded. The git processes before the first command (the
 * checked-out commit and the base config in one `cat-file`, then the shadow: `rev-parse`,
 * `config`, `read-tree`, `ls-files`) need neither zod nor yaml, so `index.ts` starts them from
 * this module, which imports node's built-ins and `action/git/` only, before it imports the rest:
 * they run on another core while the bundle is parsed, and `runRequiredCommands` takes what they
 * read instead of reading it again (docs/performance.md, issue 32's third pass).
 *
 * What holds it to the same rules as the git it replaces:
 * - The very same steps (git-steps.ts): the same executable resolved from system directories,
 *   never PATH (a step before agate can prepend a directory with a fake `git` to PATH), the same
 *   hardening and clean environment (git.ts: an earlier step's `.git/config` and `GIT_*` run
 *   nothing), the shadow built the same way (shadow-git.ts).
 * - Its inputs are the job's raw environment, read before the inputs are validated; agate takes
 *   what it read only for exactly the working directory, config path, base commit and shadow git
 *   dir its validated inputs name (`take`), else reads them itself: a different input can change
 *   how fast agate is, never what it reads.
 * - Whoever takes it awaits every process it started (runInBackground settles only then): none is
 *   left reading the repository's `.git` when the first command may start rewriting it, and the
 *   shadow exists, complete, before the first command, as shadow-git.ts requires.
 */
export interface EarlyGitTarget {
  /** The working directory, resolved. */
  cwd: string;
  configPath: string;
  baseSha: string;
  /** Where the shadow git dir is built (the state directory's `shadow-git`). */
  gitDir: string;
}

export interface EarlyRead {
  /** readObjects(cwd, [HEAD_COMMIT, `<baseSha>:<configPath>`]). */
  objects: (GitObject | null)[];
  /** The shadow for the checked-out commit `sha` and the state before the first command. */
  built?: ShadowWithState & { sha: string };
}

export interface EarlyGit {
  /**
   * What was read, when it was read for exactly `target`, once every process is gone; otherwise
   * undefined (and a shadow it built is removed). Once only: the shadow is the caller's then.
   */
  take(target: EarlyGitTarget): Promise<EarlyRead | undefined>;
  /** Waits for every process, and removes a shadow nobody took (a run that failed before). */
  discard(): Promise<void>;
}

const PULL_REQUEST_EVENTS = new Set(["pull_request", "pull_request_target"]);

/**
 * The early git for a run of the Action, or undefined where it cannot guess the target cheaply
 * (an event whose base agate finds by fetching, no RUNNER_TEMP): agate then reads it all itself.
 * Reads inputs as workflow-commands.ts's getInput does, with action.yml's defaults.
 */
export function earlyGitFromEnv(env: NodeJS.ProcessEnv): EarlyGit | undefined {
  try {
    const input = (name: string) => (env[`INPUT_${name.toUpperCase()}`] ?? "").trim();
    const name = env.GITHUB_EVENT_NAME ?? "";
    if (!env.RUNNER_TEMP || !env.GITHUB_EVENT_PATH) return undefined;
    if (!PULL_REQUEST_EVENTS.has(name) && name !== "merge_group") return undefined;
    const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8"));
    const baseSha: unknown =
      name === "merge_group" ? event?.merge_group?.base_sha : event?.pull_request?.base?.sha;
    if (typeof baseSha !== "string" || !/^[0-9a-f]{40,64}$/.test(baseSha)) return undefined;
    return startEarlyGit({
      cwd: resolve(input("working-directory") || "."),
      configPath: input("config") || ".github/agate.yml",
      baseSha,
      gitDir: join(env.RUNNER_TEMP, "agate", "shadow-git"),
    });
  } catch {
    return undefined;
  }
}

/** Starts the early git for `target` (see EarlyGit). */
export function startEarlyGit(target: EarlyGitTarget): EarlyGit {
  const reading: Promise<EarlyRead | undefined> = runInBackground(
    target.cwd,
    earlySteps(target),
  ).catch(() => undefined);
  let taken = false;
  return {
    async take(wanted) {
      const read = await reading;
      if (taken) return undefined;
      taken = true;
      const same =
        wanted.cwd === target.cwd &&
        wanted.configPath === target.configPath &&
        wanted.baseSha === target.baseSha &&
        resolve(wanted.gitDir) === resolve(target.gitDir);
      if (same) return read;
      read?.built?.shadow.remove();
      return undefined;
    },
    async discard() {
      const read = await reading;
      if (taken) return;
      taken = true;
      read?.built?.shadow.remove();
    },
  };
}

/**
 * The reads, in three rounds of processes: `cat-file` with the repository's location and core.*
 * settings together, then the shadow's index (`read-tree`), then its listing (`ls-files`).
 * A failure anywhere ends it (the caller reads everything itself and reports what failed).
 */
function* earlySteps(target: EarlyGitTarget): GitSteps<EarlyRead> {
  const configSpec = `${target.baseSha}:${target.configPath}`;
  const names = [HEAD_COMMIT, configSpec];
  const [batch, ...located] = yield [
    { args: ["cat-file", "--batch"], input: batchInput(names) },
    ...LOCATE_REQUESTS,
  ];
  const objects = parseBatch(names, batch ?? Buffer.alloc(0));
  const head = objects[0];
  // No commit checked out: the caller says so (testedCommit).
  if (head?.type !== "commit") return { objects };
  const built = yield* shadowWithStateSteps(
    { cwd: target.cwd, sha: head.sha, gitDir: target.gitDir },
    located,
  );
  return { objects, built: { ...built, sha: head.sha } };
}
