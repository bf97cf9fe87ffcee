/**
 * The acceptance records' rows on either backend: the inputs checked, the columns, a record's
 * parameters, a row read back.
 */
import {
  type AcceptanceRecord,
  type AcceptanceRecordInput,
  acceptanceRecordInputSchema,
  acceptanceRecordSchema,
} from "../../../schemas/acceptance-record.js";
import { markStaleInputSchema } from "../../../schemas/store.js";
import type { AppendOnce } from "../ports/keys.js";
import { dedupeKeyOf, inputOf, parseInput, parseRowWithJson, toJsonColumn } from "../validate.js";

/** A record with its stale mark, if any: `SELECT ${RECORD_COLUMNS} WHERE …` (r, m). */
export const RECORD_COLUMNS = `r.id, r.repository, r.pull_number, r.head_sha, r.base_sha, r.tested,
  r.commands, r.provenance, r.runner, r.grader, r.verdict, r.verdict_by, r.handoff, r.override,
  r.decision, r.decided_at, r.recorded_at, m.superseded_by AS stale_superseded_by,
  m.at AS stale_at
  FROM acceptance_records r LEFT JOIN acceptance_record_stale_marks m ON m.record_id = r.id`;

const RECORD_JSON_COLUMNS = [
  "tested",
  "commands",
  "provenance",
  "runner",
  "grader",
  "verdict",
  "handoff",
  "override",
  "decision",
] as const;

/** The INSERT's column list; recordParams gives the values in this order. */
export const RECORD_INSERT = `INSERT INTO acceptance_records (repository, pull_number, head_sha,
  base_sha, tested, commands, provenance, runner, grader, verdict, verdict_by, handoff, override,
  decision, decided_at, recorded_at, dedupe_key)`;

/** A record's columns, in RECORD_INSERT's order (JSON columns as text). */
export function recordParams(
  record: AcceptanceRecordInput,
  recordedAt: string,
  dedupeKey: string | null,
) {
  return {
    repository: record.repository,
    pull_number: record.pull_number,
    head_sha: record.head_sha,
    base_sha: record.base_sha,
    tested: toJsonColumn(record.tested),
    commands: JSON.stringify(record.commands),
    provenance: toJsonColumn(record.provenance),
    runner: toJsonColumn(record.runner),
    grader: JSON.stringify(record.grader),
    verdict: toJsonColumn(record.verdict),
    verdict_by: record.verdict_by,
    handoff: toJsonColumn(record.handoff),
    override: toJsonColumn(record.override),
    decision: JSON.stringify(record.decision),
    decided_at: record.decided_at,
    recorded_at: recordedAt,
    dedupe_key: dedupeKey,
  };
}

/** A RECORD_COLUMNS row: the JSON columns parsed, the stale mark nested. */
export function recordFromRow(row: Record<string, unknown>): AcceptanceRecord {
  const { stale_superseded_by, stale_at, ...rest } = row;
  const stale =
    stale_superseded_by === null ? null : { superseded_by: stale_superseded_by, at: stale_at };
  return parseRowWithJson(
    acceptanceRecordSchema,
    { ...rest, stale },
    "acceptance_records",
    RECORD_JSON_COLUMNS,
  );
}

/** appendRecord's record and options, checked. */
export function recordInput(input: AcceptanceRecordInput, options: AppendOnce) {
  const record = parseInput(acceptanceRecordInputSchema, input, "acceptance record");
  return { record, dedupeKey: dedupeKeyOf(options) };
}

export const markStaleInput = inputOf(markStaleInputSchema, "stale mark");
