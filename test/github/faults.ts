// The simulator's fault injector: GitHub applies a write and the answer never reaches the
// client. That is the moment a retry can double an effect (the client cannot tell the write
// happened), so every write agate makes is tested there: the N-th write counted after `arm` is
// applied (its state changed, its webhooks sent) and then its answer is dropped (the socket
// destroyed: the client sees a network error) or held (the client waits until it is killed).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestMeta } from "./server.js";

export type FaultMode = "drop" | "hang";

/** A write as the injector counts it. */
export interface CountedWrite {
  operationId: string;
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
}

export interface FaultPlan {
  /** The write to fault, from 1, counted from `arm`. */
  nth: number;
  mode: FaultMode;
  /**
   * Which writes count. Default: every write that reached a stateful handler except the
   * installation token exchange (a client mints tokens as it likes; it changes nothing).
   */
  counts?: (write: CountedWrite) => boolean;
}

/** The write that was applied and not answered. */
export interface FaultEvent extends CountedWrite {
  n: number;
  mode: FaultMode;
  /** The status GitHub answered with, which the client never saw. */
  status: number;
  params: Record<string, string>;
  body: unknown;
}

const countsByDefault = (write: CountedWrite) =>
  write.operationId !== "apps/create-installation-access-token";

interface Armed {
  plan: FaultPlan;
  seen: number;
  resolve: (event: FaultEvent) => void;
}

export class WriteFaults {
  #armed: Armed | undefined;
  #held = new Set<ServerResponse>();
  /** Writes counted since the last `arm` (whether or not one was faulted). */
  counted = 0;

  /**
   * Faults the `nth` counted write from now on. Resolves once it was applied and its answer
   * dropped or held; a held answer stays held until its client goes away or `release()`.
   */
  arm(plan: FaultPlan): Promise<FaultEvent> {
    if (plan.nth < 1) throw new Error(`nth counts from 1, got ${plan.nth}`);
    this.counted = 0;
    return new Promise((resolve) => {
      this.#armed = { plan, seen: 0, resolve };
    });
  }

  /** Counts writes from now on without faulting any (to learn how many a story makes). */
  count(counts: (write: CountedWrite) => boolean = countsByDefault): void {
    this.counted = 0;
    this.#armed = {
      plan: { nth: Number.POSITIVE_INFINITY, mode: "drop", counts },
      seen: 0,
      resolve: () => undefined,
    };
  }

  disarm(): void {
    this.#armed = undefined;
  }

  /** Ends every held answer by destroying its socket (as a client that died would). */
  release(): void {
    for (const res of this.#held) res.socket?.destroy();
    this.#held.clear();
  }

  /**
   * Called by the front for every request before it is handled: wraps `res.end` so that, once
   * the handler has applied the write and answers, the answer is dropped or held instead.
   * `log` records the call as the front would have on `finish` (which never comes then).
   */
  intercept(
    req: IncomingMessage,
    res: ServerResponse,
    meta: RequestMeta,
    log: (status: number) => void,
  ): void {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const armed = this.#armed;
      const write = meta.write;
      if (!armed || !write || !meta.operationId || meta.handledBy !== "stateful") {
        return end(...args);
      }
      const counted: CountedWrite = {
        operationId: meta.operationId,
        method: req.method ?? "GET",
        path: meta.originalUrl.split("?")[0] ?? meta.originalUrl,
        headers: req.headers,
      };
      if (!(armed.plan.counts ?? countsByDefault)(counted)) return end(...args);
      this.counted++;
      armed.seen++;
      if (armed.seen !== armed.plan.nth) return end(...args);
      this.#armed = undefined;
      const event: FaultEvent = {
        ...counted,
        n: armed.seen,
        mode: armed.plan.mode,
        status: res.statusCode,
        params: write.params,
        body: write.body,
      };
      log(res.statusCode);
      if (armed.plan.mode === "drop") {
        res.socket?.destroy();
      } else {
        this.#held.add(res);
        res.socket?.once("close", () => this.#held.delete(res));
      }
      armed.resolve(event);
      return res;
    }) as ServerResponse["end"];
  }
}
