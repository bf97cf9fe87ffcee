/**
 * A recordDelivery input checked once for both backends, before it joins a batch (group-commit.ts):
 * its shapes (schemas built once here, not per delivery: the webhook path pays for each build)
 * and that the payload hashes to the digest it comes with.
 *
 * The intake computes that digest with payloadDigest just before it calls recordDelivery, so the
 * check finds the same text's digest remembered and does not hash 23 KiB a second time (about
 * 17 µs per delivery on the event loop). It compares the text itself, whole: a digest is reused
 * only for the very same characters, so the check means what it meant.
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

let last: { text: string; digest: string } | null = null;

/** The sha256 (hex) of `text` as UTF-8, remembered for the one text hashed last. */
export function payloadDigest(text: string): string {
  if (last?.text === text) return last.digest;
  const digest = createHash("sha256").update(text, "utf8").digest("hex");
  last = { text, digest };
  return digest;
}

export function parseDeliveryInput(input: RecordDeliveryInput) {
  const delivery = parseInput(deliverySchema, input.delivery, "delivery");
  const payload = parseInput(payloadSchema, input.payload, "delivery payload");
  const jobs = parseInput(jobsSchema, input.jobs, `jobs of delivery ${delivery.id}`);
  const sightings = parseInput(
    sightingsSchema,
    input.sightings ?? [],
    `bases named by delivery ${delivery.id}`,
  );
  const digest = payloadDigest(payload);
  last = null; // not kept past its delivery: a body can be megabytes
  if (digest !== delivery.payload_sha256) {
    throw new StoreError(
      "payload_mismatch",
      `delivery ${delivery.id}: the payload does not hash to payload_sha256; pass the exact ` +
        "text the digest was computed from, nothing was written",
    );
  }
  return { delivery, payload, jobs, sightings };
}
