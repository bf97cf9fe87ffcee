/**
 * The DeliveryLog port on SQLite (../ports/delivery-log.ts says what it promises). recordDelivery's
 * writes join a batch first (../group-commit.ts, ../sqlite-group-commit.ts): one transaction per
 * batch.
 */
import { parseDeliveryInput } from "../delivery-input.js";
import { GroupCommit } from "../group-commit.js";
import type {
  DeliveryLog,
  PruneDeliveriesResult,
  RecordDeliveryResult,
} from "../ports/delivery-log.js";
import * as deliveryRows from "../rows/delivery-log.js";
import { sqliteGroupFlush } from "../sqlite-group-commit.js";
import type { Row, SqliteContext } from "./context.js";
import { insertJobId } from "./job-queue.js";

export class SqliteDeliveryLog implements DeliveryLog {
  /** Deliveries recorded together share one commit. */
  readonly #batch: GroupCommit<() => RecordDeliveryResult, RecordDeliveryResult>;

  constructor(private readonly c: SqliteContext) {
    this.#batch = new GroupCommit(sqliteGroupFlush(c.db, c.committed));
  }

  /** Writes already accepted, committed (or refused): before the database closes. */
  drain(): Promise<void> {
    return this.#batch.drain();
  }

  recordDelivery: DeliveryLog["recordDelivery"] = async (input) => {
    const { delivery, payload, jobs, sightings } = parseDeliveryInput(input);
    const c = this.c;
    return this.#batch.submit((): RecordDeliveryResult => {
      const existing = c
        .sql("SELECT payload_sha256 FROM deliveries WHERE id = ?")
        .get(delivery.id) as { payload_sha256: string } | undefined;
      if (existing) {
        if (existing.payload_sha256 !== delivery.payload_sha256) {
          return { status: "conflict", jobIds: [] };
        }
        const ids = c
          .sql("SELECT id FROM jobs WHERE delivery_id = ? ORDER BY id")
          .pluck()
          .all(delivery.id) as number[];
        return { status: "duplicate", jobIds: ids };
      }
      const now = c.nowIso();
      // The repository is read from the payload by SQLite (no second JSON.parse here); it stays
      // when the payload is pruned.
      c.sql(
        `INSERT INTO deliveries (id, event, action, payload_sha256, received_at, recorded_at,
           repository)
         VALUES (@id, @event, @action, @payload_sha256, @received_at, @recorded_at,
           CASE WHEN json_valid(@payload)
             AND json_type(@payload, '$.repository.full_name') = 'text'
           THEN @payload ->> '$.repository.full_name' END)`,
      ).run({ ...delivery, payload, recorded_at: now });
      c.sql("INSERT INTO delivery_payloads (delivery_id, payload) VALUES (?, ?)").run(
        delivery.id,
        payload,
      );
      const jobIds = jobs.map((job) => insertJobId(c, job, delivery.id, now));
      const sighted = c.sql(
        `INSERT INTO base_sightings
           (repository, head_sha, pull_number, base_ref, delivery_id, seen_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      );
      for (const seen of sightings) {
        sighted.run(
          seen.repository,
          seen.head_sha,
          seen.pull_number,
          seen.base_ref,
          delivery.id,
          delivery.received_at,
        );
      }
      return { status: "new", jobIds };
    });
  };

  getDelivery: DeliveryLog["getDelivery"] = async (id) => {
    const row = this.c.sql(`${deliveryRows.DELIVERY_SELECT} WHERE d.id = ?`).get(id) as
      | Row
      | undefined;
    return row ? deliveryRows.storedDeliveryFromRow(id, row) : null;
  };

  getDeliveryRecord: DeliveryLog["getDeliveryRecord"] = async (id) => {
    const row = this.c.sql(`${deliveryRows.DELIVERY_RECORD_SELECT} WHERE d.id = ?`).get(id) as
      | Row
      | undefined;
    return row ? deliveryRows.deliveryRecordFromRow(id, row) : null;
  };

  pruneDeliveryPayloads: DeliveryLog["pruneDeliveryPayloads"] = async (options) => {
    const { retentionMs, limit } = deliveryRows.pruneInput(options);
    return this.c.write((): PruneDeliveriesResult => {
      const now = this.c.now();
      // Walks the payloads still stored (CROSS JOIN keeps them the outer loop; their primary
      // key index, not their pages), so a pass costs what the retention window holds, not
      // every delivery ever recorded, and no sort. The trigger on delivery_payload_prunes
      // checks each row again and deletes its payload.
      const pruned = this.c
        .sql(
          `INSERT INTO delivery_payload_prunes (delivery_id, retention_ms, pruned_at)
         SELECT d.id, @retention, @now
         FROM delivery_payloads p INDEXED BY sqlite_autoindex_delivery_payloads_1
         CROSS JOIN deliveries d ON d.id = p.delivery_id
         WHERE d.recorded_at <= @cutoff
           AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.delivery_id = d.id
             AND j.status IN ('queued', 'running'))
         LIMIT @limit`,
        )
        .run({
          retention: retentionMs,
          now: now.toISOString(),
          cutoff: new Date(now.getTime() - retentionMs).toISOString(),
          limit,
        }).changes;
      return { pruned, more: pruned === limit };
    });
  };
}
