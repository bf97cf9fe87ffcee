/**
 * Webhook deliveries, each recorded with the jobs it enqueues in one transaction (so a backend
 * implementing this port implements JobQueue on the same database), and their retention.
 */
import type { z } from "zod";
import type {
  Delivery,
  DeliveryRecord,
  EventBase,
  NewJob,
  pruneDeliveriesOptionsSchema,
  StoredDelivery,
} from "../../../schemas/store.js";

export { DEFAULT_PRUNE_LIMIT, MIN_DELIVERY_RETENTION_MS } from "../../../schemas/store.js";

export interface RecordDeliveryInput {
  delivery: Delivery;
  /** The exact text that `delivery.payload_sha256` was computed from (checked). */
  payload: string;
  /** Enqueued in the same transaction as the delivery row, or not at all. */
  jobs: readonly NewJob[];
  /**
   * The heads and bases the event names (BaseSightingStore), stored in the same transaction
   * with this delivery's id and received time; one already stored for the head, pull request
   * and base is kept as it was. None when absent.
   */
  sightings?: readonly EventBase[];
}

export interface RecordDeliveryResult {
  /**
   * new: stored, jobs enqueued. duplicate: same id and payload seen before, nothing enqueued.
   * conflict: same id with a different payload, nothing written (the first one is kept).
   */
  status: "new" | "duplicate" | "conflict";
  /** The delivery's jobs: the new ones, or for a duplicate the ones enqueued the first time. */
  jobIds: number[];
}

/** The retention and how many at most (DEFAULT_PRUNE_LIMIT when absent): schemas/store.ts. */
export type PruneDeliveriesOptions = z.input<typeof pruneDeliveriesOptionsSchema>;

export interface PruneDeliveriesResult {
  /** Payloads pruned by this call. */
  pruned: number;
  /** True when the limit was reached: call again for the rest. */
  more: boolean;
}

export interface DeliveryLog {
  /**
   * The delivery and its jobs, in one transaction. A duplicate is recognised by id and digest,
   * also after its payload was pruned. StoreError "payload_mismatch" when the payload does not
   * hash to the digest; InvalidInputError for anything outside the schemas. Nothing is written
   * in either case.
   */
  recordDelivery(input: RecordDeliveryInput): Promise<RecordDeliveryResult>;
  /**
   * The delivery with its payload; null when unknown; DeliveryPrunedError when retention has
   * removed its payload (only a processed one: every job of it done or dead). For tests and the
   * contract suites: production never reads a delivery back (its jobs carry what they need).
   */
  getDelivery(id: string): Promise<StoredDelivery | null>;
  /**
   * What is kept of a delivery for good (no payload), pruned or not; null when unknown. For
   * tests and the contract suites, as getDelivery.
   */
  getDeliveryRecord(id: string): Promise<DeliveryRecord | null>;
  /**
   * Retention: removes the payloads of deliveries that are processed (no job of theirs queued
   * or running) and were recorded at least `retentionMs` ago, and appends a prune for each.
   * InvalidInputError for a retention under MIN_DELIVERY_RETENTION_MS. Nothing else ever
   * removes or changes a delivery.
   */
  pruneDeliveryPayloads(options: PruneDeliveriesOptions): Promise<PruneDeliveriesResult>;
}
