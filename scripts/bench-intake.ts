/**
 * How fast the webhook path accepts and durably records signed deliveries, through real HTTP,
 * the intake guard and the intake onto a SQLite file (synchronous = FULL: each commit is
 * fsynced), beside a bare Probot app with a no-op handler, with the same client, in the same
 * run; then whether issue 17's targets are met. Then a prototype of store changes the intake
 * cannot make itself (app/store is not the intake's): the same rows written by the store, by
 * plain statements with no row parsed back, and by a group commit of several deliveries per
 * transaction, on the store's own schema. Prints figures, asserts nothing.
 *
 *   npx tsx scripts/bench-intake.ts [deliveries=500] [in-flight=8]
 */
import { createHash, randomUUID } from "node:crypto";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import Database from "better-sqlite3";
import { agateObserve, agateRoute } from "../app/compose.js";
import { startAgate, WEBHOOKS_PATH } from "../app/runtime/server.js";
import { SqliteStore } from "../app/store/sqlite-store.js";
import { bareProbot, localAppEnv } from "../test/support/local-app.js";
import { tempDir } from "../test/support/store.js";
import { webhookExample } from "../test/support/webhook-examples.js";

const total = Number(process.argv[2] ?? 500);
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 10;
const met = (ok: boolean) => (ok ? "met" : "NOT met");
const inFlight = Number(process.argv[3] ?? 8);
const secret = "bench-secret";

interface Request {
  id: string;
  body: string;
  signature: string;
}

const payload = webhookExample("pull_request", "synchronize");

async function requests(count: number): Promise<Request[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const body = JSON.stringify({ ...payload, number: i + 1 });
      return { id: randomUUID(), body, signature: await sign(secret, body) };
    }),
  );
}

async function run(url: string, list: Request[], parallel: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < list.length) {
        const request = list[next++] as Request;
        const t0 = performance.now();
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": "pull_request",
            "x-github-delivery": request.id,
            "x-hub-signature-256": request.signature,
          },
          body: request.body,
        });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { perSecond: list.length / seconds, p50: at(0.5), p99: at(0.99) };
}

const { dir, cleanup } = tempDir();
try {
  const agate = await startAgate({
    env: localAppEnv(dir, secret),
    // No handlers: the workers stay out of the way, this measures the webhook path alone.
    route: agateRoute,
    observe: agateObserve,
  });
  const bare = await bareProbot(secret);
  const agateUrl = `${agate.url}${WEBHOOKS_PATH}`;
  const bareUrl = `${bare.url}${WEBHOOKS_PATH}`;
  await run(agateUrl, await requests(50), inFlight);
  await run(bareUrl, await requests(50), inFlight);

  const size = JSON.stringify(payload).length / 1024;
  console.log(`${total} signed pull_request deliveries of ${size.toFixed(1)} KiB each\n`);
  for (const parallel of [1, inFlight]) {
    const withAgate = await run(agateUrl, await requests(total), parallel);
    const withBare = await run(bareUrl, await requests(total), parallel);
    const line = (name: string, r: typeof withAgate) =>
      `  ${name.padEnd(22)} ${r.perSecond.toFixed(0).padStart(6)} deliveries/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`;
    const ratio = withAgate.perSecond / withBare.perSecond;
    console.log(`${parallel} in flight:`);
    console.log(line("agate (recorded)", withAgate));
    console.log(line("bare Probot (no-op)", withBare));
    console.log(
      `  agate / bare throughput: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${met(ratio >= TARGET_RATIO)})`,
    );
    if (parallel === 1) {
      console.log(
        `  agate p99: ${withAgate.p99.toFixed(2)} ms (target <= ${TARGET_P99_MS} ms: ${met(withAgate.p99 <= TARGET_P99_MS)})`,
      );
    }
    console.log("");
  }
  const recorded = await agate.store.listJobs({ status: "queued" });
  console.log(`jobs queued in the store: ${recorded.length}\n`);
  await bare.close();
  await agate.close();
  await storePrototype(join(dir, "prototype.db"));
} finally {
  cleanup();
}

/**
 * The store's share, and what two store changes would save (figures for app/store's owner):
 * recordDelivery as it is (zod on the way in, every job row read back and parsed with zod), the
 * same statements with `RETURNING id` and nothing parsed, and those grouped GROUP per
 * transaction (one fsync for the group: what a group commit under 8 in flight would do).
 */
async function storePrototype(file: string): Promise<void> {
  const GROUP = 8;
  const count = Math.min(total, 400);
  const body = JSON.stringify(payload);
  const digest = createHash("sha256").update(body).digest("hex");
  const deliveries = () =>
    Array.from({ length: count }, () => {
      const id = randomUUID();
      return { id, jobs: agateRoute("pull_request", payload, id) };
    });
  const store = SqliteStore.open(file);
  const perDelivery = (ms: number) => `${((ms * 1000) / count).toFixed(0).padStart(6)} µs`;
  const viaStore = deliveries();
  let started = performance.now();
  for (const { id, jobs } of viaStore) {
    await store.recordDelivery({
      delivery: {
        id,
        event: "pull_request",
        action: "synchronize",
        payload_sha256: digest,
        received_at: new Date().toISOString(),
      },
      payload: body,
      jobs,
    });
  }
  const storeMs = performance.now() - started;
  await store.close();

  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  const insertDelivery = db.prepare(
    `INSERT INTO deliveries (id, event, action, payload_sha256, received_at, recorded_at, repository)
       VALUES (?, 'pull_request', 'synchronize', ?, ?, ?,
         CASE WHEN json_valid(?) AND json_type(?, '$.repository.full_name') = 'text'
         THEN ? ->> '$.repository.full_name' END)`,
  );
  const insertPayload = db.prepare(
    "INSERT INTO delivery_payloads (delivery_id, payload) VALUES (?, ?)",
  );
  const insertJob = db.prepare(
    `INSERT INTO jobs (kind, payload, concurrency_key, delivery_id, status, attempts,
         max_attempts, run_at, created_at, updated_at, dedupe_key, dedupe_until)
       VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?, NULL, 'finished') RETURNING id`,
  );
  const write = (batch: ReturnType<typeof deliveries>) =>
    db
      .transaction(() => {
        const now = new Date().toISOString();
        for (const { id, jobs } of batch) {
          insertDelivery.run(id, digest, now, now, body, body, body);
          insertPayload.run(id, body);
          for (const job of jobs) {
            insertJob.get(
              job.kind,
              JSON.stringify(job.payload),
              job.concurrency_key ?? null,
              id,
              job.max_attempts ?? 5,
              now,
              now,
              now,
            );
          }
        }
      })
      .immediate();
  const plain = deliveries();
  started = performance.now();
  for (const one of plain) write([one]);
  const plainMs = performance.now() - started;
  const grouped = deliveries();
  started = performance.now();
  for (let i = 0; i < grouped.length; i += GROUP) write(grouped.slice(i, i + GROUP));
  const groupedMs = performance.now() - started;
  db.close();
  console.log(`the store's share, ${count} deliveries written one after another, per delivery:`);
  console.log(`  recordDelivery as it is:                    ${perDelivery(storeMs)}`);
  console.log(`  same rows, RETURNING id, nothing parsed:    ${perDelivery(plainMs)}`);
  console.log(`  same, ${GROUP} deliveries per transaction:        ${perDelivery(groupedMs)}`);
}
