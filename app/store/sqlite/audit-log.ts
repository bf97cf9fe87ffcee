/** The AuditLog port on SQLite (../ports/audit-log.ts says what it promises). */
import type { AuditLog } from "../ports/audit-log.js";
import * as auditRows from "../rows/audit-log.js";
import type { Row, SqliteContext } from "./context.js";

export class SqliteAuditLog implements AuditLog {
  constructor(private readonly c: SqliteContext) {}

  appendAudit: AuditLog["appendAudit"] = async (input, options = {}) => {
    const { entry, dedupeKey } = auditRows.auditInput(input, options);
    const once = this.c.appendOnce(
      `INSERT INTO audit_log (kind, subject, decision, facts, at, recorded_at, dedupe_key)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      auditRows.auditParams(entry, this.c.nowIso(), dedupeKey),
      `SELECT ${auditRows.AUDIT_COLUMNS} FROM audit_log`,
      dedupeKey,
    );
    return once.row ? auditRows.auditFromRow(once.row) : { id: once.id, ...entry };
  };

  listAudit: AuditLog["listAudit"] = async (query = {}) => {
    // LIMIT -1 is no limit.
    const limit = auditRows.auditLimitInput(query.limit) ?? -1;
    const order = query.order === "desc" ? "DESC" : "ASC";
    const rows = this.c
      .sql(
        `SELECT ${auditRows.AUDIT_COLUMNS} FROM audit_log
       WHERE (@subject IS NULL OR subject = @subject) AND (@kind IS NULL OR kind = @kind)
       ORDER BY id ${order} LIMIT @limit`,
      )
      .all({ subject: query.subject ?? null, kind: query.kind ?? null, limit }) as Row[];
    return rows.map(auditRows.auditFromRow);
  };
}
