/** The audit log of decisions, each with the facts it was made from: append-only. */
import type { AuditEntry, AuditEntryInput } from "../../../schemas/store.js";
import type { AppendOnce } from "./keys.js";

export interface ListAuditQuery {
  subject?: string;
  kind?: string;
  limit?: number;
  /** Oldest first by default; "desc" gives the newest first (with limit: the last N). */
  order?: "asc" | "desc";
}

export interface AuditLog {
  /**
   * InvalidInputError when the entry is outside the schema; nothing is written then. With a
   * dedupe key already used, nothing is written and the entry stored under it is returned.
   */
  appendAudit(entry: AuditEntryInput, options?: AppendOnce): Promise<AuditEntry>;
  listAudit(query?: ListAuditQuery): Promise<AuditEntry[]>;
}
