/**
 * The webhook path. The intake guard (intake-guard.ts) has bounded the body and checked its
 * signature before Probot read it, and Probot has verified it again by the time this runs; the
 * handler only records the delivery and its jobs in one transaction and returns, so the row is
 * committed before Probot's middleware answers 2XX. Nothing here may take longer than that
 * write: no GitHub calls (GitHub gives a delivery 10 s, Probot answers 202 on its own after 9 s).
 */
import { createHash } from "node:crypto";
import type { Probot } from "probot";
import type { Store } from "../store/store.js";
import type { Route } from "./route.js";
import type { RuntimeLog } from "./worker.js";

export interface IntakeDeps {
  store: Store;
  now: () => Date;
  route: Route;
  /** Called after a new delivery enqueued jobs, so this process's workers wake at once. */
  onEnqueued?: (jobIds: readonly number[]) => void;
  /** Where duplicates and conflicts are reported; Probot's logger by default. */
  log?: RuntimeLog;
}

/**
 * A delivery id seen before with a different body. Probot's webhook middleware answers with the
 * first error's `status`, so the sender gets 409 and the first delivery stays as it was.
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

export function registerIntake(app: Probot, deps: IntakeDeps): void {
  const log: RuntimeLog = deps.log ?? app.log;
  app.onAny(async (context) => {
    const payload = JSON.stringify(context.payload);
    const action = (context.payload as { action?: unknown }).action;
    const delivery = {
      id: context.id,
      event: context.name,
      action: typeof action === "string" ? action : null,
      payload_sha256: createHash("sha256").update(payload, "utf8").digest("hex"),
      received_at: deps.now().toISOString(),
    };
    const result = await deps.store.recordDelivery({
      delivery,
      payload,
      jobs: deps.route(context.name, context.payload, context.id),
    });
    const fields = { delivery: delivery.id, event: delivery.event, action: delivery.action };
    if (result.status === "duplicate") {
      log.info(
        { ...fields, jobs: result.jobIds },
        "delivery seen before with the same body: acknowledged, not processed again",
      );
      return;
    }
    if (result.status === "conflict") {
      log.error(
        { ...fields, payload_sha256: delivery.payload_sha256 },
        `delivery ${delivery.id} refused (409): the id was received before with a different body; the first one is kept`,
      );
      throw new DeliveryConflictError(delivery.id);
    }
    log.debug({ ...fields, jobs: result.jobIds }, "delivery recorded");
    if (result.jobIds.length > 0) deps.onEnqueued?.(result.jobIds);
  });
}
