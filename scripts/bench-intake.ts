/**
 * How fast the webhook path accepts and durably records signed deliveries, through real HTTP
 * and Probot's middleware onto a SQLite file (synchronous = FULL: each commit is fsynced),
 * beside a bare Probot app with a no-op handler in the same run. Prints figures, asserts nothing.
 *
 *   npx tsx scripts/bench-intake.ts [deliveries=500] [in-flight=8]
 */
import { randomUUID } from "node:crypto";
import { sign } from "@octokit/webhooks-methods";
import { startAgate, WEBHOOKS_PATH } from "../app/runtime/server.js";
import { bareProbot, localAppEnv } from "../test/support/local-app.js";
import { tempDir } from "../test/support/store.js";
import { webhookExample } from "../test/support/webhook-examples.js";

const total = Number(process.argv[2] ?? 500);
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
    handlers: {},
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
    console.log(`${parallel} in flight:`);
    console.log(line("agate (recorded)", withAgate));
    console.log(line("bare Probot (no-op)", withBare));
    console.log(
      `  agate / bare throughput: ${(withAgate.perSecond / withBare.perSecond).toFixed(2)}\n`,
    );
  }
  const recorded = await agate.store.listJobs({ status: "queued" });
  console.log(`jobs queued in the store: ${recorded.length}`);
  await bare.close();
  await agate.close();
} finally {
  cleanup();
}
