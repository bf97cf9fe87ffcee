/**
 * Scale-out: signed deliveries spread round-robin over 1, 2 and 3 App replicas (real child
 * processes) on one PostgreSQL database, beside one replica on a SQLite file, in one run. Each
 * delivery queues one job (a distinct pull request, so none waits behind another's key); the
 * job's handler stands in for a gate pass by waiting, as a pass mostly waits on GitHub. Printed:
 * intake throughput and latency (delivery answered), and jobs done per second from the first
 * delivery until the last job is done. Asserts nothing.
 *
 *   npx tsx scripts/bench-scale.ts [deliveries=400] [in-flight=12] [handler-ms=20]
 *
 * PostgreSQL: the embedded server the tests use (test/support/postgres-server.ts), started here
 * durable (fsync and synchronous_commit on, as in production: every answered delivery's commit
 * waited for its WAL flush) and removed, or AGATE_TEST_POSTGRES_URL's server (a database per
 * configuration is created). Last, what each added replica gives over one, in the same run.
 */
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import pg from "pg";
import { WEBHOOKS_PATH } from "../app/runtime/server.js";
import { openStore } from "../app/store/open-store.js";
import { localAppEnv, postInParallel, type SignedDelivery } from "../test/support/local-app.js";
import { databaseUrl } from "../test/support/postgres-run.js";
import {
  type PostgresServer,
  startPostgresServer,
  stopPostgresServer,
} from "../test/support/postgres-server.js";
import { type AgateProcess, spawnAgate } from "../test/support/spawn-agate.js";
import { tempDir } from "../test/support/store.js";
import { webhookExample } from "../test/support/webhook-examples.js";

const total = Number(process.argv[2] ?? 400);
const inFlight = Number(process.argv[3] ?? 12);
const handlerMs = Number(process.argv[4] ?? 20);
const secret = "bench-scale-secret";
const example = webhookExample("pull_request", "synchronize") as unknown as {
  pull_request: Record<string, unknown>;
};

type Delivery = SignedDelivery;

async function deliveries(count: number, offset: number): Promise<Delivery[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const number = offset + i + 1;
      const body = JSON.stringify({
        ...example,
        number,
        pull_request: { ...example.pull_request, number },
      });
      return { id: randomUUID(), body, signature: await sign(secret, body) };
    }),
  );
}

/** Posts every delivery, `inFlight` at a time, round-robin over the replicas. */
const post = (urls: string[], list: Delivery[]) =>
  postInParallel(list, inFlight, (n) => `${urls[n % urls.length]}${WEBHOOKS_PATH}`);

async function measure(
  name: string,
  url: string,
  replicas: number,
  dir: string,
): Promise<{ intake: number; jobs: number }> {
  const apps: AgateProcess[] = [];
  const store = await openStore({ url, poolSize: 2 });
  try {
    for (let i = 0; i < replicas; i++) {
      apps.push(
        await spawnAgate({
          cwd: dir,
          env: localAppEnv(dir, secret, {
            AGATE_DATABASE_URL: url,
            AGATE_TEST_TRACE: join(dir, `trace-${i}`),
            AGATE_TEST_HANDLER_MS: String(handlerMs),
          }),
        }),
      );
    }
    const urls = apps.map((a) => a.url);
    // Warm-up: connections, JIT, the first queries' plans.
    await post(urls, await deliveries(30, 1_000_000));
    while ((await store.countJobs({ status: "done" })) < 30) await sleep(20);

    const intake = await post(urls, await deliveries(total, 0));
    while ((await store.countJobs({ status: "done" })) < total + 30) await sleep(10);
    const jobsPerSecond = total / ((performance.now() - intake.started) / 1000);
    console.log(
      `  ${name.padEnd(24)} intake ${intake.perSecond.toFixed(0).padStart(5)} deliveries/s ` +
        `(p50 ${intake.p50.toFixed(1)} ms, p99 ${intake.p99.toFixed(1)} ms)   ` +
        `done ${jobsPerSecond.toFixed(0).padStart(5)} jobs/s`,
    );
    return { intake: intake.perSecond, jobs: jobsPerSecond };
  } finally {
    for (const app of apps) {
      app.child.kill("SIGTERM");
      await app.exited;
    }
    await store.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const { dir, cleanup } = tempDir();
const external = process.env.AGATE_TEST_POSTGRES_URL?.trim();
let server: PostgresServer | undefined;
try {
  if (!external) server = await startPostgresServer({ watchPid: process.pid, durable: true });
  const serverUrl = external || (server as PostgresServer).url;
  const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  console.log(
    `${total} deliveries, ${inFlight} in flight, round-robin over the replicas; one job each, ` +
      `whose handler waits ${handlerMs} ms; 2 workers per replica (AGATE_WORKERS). ` +
      `${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the start: every ` +
      "replica, the database and this client share them, so a busy machine caps the figures\n",
  );
  await measure("SQLite, 1 replica", `file:${join(dir, "agate.db")}`, 1, dir);
  const onPostgres = new Map<number, { intake: number; jobs: number }>();
  for (const replicas of [1, 2, 3]) {
    const database = `agate_bench_scale_${process.pid}_${replicas}`;
    await admin.query(`CREATE DATABASE ${database}`);
    try {
      const figures = await measure(
        `PostgreSQL, ${replicas} replica${replicas > 1 ? "s" : ""}`,
        databaseUrl(serverUrl, database),
        replicas,
        dir,
      );
      onPostgres.set(replicas, figures);
    } finally {
      await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
    }
  }
  await admin.end();
  const one = onPostgres.get(1);
  console.log("\nwhat replicas add on one PostgreSQL (over one replica, same run):");
  for (const replicas of [2, 3]) {
    const more = onPostgres.get(replicas);
    if (!one || !more) continue;
    console.log(
      `  ${replicas} replicas: intake ${(more.intake / one.intake).toFixed(2)}x, jobs ${(more.jobs / one.jobs).toFixed(2)}x`,
    );
  }
  console.log(`load average at the end: ${loadavg()[0]?.toFixed(1)}`);
} finally {
  if (server) await stopPostgresServer(server);
  cleanup();
}
