// Sends webhooks the way GitHub does: one POST per event, JSON body, a fresh delivery id, the
// X-GitHub-* headers and an HMAC SHA-256 signature of the exact body. Deliveries go out one at a
// time in the order the events happened, after the API response that caused them, so a test can
// await them (`flush`) and see a deterministic sequence.
import { randomUUID } from "node:crypto";
import { sign } from "@octokit/webhooks-methods";

export interface Delivery {
  id: string;
  event: string;
  action: string | undefined;
  /** HTTP status of the receiver's answer; undefined when not sent or the request failed. */
  status: number | undefined;
  /** Why it was not answered: no webhook URL, a network error, or the 10 s timeout. */
  error: string | undefined;
  payload: Record<string, unknown>;
  durationMs: number;
}

export interface WebhookTarget {
  hookId: number;
  /** The app's id, sent as X-GitHub-Hook-Installation-Target-ID (target type "integration"). */
  appId: number;
}

/** GitHub gives a receiver 10 seconds before it records the delivery as failed. */
const DELIVERY_TIMEOUT_MS = 10_000;

export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  private url: string | undefined;
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private secret: string,
    private readonly target: WebhookTarget,
    url?: string,
  ) {
    this.url = url;
  }

  setUrl(url: string | undefined): void {
    this.url = url;
  }

  setSecret(secret: string): void {
    this.secret = secret;
  }

  /** Queues a delivery and returns a promise that settles when the receiver has answered. */
  send(event: string, payload: Record<string, unknown>): Promise<Delivery> {
    this.pending++;
    const result = this.queue.then(() => this.deliver(event, payload));
    this.queue = result.then(
      () => {
        this.pending--;
      },
      () => {
        this.pending--;
      },
    );
    return result;
  }

  /**
   * Waits until no delivery is queued. Receivers react to deliveries with API calls that cause
   * further deliveries, so this loops until the queue stays empty across a turn of the event loop.
   */
  async flush(): Promise<void> {
    for (;;) {
      await this.queue;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.pending === 0) return;
    }
  }

  clear(): void {
    this.deliveries.length = 0;
  }

  private async deliver(event: string, payload: Record<string, unknown>): Promise<Delivery> {
    const id = randomUUID();
    const body = JSON.stringify(payload);
    const action = typeof payload.action === "string" ? payload.action : undefined;
    const delivery: Delivery = {
      id,
      event,
      action,
      status: undefined,
      error: undefined,
      payload,
      durationMs: 0,
    };
    this.deliveries.push(delivery);
    const url = this.url;
    if (!url) {
      delivery.error = "no webhook URL";
      return delivery;
    }
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "GitHub-Hookshot/agate-sim",
          "x-github-event": event,
          "x-github-delivery": id,
          "x-github-hook-id": String(this.target.hookId),
          "x-github-hook-installation-target-id": String(this.target.appId),
          "x-github-hook-installation-target-type": "integration",
          "x-hub-signature-256": await sign(this.secret, body),
        },
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      delivery.status = response.status;
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    delivery.durationMs = Math.round(performance.now() - started);
    return delivery;
  }
}
