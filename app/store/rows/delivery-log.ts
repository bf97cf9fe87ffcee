/** The delivery log's rows on either backend: the prune options and a delivery read back. */
import {
  type DeliveryRecord,
  deliveryRecordSchema,
  pruneDeliveriesOptionsSchema,
  type StoredDelivery,
  storedDeliverySchema,
} from "../../../schemas/store.js";
import { CorruptRowError, DeliveryPrunedError } from "../errors.js";
import { inputOf, parseRow } from "../validate.js";

/** getDelivery's columns and tables; the backend adds `WHERE d.id = <its parameter>`. */
export const DELIVERY_SELECT = `SELECT d.id, d.event, d.action, d.payload_sha256, p.payload,
    d.received_at, x.pruned_at, x.retention_ms
  FROM deliveries d
  LEFT JOIN delivery_payloads p ON p.delivery_id = d.id
  LEFT JOIN delivery_payload_prunes x ON x.delivery_id = d.id`;

/** getDeliveryRecord's columns and tables, likewise. */
export const DELIVERY_RECORD_SELECT = `SELECT d.id, d.event, d.action, d.payload_sha256,
    d.received_at, d.repository, d.recorded_at, x.pruned_at, x.retention_ms
  FROM deliveries d LEFT JOIN delivery_payload_prunes x ON x.delivery_id = d.id`;

/** A DELIVERY_SELECT row: the delivery, or why its payload is not there. */
export function storedDeliveryFromRow(id: string, row: Record<string, unknown>): StoredDelivery {
  const { pruned_at, retention_ms, ...delivery } = row;
  if (delivery.payload === null && typeof pruned_at === "string") {
    throw new DeliveryPrunedError(id, pruned_at, Number(retention_ms));
  }
  if (delivery.payload === null) {
    throw new CorruptRowError("delivery_payloads", `delivery ${id}`, "the payload is missing");
  }
  return parseRow(storedDeliverySchema, delivery, "deliveries", `id ${id}`);
}

/** A DELIVERY_RECORD_SELECT row. */
export function deliveryRecordFromRow(id: string, row: Record<string, unknown>): DeliveryRecord {
  const { pruned_at, retention_ms, ...delivery } = row;
  return parseRow(
    deliveryRecordSchema,
    { ...delivery, pruned: pruned_at === null ? null : { pruned_at, retention_ms } },
    "deliveries",
    `id ${id}`,
  );
}

export const pruneInput = inputOf(pruneDeliveriesOptionsSchema, "prune options");
