/**
 * The webhook path. The intake guard (intake-guard.ts) has bounded the body and checked its
 * signature; this records the delivery and its jobs in one transaction and only then answers
 * 200, so an answered delivery is committed (SQLite: synchronous = FULL, on disk). Nothing here
 * may take longer than that write: no GitHub calls (GitHub gives a delivery 10 s).
 *
 * What is stored is the body exactly as GitHub sent and signed it, and `payload_sha256` is the
 * sha256 of those bytes. Before issue 17 the payload was Probot's parse of the body serialised
 * again (JSON.stringify), and its digest that text's; such rows stay as they are, and a
 * delivery sent again whose re-serialised body is theirs is still a duplicate, not a conflict.
 * Probot's own webhook pipeline is not in this path: it would verify the signature a second
 * time and build an authenticated client per delivery that the intake never uses (the profile
 * in docs/performance.md); the workers use Probot for GitHub.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { payloadDigest } from "../store/delivery-input.js";
import type { Store } from "../store/store.js";
import type { Observe, Route } from "./routing.js";
import type { RuntimeLog } from "./worker.js";

export interface IntakeDeps {
  store: Store;
  now: () => Date;
  route: Route;
  /** The heads and bases the delivery names, recorded with it (none when absent). */
  observe?: Observe;
  /** Called after a new delivery enqueued jobs, so this process's workers wake at once. */
  onEnqueued?: (jobIds: readonly number[]) => void;
  log: RuntimeLog;
}

/** A delivery whose signature the intake guard has verified: its headers and body as sent. */
export interface VerifiedDelivery {
  id: string;
  event: string;
  body: string;
}

export interface IntakeAnswer {
  status: number;
  /** Sent as text/plain for 200, as JSON `{ error }` otherwise (Probot's answers, kept). */
  text: string;
}

/**
 * A delivery id seen before with a different body: the sender gets 409 and the first delivery
 * stays as it was.
 */
export class DeliveryConflictError extends Error {
  readonly status = 409;
  readonly deliveryId: string;

  constructor(deliveryId: string) {
    super(
      `delivery ${deliveryId} was received before with a different body; the first one is kept ` +
        "and this one is refused. A sender that reuses delivery ids is misbehaving: check the " +
        "webhook proxy or replay tool in front of agate",
    );
    this.name = "DeliveryConflictError";
    this.deliveryId = deliveryId;
  }
}

const refusal = (status: number, error: Error): IntakeAnswer => ({
  status,
  text: JSON.stringify({ error: `${error.name}: ${error.message}` }),
});

/** Records one verified delivery and says what to answer; never throws. */
async function recordWebhook(deps: IntakeDeps, delivered: VerifiedDelivery): Promise<IntakeAnswer> {
  const { log } = deps;
  let payload: unknown;
  try {
    payload = JSON.parse(delivered.body);
  } catch (error) {
    return refusal(
      400,
      new SyntaxError(`the body is not JSON (${(error as Error).message}); nothing was recorded`),
    );
  }
  const action = (payload as { action?: unknown } | null)?.action;
  const delivery = {
    id: delivered.id,
    event: delivered.event,
    action: typeof action === "string" ? action : null,
    // The store checks the digest again; payloadDigest lets it find this one, not hash twice.
    payload_sha256: payloadDigest(delivered.body),
    received_at: deps.now().toISOString(),
  };
  const fields = { delivery: delivery.id, event: delivery.event, action: delivery.action };
  try {
    const jobs = deps.route(delivered.event, payload, delivered.id);
    const sightings = deps.observe?.(delivered.event, payload) ?? [];
    let result = await deps.store.recordDelivery({
      delivery,
      payload: delivered.body,
      jobs,
      sightings,
    });
    if (result.status === "conflict") {
      // Recorded before issue 17, as the re-serialised parse: the same delivery sent again.
      const legacy = JSON.stringify(payload);
      if (legacy !== delivered.body) {
        const again = { ...delivery, payload_sha256: payloadDigest(legacy) };
        result = await deps.store.recordDelivery({
          delivery: again,
          payload: legacy,
          jobs,
          sightings,
        });
      }
    }
    if (result.status === "duplicate") {
      log.info(
        { ...fields, jobs: result.jobIds },
        "delivery seen before with the same body: acknowledged, not processed again",
      );
      return { status: 200, text: "ok\n" };
    }
    if (result.status === "conflict") {
      log.error(
        { ...fields, payload_sha256: delivery.payload_sha256 },
        `delivery ${delivery.id} refused (409): the id was received before with a different body; the first one is kept`,
      );
      return refusal(409, new DeliveryConflictError(delivery.id));
    }
    log.debug({ ...fields, jobs: result.jobIds }, "delivery recorded");
    if (result.jobIds.length > 0) deps.onEnqueued?.(result.jobIds);
    return { status: 200, text: "ok\n" };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    log.error(
      { ...fields, error: failure.message },
      `delivery ${delivery.id} not recorded (500): ${failure.message}; GitHub shows it as failed and it can be redelivered`,
    );
    return refusal(500, failure);
  }
}

/** The handler the intake guard passes a verified request and its body to. */
export function intakeHandler(deps: IntakeDeps) {
  return (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
    };
    void recordWebhook(deps, {
      id: header("x-github-delivery"),
      event: header("x-github-event"),
      body,
    }).then((answer) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(answer.status, {
        "content-type": answer.status === 200 ? "text/plain" : "application/json",
        "content-length": String(Buffer.byteLength(answer.text)),
      });
      res.end(answer.text);
    });
  };
}
