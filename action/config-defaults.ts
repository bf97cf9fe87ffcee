/**
 * Reading a config the way the gate reads it, `extends` included: the one function every reader
 * in the Action and the CLI goes through (the Action's run, `run`, `validate`, `handoff`,
 * `trace --config`, `doctor`). The defaults are read at their pinned commit through the REST
 * contents API; the merge itself is checks/config/parse-config.ts's.
 */
import {
  type DefaultsRead,
  defaultsAt,
  defaultsWhere,
  type ExtendsRef,
  oversizedDefaults,
} from "../checks/config/extends.js";
import { configExtends, type LoadedConfig, parseConfig } from "../checks/config/parse-config.js";
import { gitMaybe } from "./git/git.js";
import type { RepositoryFileRead } from "./github.js";

export type { DefaultsRead };
export type ReadDefaults = (ref: ExtendsRef) => Promise<DefaultsRead>;

/**
 * A config's text, with the defaults it extends read and merged. Without `readDefaults` a config
 * that extends defaults is refused (never used alone); an unreadable defaults file is a
 * ConfigurationError located at the file's `extends`.
 */
export async function loadConfig(
  text: string,
  file: string,
  options: { owner: string | null; readDefaults?: ReadDefaults },
): Promise<LoadedConfig> {
  const ref = configExtends(text, file, options.owner);
  const defaults = ref && options.readDefaults ? await options.readDefaults(ref) : undefined;
  return parseConfig(text, file, { owner: options.owner, defaults });
}

/** What a person can do when the defaults cannot be read, by who holds the token. */
export const TOKEN_ADVICE = {
  action: (ref: ExtendsRef) =>
    `a private or internal ${ref.owner}/.github needs a token that can read it (contents: read on ${ref.owner}/.github and nothing more, such as a fine-grained personal access token for that one repository: code in the job can read it), passed as the agate Action's token input; the workflow's own GITHUB_TOKEN reads only the repository it runs in`,
  cli: (ref: ExtendsRef) =>
    `set GITHUB_TOKEN or GH_TOKEN to a token that can read ${ref.owner}/.github (for example GH_TOKEN=$(gh auth token)); GITHUB_API_URL names another GitHub host`,
} as const;

/**
 * The REST API's answers for the defaults, in words that say what to do: the file at the pinned
 * commit, and whether that commit is on the `.github` repository's default branch (a commit of
 * another branch, an unmerged pull request or a fork is refused, see pinnedCommitProblem).
 */
export function defaultsReader(options: {
  token: string | undefined;
  apiUrl: string | undefined;
  advice: (ref: ExtendsRef) => string;
}): ReadDefaults {
  return async (ref) => {
    // Loaded only when a config extends defaults: the Octokit client is not small.
    const { readRepositoryFile, compareWithDefaultBranch } = await import("./github.js");
    const repository = {
      token: options.token,
      baseUrl: options.apiUrl,
      owner: ref.owner,
      repo: ref.repo,
    };
    const read = await readRepositoryFile({ ...repository, path: ref.path, sha: ref.sha });
    if (!read.ok) return unreadableFile(read, ref, options);
    const compared = await compareWithDefaultBranch({ ...repository, sha: ref.sha });
    if (!compared.ok) {
      const asked = `whether ${ref.sha} is on ${ref.owner}/${ref.repo}'s default branch`;
      return {
        unreadable:
          compared.status === "rate-limited"
            ? `GitHub's rate limit answered when agate asked ${asked} (${compared.message}); run again later${options.token ? "" : ", or give a token: anonymous requests get 60 an hour"}`
            : `GitHub answered ${compared.status ?? "nothing"} (${compared.message}) when agate asked ${asked}: ${options.advice(ref)}`,
      };
    }
    return defaultsAt(ref, read.text, compared.compared);
  };
}

function unreadableFile(
  read: Extract<RepositoryFileRead, { ok: false }>,
  ref: ExtendsRef,
  options: { token: string | undefined; advice: (ref: ExtendsRef) => string },
): DefaultsRead {
  const where = defaultsWhere(ref);
  const token = options.token ? "the token" : "no token was given, and an anonymous request";
  switch (read.status) {
    case 404:
      return {
        unreadable: `GitHub answered 404 for ${where}: the file is not at that commit, or ${token} cannot see ${ref.owner}/${ref.repo}. Check the path and the SHA; ${options.advice(ref)}`,
      };
    case 401:
    case 403:
      return {
        unreadable: `GitHub answered ${read.status} (${read.message}) for ${where}: ${options.advice(ref)}`,
      };
    case "rate-limited":
      return {
        unreadable: `GitHub's rate limit answered for ${where} (${read.message}); run again later${options.token ? "" : ", or give a token: anonymous requests get 60 an hour"}`,
      };
    case "not-a-file":
      return { unreadable: `${where} is not a file: name the defaults file itself` };
    case "too-large":
      return oversizedDefaults(ref, read.message);
    default:
      return {
        unreadable: `cannot read ${where}: ${read.message}; run again once GitHub answers (or check GITHUB_API_URL)`,
      };
  }
}

/** The CLI's reader: the token in GITHUB_TOKEN or GH_TOKEN when there is one, else anonymous. */
export function cliDefaultsReader(env: NodeJS.ProcessEnv): ReadDefaults {
  return defaultsReader({
    token: env.GITHUB_TOKEN || env.GH_TOKEN || undefined,
    apiUrl: env.GITHUB_API_URL,
    advice: TOKEN_ADVICE.cli,
  });
}

/**
 * The owner `extends` may name, for a local run: GITHUB_REPOSITORY's, else the GitHub owner in
 * the origin remote's URL; null when neither says (the gate checks it in any case).
 */
export function checkoutOwner(root: string | undefined, env: NodeJS.ProcessEnv): string | null {
  const fromEnv = env.GITHUB_REPOSITORY?.split("/")[0];
  if (fromEnv) return fromEnv;
  if (!root) return null;
  const url = gitMaybe(root, ["remote", "get-url", "origin"])?.trim() ?? "";
  return /[:/]([A-Za-z0-9-]+)\/[^/]+?(?:\.git)?\/?$/.exec(url)?.[1] ?? null;
}
