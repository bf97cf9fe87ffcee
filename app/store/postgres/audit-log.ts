/** The AuditLog port on PostgreSQL (../ports/audit-log.ts says what it promises). */
import type { AuditLog } from "../ports/audit-log.js";
import * as auditRows from "../rows/audit-log.js";
import type { PostgresContext } from "./context.js";

export class PostgresAuditLog implements AuditLog {
  constructor(private readonly c: PostgresContext) {}

  appendAudit: AuditLog["appendAudit"] = async (input, options = {}) => {
    const { entry, dedupeKey } = auditRows.auditInput(input, options);
    const once = await this.c.appendOnce(
      `INSERT INTO audit_log (kind, subject, decision, facts, at, recorded_at, dedupe_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      auditRows.auditParams(entry, this.c.nowIso(), dedupeKey),
      `SELECT ${auditRows.AUDIT_COLUMNS} FROM audit_log`,
      dedupeKey,
    );
    return once.row ? auditRows.auditFromRow(once.row) : { id: once.id, ...entry };
  };

  listAudit: AuditLog["listAudit"] = async (query = {}) => {
    // LIMIT NULL is no limit.
    const limit = auditRows.auditLimitInput(query.limit) ?? null;
    const order = query.order === "desc" ? "DESC" : "ASC";
    const rows = await this.c.rows(
      `SELECT ${auditRows.AUDIT_COLUMNS} FROM audit_log
       WHERE ($1::text IS NULL OR subject = $1::text) AND ($2::text IS NULL OR kind = $2::text)
       ORDER BY id ${order} LIMIT $3`,
      [query.subject ?? null, query.kind ?? null, limit],
    );
    return rows.map(auditRows.auditFromRow);
  };
}
