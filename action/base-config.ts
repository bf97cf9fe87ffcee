import { type GitObject, gitMaybe } from "./git/git.js";

/** Reads a file at a commit through the contents API, for when git cannot reach the commit. */
export type ReadFileAtCommit = (sha: string, path: string) => Promise<string | null>;

export interface BaseConfig {
  /** null: the base commit has no config, so the repository has not adopted agate. */
  text: string | null;
  via: "git" | "api";
}

const hasCommit = (cwd: string, sha: string) =>
  gitMaybe(cwd, ["cat-file", "-e", `${sha}^{commit}`]) !== undefined;

/**
 * `git fetch --depth=1 origin <what>`, before any command runs. Besides the hardening every call
 * of agate's git gets (git.ts), `--upload-pack` overrides a `remote.origin.uploadpack` program
 * from the repository's config (run locally for file and ssh remotes), and submodules are not
 * fetched (their config is theirs).
 */
export function fetchShallow(cwd: string, what: string): boolean {
  return (
    gitMaybe(cwd, [
      "fetch",
      "--no-tags",
      "--quiet",
      "--no-recurse-submodules",
      "--upload-pack=git-upload-pack",
      "--depth=1",
      "origin",
      what,
    ]) !== undefined
  );
}

/**
 * The config as the base commit has it, never as the checked-out head has it: an agent must not
 * be able to change what it is graded by. A shallow checkout lacks the base commit, so it is
 * fetched by SHA; when that fails (no credentials persisted), the contents API is asked.
 */
export async function readConfigAtBase(options: {
  cwd: string;
  sha: string;
  path: string;
  api?: ReadFileAtCommit;
  /** `<sha>:<path>` as readObjects already read it (null: git did not find it there). */
  read?: GitObject | null;
}): Promise<BaseConfig> {
  const { cwd, sha, path } = options;
  if (options.read?.type === "blob")
    return { text: options.read.content.toString("utf8"), via: "git" };
  // cat-file prints the blob as stored: no textconv or filter (git show may apply them).
  const read = () => gitMaybe(cwd, ["cat-file", "blob", `${sha}:${path}`]);
  let text = options.read === undefined ? read() : undefined;
  if (text !== undefined) return { text, via: "git" };
  if (!hasCommit(cwd, sha)) {
    fetchShallow(cwd, sha);
    text = read();
    if (text !== undefined) return { text, via: "git" };
  }
  if (hasCommit(cwd, sha)) return { text: null, via: "git" };
  if (options.api) return { text: await options.api(sha, path), via: "api" };
  throw new Error(
    `cannot read ${path} at the base commit ${sha}: it is not in the checkout and fetching it failed. ` +
      "Give the Action a token with contents: read, or check out with fetch-depth: 0.",
  );
}

/** The default base for a local run: where HEAD forked from the default branch. */
export function localBase(cwd: string, ref?: string): string {
  const candidates = ref
    ? [ref]
    : [
        gitMaybe(cwd, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"])?.trim(),
        "origin/main",
        "origin/master",
        "main",
        "master",
      ].filter((name): name is string => Boolean(name));
  for (const name of candidates) {
    const base = gitMaybe(cwd, ["merge-base", "HEAD", name])?.trim();
    if (base) return base;
  }
  throw new Error(
    ref
      ? `cannot find where HEAD forked from ${ref}: is it a branch or commit of this repository?`
      : "cannot find the default branch (origin/HEAD, main or master): pass --base REF",
  );
}
