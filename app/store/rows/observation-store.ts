/**
 * What the store keeps of GitHub's state, on either backend: the inputs checked, the observations
 * kept once, sightings and check runs read back.
 */
import {
  type AgateCheckRun,
  agateCheckRunSchema,
  checkRunEntrySchema,
  type HeadObservation,
  headObservationSchema,
  mergeCommitObservationSchema,
  type PullRequestSighting,
  pullRequestKeySchema,
  pullRequestSightingSchema,
} from "../../../schemas/store.js";
import { CorruptRowError } from "../errors.js";
import type { PullRequestKey } from "../ports/keys.js";
import type { HeadAndBase } from "../ports/observation-store.js";
import { inputOf, parseInput, parseRow } from "../validate.js";

/** newestHead's parameters, in order: the key checked, so a typo is an error, not "none seen". */
export function newestHeadParams(query: PullRequestKey) {
  const key = parseInput(pullRequestKeySchema, query, "newest head's pull request");
  return [key.repository, key.pullNumber];
}

/** The row newestHead read, as its domain shape; null when there is none. */
export function newestHeadFromRow(row: unknown, query: PullRequestKey): HeadAndBase | null {
  return row === undefined
    ? null
    : parseRow(
        newestHeadSchema,
        row,
        "pull_request_heads",
        `${query.repository}#${query.pullNumber}`,
      );
}

const newestHeadSchema = headObservationSchema.pick({
  head_sha: true,
  base_ref: true,
  base_sha: true,
});

/** A head observation's values for pull_request_heads, in the order of its columns. */
export const NEWEST_HEAD_COLUMNS =
  "repository, pull_number, head_sha, base_ref, base_sha, observed_at";
export function newestHeadValues(observation: HeadObservation) {
  const o = observation;
  return [o.repository, o.pull_number, o.head_sha, o.base_ref, o.base_sha, o.observed_at];
}

export const SIGHTING_COLUMNS = "repository, pull_number, updated_at, digest, observed_at";

export function sightingFromRow(row: unknown, query: PullRequestKey): PullRequestSighting | null {
  return row === undefined
    ? null
    : parseRow(
        pullRequestSightingSchema,
        row,
        "pull_request_sightings",
        `${query.repository}#${query.pullNumber}`,
      );
}

/** The check run a ledger row holds (JSON text), or null where none is known. */
export function checkRunFromRow(
  row: { check_run: string } | undefined,
  query: { repository: string; headSha: string },
): AgateCheckRun | null {
  if (row === undefined) return null;
  const key = `${query.repository}@${query.headSha}`;
  let value: unknown;
  try {
    value = JSON.parse(row.check_run);
  } catch (error) {
    throw new CorruptRowError("agate_check_runs", key, "check_run is not valid JSON", {
      cause: error,
    });
  }
  return parseRow(agateCheckRunSchema, value, "agate_check_runs", key);
}

/**
 * The observations kept once (seeing one again writes nothing): where each goes, and the INSERT
 * that keeps it, its values in the order of its columns. `placeholder(n)` is the backend's
 * n-th parameter (`?` or `$n`).
 */
const KEPT_ONCE = {
  merge_commits: ["repository", "pull_number", "head_sha", "merge_sha", "observed_at"],
  head_observations: ["repository", "head_sha", "pull_number", "base_ref", "observed_at"],
} as const;

export function keepOnce(
  table: keyof typeof KEPT_ONCE,
  row: Record<string, unknown>,
  placeholder: (n: number) => string,
): { sql: string; values: unknown[] } {
  const columns = KEPT_ONCE[table];
  const slots = columns.map((_, i) => placeholder(i + 1));
  return {
    sql: `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${slots.join(", ")})
      ON CONFLICT DO NOTHING`,
    values: columns.map((column) => row[column]),
  };
}

export const mergeCommitInput = inputOf(mergeCommitObservationSchema, "merge commit");

export const headObservationInput = inputOf(headObservationSchema, "head observation");

export const sightingInput = inputOf(pullRequestSightingSchema, "pull request sighting");

export const checkRunInput = inputOf(checkRunEntrySchema, "check run entry");
