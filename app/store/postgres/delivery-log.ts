/**
 * The DeliveryLog port on PostgreSQL (../ports/delivery-log.ts says what it promises).
 * Deliveries recorded together share one transaction (../group-commit.ts, group-commit.ts),
 * each written by record-delivery.ts.
 */
import { parseDeliveryInput } from "../delivery-input.js";
import { GroupCommit } from "../group-commit.js";
import type { DeliveryLog, RecordDeliveryResult } from "../ports/delivery-log.js";
import * as deliveryRows from "../rows/delivery-log.js";
import type { PostgresContext } from "./context.js";
import { type BatchWork, postgresGroupFlush } from "./group-commit.js";
import { recordDeliveryRows } from "./record-delivery.js";

export class PostgresDeliveryLog implements DeliveryLog {
  readonly #batch: GroupCommit<BatchWork<RecordDeliveryResult>, RecordDeliveryResult>;

  /** `maxFlushes`: how many batches may be in flight side by side. */
  constructor(
    private readonly c: PostgresContext,
    maxFlushes: number,
  ) {
    this.#batch = new GroupCommit(
      postgresGroupFlush({ pool: c.pool, alone: (work) => c.tx(work), describe: c.describe }),
      { maxFlushes },
    );
  }

  /** Deliveries already accepted, committed (or refused): before the pool ends. */
  drain(): Promise<void> {
    return this.#batch.drain();
  }

  recordDelivery: DeliveryLog["recordDelivery"] = async (input) => {
    const { delivery, payload, jobs, sightings } = parseDeliveryInput(input);
    return this.#batch.submit((client) =>
      recordDeliveryRows((text, values) => this.c.query(text, values, client), {
        delivery,
        payload,
        jobs,
        sightings,
        now: this.c.nowIso(),
      }),
    );
  };

  getDelivery: DeliveryLog["getDelivery"] = async (id) => {
    const [row] = await this.c.rows(`${deliveryRows.DELIVERY_SELECT} WHERE d.id = $1`, [id]);
    return row ? deliveryRows.storedDeliveryFromRow(id, row) : null;
  };

  getDeliveryRecord: DeliveryLog["getDeliveryRecord"] = async (id) => {
    const [row] = await this.c.rows(`${deliveryRows.DELIVERY_RECORD_SELECT} WHERE d.id = $1`, [id]);
    return row ? deliveryRows.deliveryRecordFromRow(id, row) : null;
  };

  pruneDeliveryPayloads: DeliveryLog["pruneDeliveryPayloads"] = async (options) => {
    const { retentionMs, limit } = deliveryRows.pruneInput(options);
    const now = this.c.now();
    // SKIP LOCKED: two replicas pruning at once take different payloads instead of one of them
    // failing in the trigger on a payload the other just removed. The trigger on
    // delivery_payload_prunes checks each row again and deletes its payload.
    const result = await this.c.query(
      `WITH candidates AS (
         SELECT p.delivery_id FROM delivery_payloads p
         JOIN deliveries d ON d.id = p.delivery_id
         WHERE d.recorded_at <= $1
           AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.delivery_id = d.id
             AND j.status IN ('queued', 'running'))
         LIMIT $2
         FOR UPDATE OF p SKIP LOCKED)
       INSERT INTO delivery_payload_prunes (delivery_id, retention_ms, pruned_at)
       SELECT delivery_id, $3, $4 FROM candidates`,
      [new Date(now.getTime() - retentionMs).toISOString(), limit, retentionMs, now.toISOString()],
    );
    const pruned = result.rowCount ?? 0;
    return { pruned, more: pruned === limit };
  };
}
