/**
 * Organisation-wide defaults: `extends: <owner>/.github:<path>@<commit SHA>` in a repository's
 * config names a defaults file in its owner's `.github` repository, pinned to a commit. Pure: the
 * reference is parsed and the two texts merged here; reading the defaults is the caller's.
 */
import { isMap, isPair, isScalar, type Node } from "yaml";
import type { Doc, Path } from "./parse-config.js";

/** The one repository `extends` may name, under the config's own owner. */
export const DEFAULTS_REPO = ".github";

export const EXTENDS_EXAMPLE = "my-org/.github:agate/defaults.yml@<40-hex commit SHA>";

/** A parsed `extends` reference. */
export interface ExtendsRef {
  owner: string;
  repo: typeof DEFAULTS_REPO;
  /** The defaults file's path inside `<owner>/.github`. */
  path: string;
  /** The full commit SHA the defaults are read at. */
  sha: string;
  /** The reference as written, which is also how errors name the defaults file. */
  reference: string;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * The defaults' text as read at the pinned commit; or why it could not be read (`unreadable`: the
 * reader's access or GitHub's answer, not the config's fault as far as the reader can tell); or
 * why it must not be used (`refused`: the config's fault, such as a pinned commit that is not on
 * the default branch). Never a guess: a config whose defaults are not a text is not usable.
 */
export type DefaultsRead = string | { unreadable: string } | { refused: string };

/** Why the defaults could not be used, whichever kind. */
export const defaultsProblem = (read: Exclude<DefaultsRead, string>): string =>
  "unreadable" in read ? read.unreadable : read.refused;

/**
 * GitHub's compare of the default branch's commit with the pinned SHA in `<owner>/.github`
 * (`<branch commit>...<pinned SHA>`: by commit, since a tag may share the branch's name), as the readers got it:
 * its `status`, or null when GitHub found no common history (a 404: a commit with no history in
 * common with the branch, or none GitHub knows under this repository's name).
 */
export type PinnedCommitComparison = {
  defaultBranch: string;
  status: "identical" | "behind" | "ahead" | "diverged" | null;
};

/** How messages name the defaults file: its path, the pinned commit and the repository. */
export const defaultsWhere = (ref: ExtendsRef): string =>
  `${ref.path} at ${ref.sha} in ${ref.owner}/${ref.repo}`;

/** A defaults file the contents API left out (`size`: "N bytes, over the 1 MB …"): the config's fault. */
export const oversizedDefaults = (ref: ExtendsRef, size: string): DefaultsRead => ({
  refused: `${defaultsWhere(ref)} is ${size}. A defaults file is a few kilobytes of YAML: keep only agate's config in it`,
});

/**
 * The defaults once their text is read and the pinned commit compared with the default branch:
 * the text, or why it must not be used. Every reader ends here.
 */
export function defaultsAt(
  ref: ExtendsRef,
  text: string,
  compared: PinnedCommitComparison,
): DefaultsRead {
  const problem = pinnedCommitProblem(ref, compared);
  return problem === null ? text : { refused: problem };
}

/**
 * Why the pinned commit must not be used, or null when it is on the `.github` repository's default
 * branch (the compare says the branch is at it or past it). GitHub serves under a repository's name
 * every commit it stores for it: other branches, unmerged pull requests' heads, and commits pushed
 * to any fork of a public repository. Only the default branch holds what the organisation merged;
 * a maintainer approving a SHA sees forty hex digits, not where they came from.
 */
export function pinnedCommitProblem(
  ref: ExtendsRef,
  compared: PinnedCommitComparison,
): string | null {
  const { defaultBranch, status } = compared;
  if (status === "identical" || status === "behind") return null;
  const where = `${ref.owner}/${ref.repo}`;
  const found =
    status === null
      ? `GitHub finds no history it shares with ${defaultBranch}`
      : `GitHub compares it with ${defaultBranch} as "${status}": it has commits ${defaultBranch} does not`;
  return `commit ${ref.sha} is not on ${where}'s default branch ${defaultBranch} (${found}). agate reads defaults only at a commit of the default branch: GitHub also serves other branches', unmerged pull requests' and forks' commits under ${where}'s name, and nobody merged those as the defaults. Merge the change into ${defaultBranch} and pin a commit of it (git rev-parse origin/${defaultBranch} in a clone of ${where})`;
}

/**
 * The reference in `extends`, or what is wrong with it. `owner` is the repository's owner when the
 * caller knows it (null: not checked here; the gate and the Action always know it).
 */
export function parseExtendsReference(
  value: unknown,
  owner: string | null,
): { ok: true; ref: ExtendsRef } | { ok: false; problem: string } {
  const fail = (problem: string) => ({ ok: false as const, problem });
  if (typeof value !== "string") {
    return fail(`expected a reference such as ${EXTENDS_EXAMPLE}, got ${kindOf(value)}`);
  }
  const reference = value;
  const at = reference.lastIndexOf("@");
  const colon = reference.indexOf(":");
  if (colon < 0 || at < colon) {
    return fail(
      `${JSON.stringify(value)} is not a reference to a defaults file: write <owner>/.github:<path>@<commit SHA>, such as ${EXTENDS_EXAMPLE}`,
    );
  }
  const repository = reference.slice(0, colon);
  const path = reference.slice(colon + 1, at);
  const rev = reference.slice(at + 1);
  const [refOwner, repo, ...more] = repository.split("/");
  if (!refOwner || !repo || more.length > 0 || !/^[A-Za-z0-9-]+$/.test(refOwner)) {
    return fail(
      `${JSON.stringify(repository)} is not a repository such as my-org/.github: write <owner>/.github:<path>@<commit SHA>`,
    );
  }
  const why =
    "the App's installation and the Action's token reach nothing else reliably, so defaults can live only there";
  if (repo !== DEFAULTS_REPO) {
    return fail(
      `extends may name only the owner's ${DEFAULTS_REPO} repository (${refOwner}/${DEFAULTS_REPO}), not ${repository}: ${why}`,
    );
  }
  if (owner !== null && refOwner.toLowerCase() !== owner.toLowerCase()) {
    return fail(
      `extends may name only this repository's owner's ${DEFAULTS_REPO} repository (${owner}/${DEFAULTS_REPO}), not ${repository}: ${why}`,
    );
  }
  const segments = path.split("/");
  if (
    path === "" ||
    path.startsWith("/") ||
    path.includes("\\") ||
    segments.some((s) => s === "" || s === "." || s === "..")
  ) {
    return fail(
      `${JSON.stringify(path)} is not a file path inside ${refOwner}/${DEFAULTS_REPO}: write a relative path such as agate.yml or agate/defaults.yml`,
    );
  }
  if (!FULL_SHA.test(rev)) {
    const looks = /^[0-9a-fA-F]{4,40}$/.test(rev)
      ? /[A-F]/.test(rev) && rev.length === 40
        ? "a commit SHA in capitals: write it in lowercase"
        : "an abbreviated commit SHA: write all 40 hex digits"
      : "a branch or tag name, which can move";
    return fail(
      `${JSON.stringify(rev)} is ${looks}. Pin the defaults to a full 40-hex commit SHA (git rev-parse HEAD in ${refOwner}/${DEFAULTS_REPO}): the defaults must not change under a base commit that did not change, and a change of the SHA is a change of this file that needs a maintainer's approval`,
    );
  }
  return {
    ok: true,
    ref: { owner: refOwner, repo: DEFAULTS_REPO, path, sha: rev, reference },
  };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return JSON.stringify(value);
}

type Json = Record<string, unknown>;

const isPlainMap = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether the two maps merge key by key. A map with a different `kind` (the evaluator's) takes
 * other keys, so the repository's replaces the defaults' whole rather than mixing the two kinds.
 */
const mergeable = (defaults: Json, own: Json) =>
  !("kind" in defaults && "kind" in own && defaults.kind !== own.kind);

/**
 * The defaults, then the repository's file on top: maps merge key by key (the repository's value
 * wins), lists and scalars (null included, so a rule can be switched off) are replaced whole.
 */
export function mergeDefaults(defaults: unknown, own: unknown): unknown {
  if (!isPlainMap(defaults) || !isPlainMap(own) || !mergeable(defaults, own)) return own;
  const merged: Json = { ...defaults };
  for (const [key, value] of Object.entries(own)) {
    merged[key] = key in defaults ? mergeDefaults(defaults[key], value) : value;
  }
  return merged;
}

/** A YAML node's own value, for the `kind` comparison `mergeable` makes on data. */
function kindIn(node: Node): unknown {
  if (!isMap(node)) return undefined;
  const pair = node.items.find(
    (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === "kind",
  );
  return pair && isScalar(pair.value) ? pair.value.value : undefined;
}

/**
 * Which document the merged value at `path` came from, following the merge's rules: the
 * repository's file wherever it set the value (or replaced a map whole), the defaults where
 * only they did; a key neither set is reported in the repository's file, the one being edited.
 */
export function originOf(own: Doc, defaults: Doc, path: Path): "own" | "defaults" {
  for (let depth = 1; depth <= path.length; depth++) {
    const prefix = path.slice(0, depth);
    const mineThere = own.hasIn(prefix);
    const theirsThere = defaults.hasIn(prefix);
    if (!mineThere) return theirsThere ? "defaults" : "own";
    if (!theirsThere) return "own";
    // Both set it: merged only when both are maps (of the same kind), else the repository's won.
    const mine = own.getIn(prefix, true);
    const theirs = defaults.getIn(prefix, true);
    if (!isMap(mine) || !isMap(theirs)) return "own";
    const [a, b] = [kindIn(mine), kindIn(theirs)];
    if (a !== undefined && b !== undefined && a !== b) return "own";
  }
  return "own";
}
