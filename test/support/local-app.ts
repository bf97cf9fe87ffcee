/**
 * Tests and benchmarks: the settings of an App started in this process (startAgate) on a free
 * local port, webhook deliveries signed as GitHub signs them, bodies of any size streamed to the
 * webhook path, and Probot's webhook middleware alone to compare with. No test runner here: a
 * benchmark's measured process loads only what it measures (vitest alone is some 25 MiB). Tests
 * take a temp dir and their Apps' cleanup from use-local-app.ts.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, request } from "node:http";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { createNodeMiddleware, Probot } from "probot";
import { WEBHOOKS_PATH } from "../../app/runtime/server.js";
import { generateAppKeys } from "../github/auth.js";

let privateKey: string | undefined;

/** An App private key (PKCS#8 PEM), made once per process: an RSA key takes a while. */
export function appPrivateKey(): string {
  privateKey ??= generateAppKeys().privateKey;
  return privateKey;
}

/**
 * The environment of an App on 127.0.0.1 and a free port (PORT=0), silent, with its database
 * in `dir`; `overrides` add or replace variables.
 */
export function localAppEnv(
  dir: string,
  secret: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    APP_ID: "42",
    PRIVATE_KEY: appPrivateKey(),
    WEBHOOK_SECRET: secret,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    AGATE_DATABASE_URL: `file:${join(dir, "agate.db")}`,
    ...overrides,
  };
}

/** POSTs `body` to the App at `url` as GitHub delivers it, signed with `secret`; the answer's status. */
export async function postDelivery(
  url: string,
  delivery: { event: string; id: string; body: string },
  secret: string,
): Promise<number> {
  const response = await fetch(`${url}${WEBHOOKS_PATH}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": delivery.event,
      "x-github-delivery": delivery.id,
      "x-hub-signature-256": await sign(secret, delivery.body),
    },
    body: delivery.body,
  });
  await response.arrayBuffer();
  return response.status;
}

export interface SentBody {
  /** The answer's status; the socket error's code when the connection failed before one. */
  status: number | string;
  text: string;
  /** Body bytes handed to the socket when the answer came. */
  sent: number;
  headers: IncomingHttpHeaders;
  /** From the request to the end of the answer. */
  ms: number;
}

export interface SendBodyOptions {
  /** Over the defaults: JSON, a pull_request event, a fresh delivery id, a signature of zeros. */
  headers?: Record<string, string>;
  /** The body: one buffer, or the same chunk `times` times, streamed as the socket takes it. */
  body: Buffer | { chunk: Buffer; times: number };
  /** Declared content-length; none (chunked) when null. Defaults to the body's length. */
  contentLength?: number | null;
  localAddress?: string;
  /** Stop writing after this many bytes and hold the connection (a slow sender). */
  stallAfter?: number;
}

/**
 * One POST to the webhook path of the App at `url`, on its own connection, with node:http so
 * that an answer given while the body is still being written is seen (the intake guard may
 * answer before it reads anything). Unsigned unless `headers` sign it.
 */
export function sendWebhookBody(url: string, options: SendBodyOptions): Promise<SentBody> {
  const target = new URL(`${url}${WEBHOOKS_PATH}`);
  const chunks = Buffer.isBuffer(options.body)
    ? [options.body]
    : Array.from({ length: options.body.times }, () => (options.body as { chunk: Buffer }).chunk);
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const length = options.contentLength === undefined ? total : options.contentLength;
  const started = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const done = (answer: Omit<SentBody, "ms">) => {
      resolve({ ...answer, ms: performance.now() - started });
      req.destroy();
    };
    const req = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: "POST",
      agent: false,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": randomUUID(),
        "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
        ...(length === null ? { "transfer-encoding": "chunked" } : { "content-length": length }),
        ...options.headers,
      },
    });
    req.on("response", (res) => {
      answered = true;
      const status = res.statusCode ?? 0;
      const seen = sent;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => done({ status, text, sent: seen, headers: res.headers }));
      res.on("error", () => done({ status, text, sent: seen, headers: res.headers }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered) done({ status: error.code ?? "error", text: "", sent, headers: {} });
    });
    let index = 0;
    const write = (): void => {
      while (!answered && index < chunks.length) {
        let chunk = chunks[index++] as Buffer;
        if (options.stallAfter !== undefined) {
          if (sent >= options.stallAfter) return;
          chunk = chunk.subarray(0, options.stallAfter - sent);
        }
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", write);
          return;
        }
      }
      if (!answered && options.stallAfter === undefined) req.end();
    };
    write();
  });
}

/**
 * Probot's webhook middleware alone on 127.0.0.1, with a no-op handler: what agate put on the
 * network before its intake guard, for benchmarks to compare with. Logs only fatal errors:
 * Probot logs a refused body whole, at error level.
 */
export async function bareProbot(secret: string): Promise<{ url: string; close(): Promise<void> }> {
  const probot = new Probot({ appId: 1, privateKey: appPrivateKey(), secret, logLevel: "fatal" });
  const middleware = await createNodeMiddleware((app) => app.onAny(async () => {}), {
    probot,
    webhooksPath: WEBHOOKS_PATH,
  });
  const server = createServer((req, res) => void middleware(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A pull_request delivery, signed, ready to post (the benchmarks post many). */
export interface SignedDelivery {
  id: string;
  body: string;
  signature: string;
}

/** What posting a batch measured: its start (performance.now()), deliveries a second, latency in ms. */
export interface PostedBatch {
  started: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/**
 * Posts every delivery as a `pull_request` event, `parallel` at a time, the nth to `urlOf(n)`;
 * throws unless each is answered 200.
 */
export async function postInParallel(
  list: SignedDelivery[],
  parallel: number,
  urlOf: (n: number) => string,
): Promise<PostedBatch> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < list.length) {
        const n = next++;
        const delivery = list[n] as SignedDelivery;
        const t0 = performance.now();
        const response = await fetch(urlOf(n), {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": "pull_request",
            "x-github-delivery": delivery.id,
            "x-hub-signature-256": delivery.signature,
          },
          body: delivery.body,
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
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { started, perSecond: list.length / seconds, p50: at(0.5), p99: at(0.99) };
}
