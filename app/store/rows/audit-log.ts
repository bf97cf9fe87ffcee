/** The audit log's rows on either backend. */
import { positiveIntSchema } from "../../../schemas/primitives.js";
import {
  type AuditEntry,
  type AuditEntryInput,
  auditEntryInputSchema,
  auditEntrySchema,
} from "../../../schemas/store.js";
import type { AppendOnce } from "../ports/keys.js";
import { dedupeKeyOf, parseInput, parseRowWithJson } from "../validate.js";

export const AUDIT_COLUMNS = "id, kind, subject, decision, facts, at";

/** An entry's columns, in the order of the INSERT's parameters. */
export function auditParams(entry: AuditEntryInput, recordedAt: string, dedupeKey: string | null) {
  return [
    entry.kind,
    entry.subject,
    JSON.stringify(entry.decision),
    JSON.stringify(entry.facts),
    entry.at,
    recordedAt,
    dedupeKey,
  ];
}

export function auditFromRow(row: Record<string, unknown>): AuditEntry {
  return parseRowWithJson(auditEntrySchema, row, "audit_log", ["decision", "facts"]);
}

/** appendAudit's entry and options, checked. */
export function auditInput(input: AuditEntryInput, options: AppendOnce) {
  const entry = parseInput(auditEntryInputSchema, input, "audit entry");
  return { entry, dedupeKey: dedupeKeyOf(options) };
}

/** listAudit's limit, checked; undefined for none. */
export function auditLimitInput(limit: number | undefined): number | undefined {
  return limit === undefined ? undefined : parseInput(positiveIntSchema, limit, "audit limit");
}
