/**
 * A recordDelivery input checked once for both backends, before it joins a batch (group-commit.ts):
 * its shapes (schemas built once here, not per delivery: the webhook path pays for each build)
 * and that the payload hashes to the digest it comes with.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { deliverySchema, eventBaseSchema, newJobSchema } from "../../schemas/store.js";
import { StoreError } from "./errors.js";
import type { RecordDeliveryInput } from "./ports/delivery-log.js";
import { parseInput } from "./validate.js";

const payloadSchema = z.string();
const jobsSchema = z.array(newJobSchema);
const sightingsSchema = z.array(eventBaseSchema);

export function parseDeliveryInput(input: RecordDeliveryInput) {
  const delivery = parseInput(deliverySchema, input.delivery, "delivery");
  const payload = parseInput(payloadSchema, input.payload, "delivery payload");
  const jobs = parseInput(jobsSchema, input.jobs, `jobs of delivery ${delivery.id}`);
  const sightings = parseInput(
    sightingsSchema,
    input.sightings ?? [],
    `bases named by delivery ${delivery.id}`,
  );
  if (createHash("sha256").update(payload, "utf8").digest("hex") !== delivery.payload_sha256) {
    throw new StoreError(
      "payload_mismatch",
      `delivery ${delivery.id}: the payload does not hash to payload_sha256; pass the exact ` +
        "text the digest was computed from, nothing was written",
    );
  }
  return { delivery, payload, jobs, sightings };
}
