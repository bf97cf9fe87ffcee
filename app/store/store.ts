/**
 * The durable store: one port per kind of data (ports/), and `Store`, all of them on one
 * database. Callers take the narrowest port they need, and its types, from ports/; a backend
 * implements every port, and proves it by passing the suites in contracts/ (one line in
 * test/support/store.ts adds it). Every method is async, as PostgreSQL's must be; the SQLite
 * backend (sqlite-store.ts, sqlite/) does its work synchronously inside each call and never holds
 * a transaction across an await.
 */
import type { AuditLog } from "./ports/audit-log.js";
import type { BaseSightingStore } from "./ports/base-sighting-store.js";
import type { CheckRunLedger } from "./ports/check-run-ledger.js";
import type { DeliveryLog } from "./ports/delivery-log.js";
import type { EntryMentionStore } from "./ports/entry-mention-store.js";
import type { EntryStore } from "./ports/entry-store.js";
import type { EvaluationStore } from "./ports/evaluation-store.js";
import type { JobQueue } from "./ports/job-queue.js";
import type { ObservationStore } from "./ports/observation-store.js";
import type { OverrideStore } from "./ports/override-store.js";
import type { RecordStore } from "./ports/record-store.js";
import type { WriteIntentLedger } from "./ports/write-intent-ledger.js";

/** Where time comes from; tests freeze and advance it (lease expiry without sleeping). */
export type Clock = () => Date;

/** Every port on one database, and the connection to close. */
export interface Store
  extends DeliveryLog,
    JobQueue,
    RecordStore,
    EvaluationStore,
    OverrideStore,
    ObservationStore,
    BaseSightingStore,
    CheckRunLedger,
    AuditLog,
    EntryStore,
    EntryMentionStore,
    WriteIntentLedger {
  close(): Promise<void>;
}
