/** Acceptance records: append-only; a later push marks them stale, never rewrites them. */

import type { z } from "zod";
import type {
  AcceptanceRecord,
  AcceptanceRecordInput,
} from "../../../schemas/acceptance-record.js";
import type { markStaleInputSchema } from "../../../schemas/store.js";
import type { AppendOnce, PullRequestKey } from "./keys.js";

/** The pull request and the new head whose push marks the others' records stale. */
export type MarkStaleInput = z.infer<typeof markStaleInputSchema>;

export interface ListRecordsQuery extends PullRequestKey {
  headSha?: string;
  /** The tested tree SHA, to find an earlier attempt on the same tree. */
  treeSha?: string;
}

export interface RecordStore {
  /**
   * InvalidInputError when the input is outside the schema; nothing is written then. With a
   * dedupe key already used (AppendOnce), nothing is written and that record is returned.
   */
  appendRecord(input: AcceptanceRecordInput, options?: AppendOnce): Promise<AcceptanceRecord>;
  /**
   * Returns how many records were marked. Records of `supersededBy` itself, and records marked
   * before, are left alone: a record is marked once, by the first push past it.
   */
  markStale(input: MarkStaleInput): Promise<number>;
  /** Oldest first. */
  listRecords(query: ListRecordsQuery): Promise<AcceptanceRecord[]>;
  /**
   * Every repository agate has heard of, from records or from deliveries (also those whose
   * payload was pruned), sorted, for the reconcile pass.
   */
  listRepositories(): Promise<string[]>;
}
