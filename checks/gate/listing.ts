import type { ChangedFilesListing } from "../../schemas/gate.js";

/** GitHub's compare lists at most this many files; pulls/list-files at most the other. */
export const COMPARE_FILES_LIMIT = 300;
export const PULL_FILES_LIMIT = 3_000;

/**
 * Whether a listing of changed files is the whole change. A listing at GitHub's cap may have
 * been cut, and one shorter than the count GitHub gives for the change left files out; either
 * way a decision on it could miss a protected path or a modified workflow, so it is incomplete.
 */
export function judgeListing(options: {
  /** What was listed, in words: "the compare of base...head", "the pull request's file list". */
  source: string;
  count: number;
  limit: number;
  /** GitHub's own count of changed files, when it gives one. */
  expected: number | null;
}): ChangedFilesListing {
  const { source, count, limit, expected } = options;
  if (count >= limit) {
    return {
      complete: false,
      reason: `${source} stops at ${limit} files and this change has ${expected !== null && expected > count ? expected : `at least ${limit}`}, so agate cannot see every changed file`,
    };
  }
  if (expected !== null && count < expected) {
    return {
      complete: false,
      reason: `${source} lists ${count} files, but GitHub counts ${expected} changed files`,
    };
  }
  return { complete: true, reason: null };
}

/** The maintainer command that accepts one exact head, as the summary shows it. */
export function overrideCommand(headSha: string): string {
  return `/agate accept ${headSha} <why this commit may merge>`;
}
