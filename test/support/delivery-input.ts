/** Tests only: a simulator's delivery as the App's intake hands it to the store. */
import { createHash } from "node:crypto";
import type { RecordDeliveryInput } from "../../app/store/ports/delivery-log.js";
import type { Delivery } from "../github/index.js";

/**
 * The delivery's row, with the digest of the payload text the store checks it against, and that
 * text; the jobs and sightings to store with it are the caller's.
 */
export function deliveryInput(
  d: Delivery,
  receivedAt: string,
  id = d.id,
): Pick<RecordDeliveryInput, "delivery" | "payload"> {
  const payload = JSON.stringify(d.payload);
  return {
    delivery: {
      id,
      event: d.event,
      action: d.action ?? null,
      payload_sha256: createHash("sha256").update(payload, "utf8").digest("hex"),
      received_at: receivedAt,
    },
    payload,
  };
}
