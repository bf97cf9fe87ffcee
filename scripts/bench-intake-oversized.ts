/**
 * Memory of the App's webhook intake under oversized and unsigned bodies: the App runs in a
 * child process (so its RSS is its own), this process floods it through real HTTP with bodies
 * streamed from one reused buffer, and signed deliveries go on beside the flood. Prints peak RSS
 * per phase, the answers, and the signed deliveries' answers and latency; asserts nothing.
 * By default the same flood (the part that fits in memory) also goes to Probot's webhook
 * middleware alone, which is what agate put on the network before its intake guard.
 *
 *   npx tsx scripts/bench-intake-oversized.ts [--no-bare] [--seconds=10]
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sign } from "@octokit/webhooks-methods";
import { agateObserve, agateRoute } from "../app/compose.js";
import { startAgate } from "../app/runtime/server.js";
import {
  bareProbot,
  localAppEnv,
  type SentBody,
  sendWebhookBody,
} from "../test/support/local-app.js";
import { webhookExample } from "../test/support/webhook-examples.js";

const SECRET = "bench-oversized-secret";
const MB = 1_000_000;
const MiB = 1024 * 1024;

// ---- the server side (child process) ---------------------------------------------------------

async function serve(kind: "agate" | "bare"): Promise<void> {
  let url: string;
  let dir: string | undefined;
  if (kind === "agate") {
    // Not test/support/store.ts's tempDir: it loads vitest, which this process would measure.
    dir = mkdtempSync(join(tmpdir(), "agate-bench-oversized-"));
    url = (
      await startAgate({ env: localAppEnv(dir, SECRET), route: agateRoute, observe: agateObserve })
    ).url;
  } else {
    url = (await bareProbot(SECRET)).url;
  }
  let peak = process.memoryUsage().rss;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5).unref();
  process.on("message", (message: string) => {
    if (message === "peak") {
      const rss = process.memoryUsage().rss;
      process.send?.({ peak: Math.max(peak, rss), rss });
      peak = rss;
    }
    if (message === "exit") {
      if (dir) rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send?.({ url });
}

// ---- the client side -------------------------------------------------------------------------

type Answer = Pick<SentBody, "status" | "ms">;

const example = webhookExample("pull_request", "opened");

async function signedDelivery(url: string, n: number): Promise<Answer> {
  const text = JSON.stringify({ ...example, number: n });
  return sendWebhookBody(url, {
    body: Buffer.from(text),
    headers: { "x-hub-signature-256": await sign(SECRET, text) },
  });
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(0).padStart(5)} MiB`;

function tally(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(String(a.status), (counts.get(String(a.status)) ?? 0) + 1);
  const sorted = answers.map((a) => a.ms).sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `${[...counts].map(([status, count]) => `${count}× ${status}`).join(", ")}; answered in p50 ${at(0.5).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`;
}

interface Phase {
  name: string;
  /** Only for the guarded App: Probot alone would need gigabytes. */
  agateOnly?: boolean;
  run(url: string): Promise<Answer[]>;
}

const space = Buffer.alloc(MiB, 0x20);
const thirty = Buffer.alloc(30 * MB, 0x20);
const twenty = Buffer.alloc(20 * MB, 0x20);
const sixHundred = { chunk: space, times: 600 };

function parallel(count: number, one: () => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(Array.from({ length: count }, one));
}

function phases(seconds: number): Phase[] {
  return [
    {
      name: "100 signed deliveries, nothing else",
      run: async (url) => {
        const answers: Answer[] = [];
        for (let n = 1; n <= 100; n++) answers.push(await signedDelivery(url, n));
        return answers;
      },
    },
    {
      name: "20 parallel unsigned 30 MB bodies with content-length",
      run: (url) => parallel(20, () => sendWebhookBody(url, { body: thirty })),
    },
    {
      name: "1 unsigned 600 MB body with content-length",
      run: (url) => parallel(1, () => sendWebhookBody(url, { body: sixHundred })),
    },
    {
      name: "5 parallel unsigned 600 MB bodies, chunked (no content-length)",
      agateOnly: true,
      run: (url) =>
        parallel(5, () => sendWebhookBody(url, { body: sixHundred, contentLength: null })),
    },
    {
      name: "40 parallel unsigned 20 MB bodies (under the cap)",
      agateOnly: true,
      run: (url) => parallel(40, () => sendWebhookBody(url, { body: twenty })),
    },
    {
      name: `${seconds} s of 16 flooding connections (30 MB, 600 MB chunked, 20 MB unsigned)`,
      agateOnly: true,
      run: async (url) => {
        const until = performance.now() + seconds * 1000;
        const kinds = [
          () => sendWebhookBody(url, { body: thirty }),
          () => sendWebhookBody(url, { body: sixHundred, contentLength: null }),
          () => sendWebhookBody(url, { body: twenty }),
        ];
        const answers: Answer[] = [];
        await Promise.all(
          Array.from({ length: 16 }, async (_, lane) => {
            for (let i = lane; performance.now() < until; i++) {
              answers.push(await (kinds[i % kinds.length] as () => Promise<Answer>)());
            }
          }),
        );
        return answers;
      },
    },
  ];
}

async function measure(kind: "agate" | "bare", seconds: number): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["serve", kind], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const reply = <T>() =>
    new Promise<T>((resolve) => child.once("message", (message) => resolve(message as T)));
  const { url } = await reply<{ url: string }>();
  const peak = async () => {
    child.send("peak");
    return reply<{ peak: number; rss: number }>();
  };
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idle = await peak();
  console.log(
    kind === "agate"
      ? "\nagate (intake guard in front of Probot's middleware):"
      : "\nProbot's webhook middleware alone (agate's intake before the guard):",
  );
  console.log(`  idle                                   rss ${mib(idle.rss)}`);
  let highest = idle.peak;
  for (const phase of phases(seconds)) {
    if (phase.agateOnly && kind === "bare") continue;
    const signed: Answer[] = [];
    let flooding = true;
    const beside =
      phase.name.startsWith("100 signed") || kind === "bare"
        ? Promise.resolve()
        : (async () => {
            for (let n = 1000; flooding; n++) signed.push(await signedDelivery(url, n));
          })();
    const answers = await phase.run(url);
    flooding = false;
    await beside;
    const { peak: top, rss } = await peak();
    highest = Math.max(highest, top);
    console.log(`  ${phase.name}`);
    console.log(`    peak rss ${mib(top)}, after ${mib(rss)}; answers: ${tally(answers)}`);
    if (signed.length > 0) console.log(`    signed deliveries beside it: ${tally(signed)}`);
  }
  console.log(`  highest rss seen: ${mib(highest)} (${mib(highest - idle.rss).trim()} over idle)`);
  child.send("exit");
  await new Promise((resolve) => child.once("exit", resolve));
}

if (process.argv[2] === "serve") {
  await serve(process.argv[3] === "bare" ? "bare" : "agate");
} else {
  const seconds = Number(
    process.argv.find((arg) => arg.startsWith("--seconds="))?.slice("--seconds=".length) ?? 10,
  );
  console.log(
    "Webhook intake under oversized and unsigned bodies (RSS of the server process, sampled " +
      "every 5 ms; bodies streamed from one reused buffer)",
  );
  await measure("agate", seconds);
  if (!process.argv.includes("--no-bare")) await measure("bare", seconds);
}
