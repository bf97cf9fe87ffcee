/**
 * How fast the webhook path accepts and durably records signed deliveries, through real HTTP
 * and Probot's middleware onto a SQLite file (synchronous = FULL: each commit is fsynced),
 * beside a bare Probot app with a no-op handler in the same run. Prints figures, asserts nothing.
 *
 *   npx tsx scripts/bench-intake.ts [deliveries=500] [in-flight=8]
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { createNodeMiddleware, Probot } from "probot";
import { startAgate, WEBHOOKS_PATH } from "../app/runtime/server.js";

const total = Number(process.argv[2] ?? 500);
const inFlight = Number(process.argv[3] ?? 8);
const secret = "bench-secret";
const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();

interface Request {
  id: string;
  body: string;
  signature: string;
}

// Read directly, not through test/support: this file is compiled with the App (tsconfig.build).
const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as Array<{
  name: string;
  examples: Array<Record<string, unknown>>;
}>;
const payload = examples
  .find((group) => group.name === "pull_request")
  ?.examples.find((example) => example.action === "synchronize");
if (!payload) throw new Error("no pull_request.synchronize example in @octokit/webhooks-examples");

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

async function bareProbot() {
  const probot = new Probot({ appId: 1, privateKey, secret, logLevel: "fatal" });
  const middleware = await createNodeMiddleware((app) => app.onAny(async () => {}), {
    probot,
    webhooksPath: WEBHOOKS_PATH,
  });
  const server = createServer((req, res) => void middleware(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${WEBHOOKS_PATH}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const dir = mkdtempSync(join(tmpdir(), "agate-bench-intake-"));
try {
  const agate = await startAgate({
    env: {
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: secret,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      AGATE_DATABASE_URL: `file:${join(dir, "bench.db")}`,
    },
    // No handlers: the workers stay out of the way, this measures the webhook path alone.
    handlers: {},
  });
  const bare = await bareProbot();
  const agateUrl = `${agate.url}${WEBHOOKS_PATH}`;
  await run(agateUrl, await requests(50), inFlight);
  await run(bare.url, await requests(50), inFlight);

  const size = JSON.stringify(payload).length / 1024;
  console.log(`${total} signed pull_request deliveries of ${size.toFixed(1)} KiB each\n`);
  for (const parallel of [1, inFlight]) {
    const withAgate = await run(agateUrl, await requests(total), parallel);
    const withBare = await run(bare.url, await requests(total), parallel);
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
  rmSync(dir, { recursive: true, force: true });
}
