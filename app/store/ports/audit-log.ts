/** The audit log of decisions, each with the facts it was made from: append-only. */
import type { AuditEntry, AuditEntryInput } from "../../../schemas/store.js";

export interface ListAuditQuery {
  subject?: string;
  kind?: string;
  limit?: number;
  /** Oldest first by default; "desc" gives the newest first (with limit: the last N). */
  order?: "asc" | "desc";
}

export interface AuditLog {
  /** InvalidInputError when the entry is outside the schema; nothing is written then. */
  appendAudit(entry: AuditEntryInput): Promise<AuditEntry>;
  listAudit(query?: ListAuditQuery): Promise<AuditEntry[]>;
}
