/**
 * A delivery's rows on PostgreSQL (DeliveryLog.recordDelivery), in one statement for the usual
 * case: on the webhook path every round trip counts, and a batch (group-commit.ts) runs its
 * deliveries one after another on one connection. The statement looks for the id, and only when
 * it is new inserts the delivery, its payload, its jobs (ids in the order given) and the bases it
 * names. Two cases take more: a known id (its jobs are read for a duplicate's answer), and the
 * same id being inserted by another replica at that moment (ON CONFLICT waits for its commit and
 * inserts nothing; the winner's row is then read as a known id).
 */
import type { z } from "zod";
import type { deliverySchema, eventBaseSchema, newJobSchema } from "../../../schemas/store.js";
import type { RecordDeliveryResult } from "../ports/delivery-log.js";

/** The store's query on the batch's connection (its errors in agate's words: queryError). */
export type Query = <R extends Record<string, unknown>>(
  text: string,
  values: unknown[],
) => Promise<{ rows: R[] }>;

export interface DeliveryRows {
  delivery: z.output<typeof deliverySchema>;
  payload: string;
  jobs: z.output<typeof newJobSchema>[];
  sightings: z.output<typeof eventBaseSchema>[];
  /** recorded_at, and the jobs' created_at and default run_at. */
  now: string;
}

const RECORD = `
WITH seen AS (SELECT payload_sha256 FROM deliveries WHERE id = $1),
d AS (
  INSERT INTO deliveries (id, event, action, payload_sha256, received_at, recorded_at, repository)
  SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz,
    agate_payload_repository($7::text)
  WHERE NOT EXISTS (SELECT 1 FROM seen)
  ON CONFLICT (id) DO NOTHING
  RETURNING id
),
p AS (INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, $7::text FROM d),
j AS (
  INSERT INTO jobs (kind, payload, concurrency_key, delivery_id, status, attempts, max_attempts,
    run_at, created_at, updated_at, dedupe_key, dedupe_until)
  SELECT u.kind, u.payload, u.concurrency_key, d.id, 'queued', 0, u.max_attempts, u.run_at,
    $6::timestamptz, $6::timestamptz, NULL, 'finished'
  FROM d, unnest($8::text[], $9::json[], $10::text[], $11::integer[], $12::timestamptz[])
    WITH ORDINALITY AS u(kind, payload, concurrency_key, max_attempts, run_at, n)
  ORDER BY u.n
  RETURNING id
),
s AS (
  INSERT INTO base_sightings (repository, head_sha, pull_number, base_ref, delivery_id, seen_at)
  SELECT v.repository, v.head_sha, v.pull_number, v.base_ref, d.id, $5::text
  FROM d, unnest($13::text[], $14::text[], $15::integer[], $16::text[])
    AS v(repository, head_sha, pull_number, base_ref)
  ON CONFLICT DO NOTHING
)
SELECT (SELECT payload_sha256 FROM seen) AS seen, (SELECT count(*) FROM d)::integer AS inserted,
  ARRAY(SELECT id FROM j ORDER BY id) AS job_ids`;

const instant = (value: string) => new Date(value).toISOString();

/** Records one delivery on `client` (inside the caller's transaction). */
export async function recordDeliveryRows(
  query: Query,
  rows: DeliveryRows,
): Promise<RecordDeliveryResult> {
  const { delivery, payload, jobs, sightings, now } = rows;
  const known = async (): Promise<RecordDeliveryResult | null> => {
    const found = await query<{ payload_sha256: string }>(
      "SELECT payload_sha256 FROM deliveries WHERE id = $1",
      [delivery.id],
    );
    const existing = found.rows[0];
    if (!existing) return null;
    return answerFor(query, delivery, existing.payload_sha256);
  };
  const result = await query<{ seen: string | null; inserted: number; job_ids: unknown[] }>(
    RECORD,
    [
      delivery.id,
      delivery.event,
      delivery.action,
      delivery.payload_sha256,
      delivery.received_at,
      now,
      payload,
      jobs.map((job) => job.kind),
      jobs.map((job) => JSON.stringify(job.payload)),
      jobs.map((job) => job.concurrency_key),
      jobs.map((job) => job.max_attempts),
      jobs.map((job) => instant(job.run_at ?? now)),
      sightings.map((seen) => seen.repository),
      sightings.map((seen) => seen.head_sha),
      sightings.map((seen) => seen.pull_number),
      sightings.map((seen) => seen.base_ref),
    ],
  );
  const row = result.rows[0];
  if (!row) throw new Error("recording a delivery returned no row");
  if (row.seen !== null) return answerFor(query, delivery, row.seen);
  if (row.inserted === 1) return { status: "new", jobIds: row.job_ids.map(Number) };
  // Another replica inserted the id meanwhile: its row is committed now.
  const after = await known();
  if (!after) throw new Error(`delivery ${delivery.id} was neither inserted nor found`);
  return after;
}

/** A known id: the same payload is a duplicate (with its jobs), another one a conflict. */
async function answerFor(
  query: Query,
  delivery: { id: string; payload_sha256: string },
  storedSha256: string,
): Promise<RecordDeliveryResult> {
  if (storedSha256 !== delivery.payload_sha256) return { status: "conflict", jobIds: [] };
  const ids = await query<{ id: number }>(
    "SELECT id FROM jobs WHERE delivery_id = $1 ORDER BY id",
    [delivery.id],
  );
  return { status: "duplicate", jobIds: ids.rows.map((r) => Number(r.id)) };
}
