// The bounded webhook intake through real HTTP against the real server (startAgate): oversized
// bodies by content-length and by stream, floods from one sender, bad signatures, while signed
// deliveries keep being answered and stored exactly once. Memory is measured by
// scripts/bench-intake-oversized.ts, not here.
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { sign } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import { sendWebhookBody } from "../../test/support/local-app.js";
import { eventually, recordingLog } from "../../test/support/recording-log.js";
import { useLocalApp } from "../../test/support/use-local-app.js";
import { webhookExample } from "../../test/support/webhook-examples.js";
import { Admission, senderKey } from "./admission.js";
import { intakeLimits, webhookPathname } from "./intake-guard.js";
import type { Agate, StartAgateOptions } from "./server.js";

const SECRET = "intake-test-secret";
const MB = 1_000_000;
const MiB = 1024 * 1024;

const app = useLocalApp(SECRET);
/** The App the test started last, for its intake's figures. */
let agate: Agate | undefined;

async function start(options: Partial<StartAgateOptions> = {}): Promise<Agate> {
  agate = await app.start(options);
  return agate;
}

/** A pull_request delivery signed with the App's secret, as GitHub sends it. */
async function signed(number: number) {
  const body = Buffer.from(JSON.stringify({ ...webhookExample("pull_request", "opened"), number }));
  const id = randomUUID();
  return {
    id,
    body,
    headers: {
      "x-github-delivery": id,
      "x-hub-signature-256": await sign(SECRET, body.toString()),
    },
  };
}

async function deliverSigned(url: string, number: number, localAddress?: string) {
  const delivery = await signed(number);
  const answer = await sendWebhookBody(url, {
    body: delivery.body,
    headers: delivery.headers,
    ...(localAddress ? { localAddress } : {}),
  });
  return { ...delivery, answer };
}

async function expectStoredOnce(store: Agate["store"], id: string, body: Buffer) {
  expect((await store.getDelivery(id))?.payload).toBe(body.toString());
  expect(await store.listJobs({ deliveryId: id })).toHaveLength(1);
}

describe("the webhook intake, under oversized and unsigned bodies", () => {
  it("answers a 600 MB unsigned body 413 by its content-length, without reading it", async () => {
    const { url, store } = await start();
    const answer = await sendWebhookBody(url, {
      body: { chunk: Buffer.alloc(MiB, 0x20), times: 600 },
      contentLength: 600 * MB,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error).toMatch(/larger than 26214400 bytes/);
    expect(answer.sent).toBeLessThan(600 * MiB);
    expect(agate?.intake()).toMatchObject({ bytesRead: 0, inFlight: 0, reservedBytes: 0 });
    expect(agate?.intake().refused.too_large).toBe(1);
    expect(await store.listJobs()).toEqual([]);
  });

  it("cuts a chunked 600 MB body (no content-length) at the cap and answers 413", async () => {
    const { url, store } = await start();
    const answer = await sendWebhookBody(url, {
      body: { chunk: Buffer.alloc(MiB, 0x20), times: 600 },
      contentLength: null,
    });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(600 * MiB);
    const stats = agate?.intake();
    // Read up to the cap and one chunk past it, no further.
    expect(stats?.bytesRead).toBeGreaterThan(25 * MiB);
    expect(stats?.bytesRead).toBeLessThan(25 * MiB + MiB);
    expect(stats).toMatchObject({ inFlight: 0, reservedBytes: 0, accepted: 0 });
    expect(await store.listJobs()).toEqual([]);
  });

  it("answers 20 parallel 30 MB bodies and a streamed 600 MB one 413, while signed deliveries are answered 2XX and stored once", async () => {
    const { url, store } = await start();
    const thirty = Buffer.alloc(30 * MB, 0x20);
    let flooding = true;
    const flood = Promise.all([
      ...Array.from({ length: 20 }, () => sendWebhookBody(url, { body: thirty })),
      sendWebhookBody(url, {
        body: { chunk: Buffer.alloc(MiB, 0x20), times: 600 },
        contentLength: null,
      }),
    ]).finally(() => {
      flooding = false;
    });
    const delivered: Array<Awaited<ReturnType<typeof deliverSigned>>> = [];
    // Signed deliveries go on while the flood lasts (and at least ten of them).
    for (let n = 1; flooding || delivered.length < 10; n++) {
      delivered.push(await deliverSigned(url, n));
    }
    const refused = await flood;
    expect(refused.map((answer) => answer.status)).toEqual(Array(21).fill(413));
    expect(delivered.map((d) => d.answer.status)).toEqual(Array(delivered.length).fill(200));
    for (const d of delivered) await expectStoredOnce(store, d.id, d.body);
    expect(await store.listJobs()).toHaveLength(delivered.length);
    expect(agate?.intake()).toMatchObject({ accepted: delivered.length, inFlight: 0 });
  });

  it("stores a signed delivery under the cap exactly once, also when it is sent again", async () => {
    // A delivery of several megabytes (GitHub's larger payloads), in the large end of the cap.
    const { url, store } = await start();
    const example = webhookExample("pull_request", "opened");
    const body = Buffer.from(
      JSON.stringify({
        ...example,
        pull_request: { ...example.pull_request, body: "x".repeat(5 * MB) },
      }),
    );
    const headers = {
      "x-github-delivery": "big-1",
      "x-hub-signature-256": await sign(SECRET, body.toString()),
    };
    expect((await sendWebhookBody(url, { body, headers })).status).toBe(200);
    expect((await sendWebhookBody(url, { body, headers, contentLength: null })).status).toBe(200);
    await expectStoredOnce(store, "big-1", body);
  });

  it("takes a body of exactly the cap, by content-length and chunked, and refuses one byte more", async () => {
    const cap = 64 * 1024;
    const { url, store } = await start({
      intakeLimits: { maxBodyBytes: cap, perSenderBytes: 4 * cap, bufferBytes: 8 * cap },
    });
    const exactly = async (size: number, chunked: boolean) => {
      const text = JSON.stringify({ zen: "" });
      const body = Buffer.from(`${text.slice(0, -2)}"${" ".repeat(size - text.length)}}`);
      expect(body.length).toBe(size);
      const id = randomUUID();
      const answer = await sendWebhookBody(url, {
        body,
        contentLength: chunked ? null : body.length,
        headers: {
          "x-github-event": "ping",
          "x-github-delivery": id,
          "x-hub-signature-256": await sign(SECRET, body.toString()),
        },
      });
      return { status: answer.status, stored: (await store.getDeliveryRecord(id)) !== null };
    };
    expect(await exactly(cap, false)).toEqual({ status: 200, stored: true });
    expect(await exactly(cap, true)).toEqual({ status: 200, stored: true });
    expect(await exactly(cap + 1, false)).toEqual({ status: 413, stored: false });
    expect(await exactly(cap + 1, true)).toEqual({ status: 413, stored: false });
  });

  it("refuses a missing, malformed or wrong signature with 400, stores nothing, and never logs the body", async () => {
    const log = recordingLog();
    const { url, store } = await start({ log });
    const delivery = await signed(1);
    const secretText = "s3cr3t-body-text-".repeat(1000);
    const body = Buffer.from(JSON.stringify({ zen: secretText }));
    const cases: Array<Record<string, string>> = [
      { "x-hub-signature-256": await sign("another secret", body.toString()) },
      { "x-hub-signature-256": "sha1=abc" },
      // The signature of another body (a signed delivery's), replayed on this one.
      { "x-hub-signature-256": delivery.headers["x-hub-signature-256"] },
    ];
    for (const headers of cases) {
      const answer = await sendWebhookBody(url, {
        body,
        headers: { ...headers, "x-github-delivery": "bad" },
      });
      expect(answer.status).toBe(400);
    }
    const missing = await new Promise<number>((resolve, reject) => {
      const target = new URL(`${url}/api/github/webhooks`);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          headers: { "content-type": "application/json", "x-github-event": "ping" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(missing).toBe(400);
    expect(await store.getDeliveryRecord("bad")).toBeNull();
    expect(await store.listJobs()).toEqual([]);
    expect(agate?.intake().refused).toMatchObject({
      signature_mismatch: 2,
      signature_malformed: 1,
      headers_missing: 1,
    });
    // One line for the first refusal (then a summary at most every minute), without the body.
    const lines = JSON.stringify(log.entries);
    expect(lines).not.toContain("s3cr3t-body-text");
    expect(log.entries.filter((entry) => entry.level === "warn")).toHaveLength(1);
  });

  it("makes a sender over its share wait, then refuses it 429, while another sender is answered", async () => {
    const { url, store } = await start({
      intakeLimits: { perSenderBodies: 2, waitMs: 300, bodyTimeoutMs: 2_000 },
    });
    // Two bodies that stall half-way hold this sender's two places.
    const stalled = [1, 2].map(() =>
      sendWebhookBody(url, { body: Buffer.alloc(10_000, 0x20), stallAfter: 5_000 }),
    );
    await eventually("both stalled bodies to be admitted", () => agate?.intake().inFlight === 2);
    const third = await sendWebhookBody(url, { body: Buffer.alloc(1_000, 0x20) });
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("1");
    // Another address (GitHub's, say) still gets in while the first is over its share.
    const other = await deliverSigned(url, 7, "127.0.0.2");
    expect(other.answer.status).toBe(200);
    await expectStoredOnce(store, other.id, other.body);
    // The stalled bodies run out of time: 408, and their places are free again.
    expect((await Promise.all(stalled)).map((answer) => answer.status)).toEqual([408, 408]);
    expect(agate?.intake()).toMatchObject({ inFlight: 0, reservedBytes: 0 });
    expect((await deliverSigned(url, 8)).answer.status).toBe(200);
  });

  it("lets a small delivery past a large one that waits for room", async () => {
    const { url } = await start({
      intakeLimits: {
        maxBodyBytes: 100_000,
        perSenderBytes: 150_000,
        bufferBytes: 150_000,
        bodyTimeoutMs: 1_000,
        waitMs: 3_000,
      },
    });
    // A large stalled body holds 100 kB of the sender's 150 kB; another large one must wait.
    const holder = sendWebhookBody(url, {
      body: Buffer.alloc(100_000, 0x20),
      stallAfter: 1_000,
    });
    await eventually("the large body to be admitted", () => agate?.intake().inFlight === 1);
    const waiting = sendWebhookBody(url, { body: Buffer.alloc(90_000, 0x20) });
    await eventually("the second large body to wait", () => agate?.intake().waiting === 1);
    // A small signed delivery fits beside the holder and does not queue behind the waiter.
    expect((await deliverSigned(url, 3)).answer.status).toBe(200);
    expect(agate?.intake().waiting).toBe(1);
    // The holder runs out of time; the waiter then gets its room, and is read (and refused:
    // it is unsigned).
    expect((await holder).status).toBe(408);
    expect((await waiting).status).toBe(400);
  });
});

describe("senderKey", () => {
  it("counts IPv4 by address, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(senderKey("192.0.2.7")).toBe("192.0.2.7");
    expect(senderKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(senderKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(senderKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(senderKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(senderKey("::1")).toBe("0:0:0:0::/64");
    expect(senderKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(senderKey(undefined)).toBe("unknown");
  });
});

describe("webhookPathname", () => {
  it("matches the path as Probot's middleware does, so no spelling of it goes unguarded", () => {
    for (const url of [
      "/api/github/webhooks",
      "/api/github/webhooks/",
      "/api/github/webhooks//",
      "/api/github/webhooks?x=1",
      "/api/github/webhooks#frag",
    ]) {
      expect(webhookPathname(url), url).toBe("/api/github/webhooks");
    }
    expect(webhookPathname("/api/github/webhooks/?x=1")).toBe("/api/github/webhooks/");
    expect(webhookPathname("//")).toBe("/");
  });
});

describe("intakeLimits", () => {
  it("refuses limits that cannot take one delivery of the largest size", () => {
    expect(() => intakeLimits({ perSenderBytes: MiB })).toThrow(/maxBodyBytes <= perSenderBytes/);
    expect(() => intakeLimits({ bufferBytes: 30 * MiB })).toThrow(/<= bufferBytes/);
    expect(() => intakeLimits({ waitMs: -1 })).toThrow(/waitMs is -1/);
  });

  it("admits by bytes and bodies, per sender and overall", () => {
    const admission = new Admission(
      intakeLimits({
        maxBodyBytes: 10,
        perSenderBytes: 10,
        bufferBytes: 15,
        perSenderBodies: 2,
        perSenderWaiting: 0,
        waiting: 0,
      }),
    );
    const res = { once() {}, off() {} } as never;
    const take = (sender: string, bytes: number) => admission.acquire(sender, bytes, res);
    return (async () => {
      const a = await take("a", 6);
      expect(await take("a", 5)).toBe("sender_busy"); // a's bytes
      const b = await take("b", 9);
      expect(await take("c", 1)).toBe("busy"); // all bytes
      expect(admission.stats()).toEqual({ inFlight: 2, reservedBytes: 15, waiting: 0 });
      if (typeof a === "string" || typeof b === "string") throw new Error("not admitted");
      admission.release(b);
      const a2 = await take("a", 1);
      expect(await take("a", 1)).toBe("sender_busy"); // a's bodies
      if (typeof a2 === "string") throw new Error("not admitted");
      admission.release(a);
      admission.release(a2);
      expect(admission.stats()).toEqual({ inFlight: 0, reservedBytes: 0, waiting: 0 });
    })();
  });
});
