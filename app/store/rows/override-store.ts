/** The maintainer overrides' rows on either backend. */
import {
  type OverrideInput,
  overrideInputSchema,
  type StoredOverride,
  storedOverrideSchema,
} from "../../../schemas/store.js";
import type { AppendOnce } from "../ports/keys.js";
import { dedupeKeyOf, parseInput, parseRowWithJson } from "../validate.js";

export const OVERRIDE_COLUMNS =
  "id, repository, pull_number, head_sha, base_ref, by, reason, comment_url, at";

/** An override's columns, in the order of the INSERT's parameters. */
export function overrideParams(
  override: OverrideInput,
  recordedAt: string,
  dedupeKey: string | null,
) {
  return [
    override.repository,
    override.pull_number,
    override.head_sha,
    override.base_ref,
    override.by,
    override.reason,
    override.comment_url,
    override.at,
    recordedAt,
    dedupeKey,
  ];
}

export function overrideFromRow(row: Record<string, unknown>): StoredOverride {
  return parseRowWithJson(storedOverrideSchema, row, "maintainer_overrides", []);
}

/** appendOverride's override and options, checked. */
export function overrideInput(input: OverrideInput, options: AppendOnce) {
  const override = parseInput(overrideInputSchema, input, "maintainer override");
  return { override, dedupeKey: dedupeKeyOf(options) };
}
