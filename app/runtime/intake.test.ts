// The intake through real HTTP (startAgate, the guard, a SQLite file): what is stored is the
// signed body byte for byte, with its own sha256; rows the intake stored before that (the body
// parsed and serialised again) still make a resend a duplicate; a different body is refused.
import { createHash, randomUUID } from "node:crypto";
import { sign } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import { sendWebhookBody } from "../../test/support/local-app.js";
import { useLocalApp } from "../../test/support/use-local-app.js";
import { webhookExample } from "../../test/support/webhook-examples.js";

const SECRET = "intake-raw-secret";
const app = useLocalApp(SECRET);
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

async function deliver(url: string, id: string, text: string) {
  const body = Buffer.from(text);
  return sendWebhookBody(url, {
    body,
    headers: { "x-github-delivery": id, "x-hub-signature-256": await sign(SECRET, text) },
  });
}

/** GitHub's bytes are not JSON.stringify's: indentation, escaped non-ASCII and slashes. */
const payload = { ...webhookExample("pull_request", "opened"), note: "ünïcødé </script>" };
const asSent = JSON.stringify(payload, null, 2)
  .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  .replace(/\//g, "\\/");

describe("the intake stores the signed body as it came", () => {
  it("stores the bytes and their sha256, not a re-serialisation, and answers a resend as a duplicate", async () => {
    const { url, store } = await app.start();
    const id = randomUUID();
    expect(asSent).not.toBe(JSON.stringify(JSON.parse(asSent)));
    expect(await deliver(url, id, asSent)).toMatchObject({ status: 200, text: "ok\n" });
    const stored = await store.getDelivery(id);
    expect(stored?.payload).toBe(asSent);
    expect(stored?.payload_sha256).toBe(sha256(asSent));
    expect(await deliver(url, id, asSent)).toMatchObject({ status: 200 });
    expect(await store.listJobs({ deliveryId: id })).toHaveLength(1);
    // The head and base it names are stored with it, before any job reads the pull request.
    const { pull_request: pr, repository } = payload;
    expect(
      await store.listBaseSightings({ repository: repository.full_name, headSha: pr.head.sha }),
    ).toEqual([
      {
        repository: repository.full_name,
        pull_number: pr.number,
        head_sha: pr.head.sha,
        base_ref: pr.base.ref,
        delivery_id: id,
        seen_at: expect.any(String),
      },
    ]);
  });

  it("a row stored re-serialised (before issue 17) still makes the same delivery a duplicate; another body is refused", async () => {
    const { url, store } = await app.start();
    const id = randomUUID();
    const legacy = JSON.stringify(JSON.parse(asSent));
    await store.recordDelivery({
      delivery: {
        id,
        event: "pull_request",
        action: "opened",
        payload_sha256: sha256(legacy),
        received_at: new Date().toISOString(),
      },
      payload: legacy,
      jobs: [],
    });
    expect(await deliver(url, id, asSent)).toMatchObject({ status: 200, text: "ok\n" });
    expect((await store.getDelivery(id))?.payload).toBe(legacy);

    // The attacker's path: the same id with another body, raw or re-serialised, is a conflict.
    const forged = asSent.replace('"opened"', '"closed"');
    const refused = await deliver(url, id, forged);
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toEqual({
      error: expect.stringMatching(/^DeliveryConflictError: delivery .* different body/),
    });
    expect((await store.getDelivery(id))?.action).toBe("opened");
  });

  it("a signed body that is not JSON: 400 with what is wrong, nothing stored", async () => {
    const { url, store } = await app.start();
    const id = randomUUID();
    const answer = await deliver(url, id, "{not json");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error).toMatch(/^SyntaxError: the body is not JSON \(/);
    expect(await store.getDelivery(id)).toBeNull();
  });
});
