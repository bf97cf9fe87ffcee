/**
 * Rough throughput of the SQLite store on this machine, with the production pragmas
 * (WAL, synchronous=FULL: one fsync per commit). Prints figures, asserts nothing, is not a test.
 *   npm run bench:store [-- count]
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../app/store/sqlite-store.js";

const count = Number(process.argv[2] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), "agate-bench-"));
const store = SqliteStore.open(join(dir, "agate.db"));

function rate(label: string, n: number, startedAt: bigint): void {
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const perSecond = Math.round(n / seconds);
  console.log(
    `${label.padEnd(44)} ${String(perSecond).padStart(7)}/s  (${n} in ${seconds.toFixed(2)} s)`,
  );
}

try {
  const payload = JSON.stringify({ action: "synchronize", number: 1, padding: "x".repeat(4000) });
  const digest = createHash("sha256").update(payload).digest("hex");
  let started = process.hrtime.bigint();
  for (let n = 0; n < count; n++) {
    await store.recordDelivery({
      delivery: {
        id: `delivery-${n}`,
        event: "pull_request",
        action: "synchronize",
        payload_sha256: digest,
        received_at: new Date().toISOString(),
      },
      payload,
      jobs: [
        { kind: "pull_request.evaluate", payload: { n }, concurrency_key: `octo/repo#${n % 50}` },
      ],
    });
  }
  rate("deliveries + 1 job each (one commit each)", count, started);

  started = process.hrtime.bigint();
  let claimed = 0;
  for (;;) {
    const claim = await store.claimJob({ workerId: "bench", leaseMs: 60_000 });
    if (!claim) break;
    await store.completeJob(claim.lease);
    claimed++;
  }
  rate("claim + complete (two commits each)", claimed, started);

  started = process.hrtime.bigint();
  for (let n = 0; n < count; n++) await store.enqueue({ kind: "timer", payload: { n } });
  rate("enqueue alone", count, started);

  started = process.hrtime.bigint();
  let claims = 0;
  while (await store.claimJob({ workerId: "bench", leaseMs: 60_000 })) claims++;
  rate("claim alone", claims, started);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
