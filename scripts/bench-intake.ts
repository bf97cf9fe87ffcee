/**
 * How fast the webhook path accepts and durably records signed deliveries, through real HTTP,
 * the intake guard and the intake onto a SQLite file (WAL, synchronous = FULL: a commit returns
 * once the WAL holding it was fsynced), beside a bare Probot app with a no-op handler, with the
 * same client, in the same run, at 1, 8 and 32 in flight; then whether issue 32's targets are
 * met. Each configuration runs in several rounds, agate and bare Probot alternating, so drift in
 * the machine's load hits both: the medians and the spread of the rounds are printed.
 *
 * First, the floor this disk sets: a loop writing a delivery's worth of bytes and fdatasync-ing
 * them, as a commit does. At 1 in flight every delivery waits for a commit of its own, so agate
 * cannot answer faster than that; with more in flight, deliveries share commits (group commit,
 * app/store/group-commit.ts). Last, the store's own share per delivery, one at a time and with
 * 8 and 32 recorded at once. Each configuration also prints the CPU this process spent per
 * delivery with agate and with bare Probot (same client): agate's own CPU per delivery is the
 * figure a busy machine distorts least. Prints figures, asserts nothing.
 *
 *   npx tsx scripts/bench-intake.ts [deliveries=500] [rounds=3]
 */
import { randomUUID } from "node:crypto";
import { closeSync, fdatasyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { agateObserve, agateRoute } from "../app/compose.js";
import { startAgate, WEBHOOKS_PATH } from "../app/runtime/server.js";
import { SqliteStore } from "../app/store/sqlite-store.js";
import {
  bareProbot,
  localAppEnv,
  type PostedBatch,
  postInParallel,
  type SignedDelivery,
} from "../test/support/local-app.js";
import { delivery, tempDir } from "../test/support/store.js";
import { webhookExample } from "../test/support/webhook-examples.js";

const total = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 3);
const IN_FLIGHT = [1, 8, 32];
/** Issue 32's targets: throughput as a share of bare Probot's, and the p99 at 1 in flight. */
const TARGET_RATIO: Record<number, number> = { 1: 0.7, 8: 0.8, 32: 0.8 };
const TARGET_P99_MS = 10;
const met = (ok: boolean) => (ok ? "met" : "NOT met");
const secret = "bench-secret";

type Request = SignedDelivery;

const payload = webhookExample("pull_request", "synchronize");
const size = Buffer.byteLength(JSON.stringify(payload));

async function requests(count: number): Promise<Request[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const body = JSON.stringify({ ...payload, number: i + 1 });
      return { id: randomUUID(), body, signature: await sign(secret, body) };
    }),
  );
}

/**
 * A batch's figures and the CPU this process spent on it per delivery (client and server): all
 * its threads, and the event loop's thread alone (agate's SQLite checkpoints run on a thread of
 * their own, app/store/sqlite-checkpointer.ts).
 */
type Run = PostedBatch & { cpuUs: number; loopCpuUs: number };

/** The CPU of this process's main thread, in µs (Linux: /proc, in clock ticks; NaN elsewhere). */
function loopCpu(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const ms = (value: number) => `${value.toFixed(2)} ms`;

/**
 * Posts every request to `url`, `parallel` at a time. The client and both servers share this
 * process, so its CPU per delivery counts the same client for agate and bare Probot: the
 * difference is agate's own, and a busy machine distorts it less than throughput.
 */
async function run(url: string, list: Request[], parallel: number): Promise<Run> {
  const before = process.cpuUsage();
  const loopBefore = loopCpu();
  const batch = await postInParallel(list, parallel, () => url);
  const used = process.cpuUsage(before);
  return {
    ...batch,
    cpuUs: (used.user + used.system) / list.length,
    loopCpuUs: (loopCpu() - loopBefore) / list.length,
  };
}

/** What one durable commit of a delivery costs this disk at least: write its bytes, fdatasync. */
function fsyncFloor(file: string, count = 300): { p50: number; p99: number } {
  const fd = openSync(file, "w");
  const bytes = Buffer.alloc(size, 0x61);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      writeSync(fd, bytes);
      fdatasyncSync(fd);
      times.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

const { dir, cleanup } = tempDir();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
try {
  console.log(
    `${total} signed pull_request deliveries of ${(size / 1024).toFixed(1)} KiB each per round, ` +
      `${rounds} rounds, agate and bare Probot alternating; ${cpus().length} cores, load average ` +
      `${load()} at the start\n`,
  );
  const floor = fsyncFloor(join(dir, "fsync-floor"));
  console.log(
    `this disk's durable-write floor (write ${(size / 1024).toFixed(0)} KiB + fdatasync, 300 times): ` +
      `p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}: at most ${(1000 / floor.p50).toFixed(0)} ` +
      "commits/s one after another\n",
  );
  const agate = await startAgate({
    env: localAppEnv(dir, secret),
    // No handlers: the workers stay out of the way, this measures the webhook path alone.
    route: agateRoute,
    observe: agateObserve,
  });
  const bare = await bareProbot(secret);
  const agateUrl = `${agate.url}${WEBHOOKS_PATH}`;
  const bareUrl = `${bare.url}${WEBHOOKS_PATH}`;
  await run(agateUrl, await requests(100), 8);
  await run(bareUrl, await requests(100), 8);

  for (const parallel of IN_FLIGHT) {
    const agateRuns: Run[] = [];
    const bareRuns: Run[] = [];
    for (let round = 0; round < rounds; round++) {
      agateRuns.push(await run(agateUrl, await requests(total), parallel));
      bareRuns.push(await run(bareUrl, await requests(total), parallel));
    }
    const ratios = agateRuns.map((a, i) => a.perSecond / (bareRuns[i] as Run).perSecond);
    const line = (name: string, runs: Run[]) =>
      `  ${name.padEnd(22)} ${median(runs.map((r) => r.perSecond))
        .toFixed(0)
        .padStart(6)} deliveries/s   p50 ${ms(median(runs.map((r) => r.p50)))}   p99 ${ms(
        median(runs.map((r) => r.p99)),
      )} (rounds: ${runs.map((r) => r.p99.toFixed(1)).join(", ")})`;
    const ratio = median(ratios);
    const cpu = (runs: Run[]) => median(runs.map((r) => r.cpuUs));
    const loop = (runs: Run[]) => median(runs.map((r) => r.loopCpuUs));
    const target = TARGET_RATIO[parallel] ?? 0.8;
    console.log(`${parallel} in flight (median of ${rounds} rounds):`);
    console.log(line("agate (recorded)", agateRuns));
    console.log(line("bare Probot (no-op)", bareRuns));
    console.log(
      `  CPU per delivery in this process (client included): agate ${cpu(agateRuns).toFixed(0)} µs, ` +
        `bare Probot ${cpu(bareRuns).toFixed(0)} µs: agate's own ${(cpu(agateRuns) - cpu(bareRuns)).toFixed(0)} µs`,
    );
    console.log(
      `  of it on the event loop's thread: agate ${loop(agateRuns).toFixed(0)} µs, bare Probot ` +
        `${loop(bareRuns).toFixed(0)} µs: agate's own ${(loop(agateRuns) - loop(bareRuns)).toFixed(0)} µs`,
    );
    console.log(
      `  agate / bare throughput: ${ratio.toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(", ")}; target >= ${target}: ${met(ratio >= target)})`,
    );
    if (parallel === 1) {
      const p99 = median(agateRuns.map((r) => r.p99));
      console.log(
        `  agate p99: ${ms(p99)} (target <= ${TARGET_P99_MS} ms: ${met(p99 <= TARGET_P99_MS)})`,
      );
      console.log(
        `  one commit per delivery: agate's p50 is ${ms(median(agateRuns.map((r) => r.p50)))}, ` +
          `of which the disk's fdatasync alone is ${ms(floor.p50)}`,
      );
    }
    console.log("");
  }
  await bare.close();
  await agate.close();
  await storeShare(join(dir, "store.db"));
  console.log(`\nload average at the end: ${load()}`);
} finally {
  cleanup();
}

/**
 * The store's own share per delivery: recordDelivery one at a time (one commit each), then 8
 * and 32 at once, as many in flight as the intake had (they share commits).
 */
async function storeShare(file: string): Promise<void> {
  const count = Math.min(total, 400);
  const body = JSON.stringify(payload);
  const store = SqliteStore.open(file);
  const input = () => {
    const id = randomUUID();
    return {
      delivery: delivery(id, body),
      payload: body,
      jobs: agateRoute("pull_request", payload, id),
    };
  };
  const perDelivery = (elapsed: number) =>
    `${((elapsed * 1000) / count).toFixed(0).padStart(6)} µs`;
  console.log(`the store's share, ${count} deliveries recorded by recordDelivery, per delivery:`);
  let started = performance.now();
  for (let i = 0; i < count; i++) await store.recordDelivery(input());
  console.log(`  one at a time (a commit each):   ${perDelivery(performance.now() - started)}`);
  for (const parallel of [8, 32]) {
    let next = 0;
    started = performance.now();
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next++ < count) await store.recordDelivery(input());
      }),
    );
    console.log(
      `  ${String(parallel).padStart(2)} at once (sharing commits):   ${perDelivery(performance.now() - started)}`,
    );
  }
  await store.close();
}
