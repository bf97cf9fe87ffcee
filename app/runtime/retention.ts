/**
 * Delivery retention, run by a timer in each App process (not a job): a pass is one store call
 * per batch, needs no GitHub and no lease, is idempotent, and the database checks every prune
 * itself, so two processes pruning at once is harmless. A queued job would need a handler in
 * the gate's table, a row per pass in the queue, and would not run in a process started with
 * AGATE_WORKERS=0, which still grows the database with every webhook it records.
 */
import { setImmediate as yieldToEvents } from "node:timers/promises";
import type { Store } from "../store/store.js";
import type { RuntimeLog } from "./worker.js";

/** A pass an hour: against a retention of at least an hour (7 days by default), often enough. */
export const PRUNE_INTERVAL_MS = 3_600_000;
/** The first pass, after start-up's own work. */
export const FIRST_PRUNE_AFTER_MS = 60_000;

export interface DeliveryRetention {
  /** Prunes everything due now, in the store's batches; resolves with how many payloads went. */
  runOnce(): Promise<number>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export interface DeliveryRetentionOptions {
  store: Store;
  retentionMs: number;
  log: RuntimeLog;
  intervalMs?: number;
}

export function startDeliveryRetention(options: DeliveryRetentionOptions): DeliveryRetention {
  const { store, retentionMs, log } = options;
  const intervalMs = options.intervalMs ?? PRUNE_INTERVAL_MS;
  let stopped = false;
  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function pass(): Promise<number> {
    let total = 0;
    for (;;) {
      const { pruned, more } = await store.pruneDeliveryPayloads({ retentionMs });
      total += pruned;
      if (!more || stopped) break;
      // Between batches, let waiting webhooks have the event loop and the write lock.
      await yieldToEvents();
    }
    if (total > 0) {
      log.info(
        { pruned: total, retention_ms: retentionMs },
        `pruned the payloads of ${total} processed webhook deliveries older than the retention (AGATE_DELIVERY_RETENTION); their ids, digests and jobs are kept`,
      );
    }
    return total;
  }

  function runOnce(): Promise<number> {
    // One pass at a time: a timer firing during a manual pass joins it.
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(afterMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => {
          log.warn(
            { err: error },
            `pruning stored webhook payloads failed (${error instanceof Error ? error.message : String(error)}); trying again in ${Math.round(intervalMs / 60_000)} min. If this repeats, check that the database is writable`,
          );
        })
        .finally(() => schedule(intervalMs));
    }, afterMs);
    // The server keeps the process alive; a pending prune must not.
    timer.unref();
  }
  schedule(Math.min(FIRST_PRUNE_AFTER_MS, intervalMs));

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
