/**
 * Room in memory for webhook bodies (step 3 of the intake guard, intake-guard.ts): a budget
 * shared by all senders, of which one sender may hold only part.
 */

import type { ServerResponse } from "node:http";
import { isIPv6 } from "node:net";
import type { IntakeLimits } from "./intake-guard.js";

/**
 * Who a request counts against: the peer's address, an IPv6 one by its /64 (one host commonly
 * holds a whole /64). Behind a reverse proxy every request has the proxy's address: put the
 * proxy's own limits in front, or every sender shares one share.
 */
export function senderKey(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped;
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.split("%")[0]?.split("::") ?? [];
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

export interface Ticket {
  sender: string;
  bytes: number;
}

interface Waiter extends Ticket {
  resolve: (granted: Ticket | "timeout" | "gone") => void;
}

interface SenderUse {
  bytes: number;
  bodies: number;
  waiting: number;
}

/**
 * The memory budget for bodies. A request is admitted when its reservation fits both the
 * sender's share and the whole budget; otherwise it waits (first fit, so small deliveries get
 * past a large one that does not fit yet) for at most `waitMs`. One sender can hold at most
 * `perSenderBytes` and `perSenderBodies`, so one source cannot take all the room: deliveries
 * from any other address (GitHub's) still find some.
 */
export class Admission {
  readonly #limits: IntakeLimits;
  #bytes = 0;
  #bodies = 0;
  readonly #senders = new Map<string, SenderUse>();
  readonly #queue: Waiter[] = [];

  constructor(limits: IntakeLimits) {
    this.#limits = limits;
  }

  stats(): { inFlight: number; reservedBytes: number; waiting: number } {
    return { inFlight: this.#bodies, reservedBytes: this.#bytes, waiting: this.#queue.length };
  }

  /**
   * A ticket to release later; "sender_busy" or "busy" when it cannot wait; "gone" when the
   * response closed (the sender went away) while waiting.
   */
  acquire(
    sender: string,
    bytes: number,
    res: ServerResponse,
  ): Promise<Ticket | "sender_busy" | "busy" | "gone"> {
    const use = this.#use(sender);
    if (this.#fits(use, bytes)) return Promise.resolve(this.#take(use, sender, bytes));
    if (
      use.waiting >= this.#limits.perSenderWaiting ||
      this.#queue.length >= this.#limits.waiting
    ) {
      const refusal = this.#refusal(use, bytes);
      this.#forget(sender, use);
      return Promise.resolve(refusal);
    }
    return new Promise((resolve) => {
      use.waiting++;
      const finish = (granted: Ticket | "timeout" | "gone") => {
        clearTimeout(timer);
        res.off("close", onClose);
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        use.waiting--;
        const outcome = granted === "timeout" ? this.#refusal(use, bytes) : granted;
        if (typeof outcome === "string") this.#forget(sender, use);
        resolve(outcome);
      };
      const waiter: Waiter = { sender, bytes, resolve: finish };
      const timer = setTimeout(() => finish("timeout"), this.#limits.waitMs);
      const onClose = () => finish("gone");
      res.once("close", onClose);
      this.#queue.push(waiter);
    });
  }

  /** 429 when the sender's own share is what is full, 503 when all senders' budget is. */
  #refusal(use: SenderUse, bytes: number): "sender_busy" | "busy" {
    return use.bodies >= this.#limits.perSenderBodies ||
      use.bytes + bytes > this.#limits.perSenderBytes
      ? "sender_busy"
      : "busy";
  }

  release(ticket: Ticket): void {
    const use = this.#senders.get(ticket.sender);
    if (!use) return;
    use.bytes -= ticket.bytes;
    use.bodies--;
    this.#bytes -= ticket.bytes;
    this.#bodies--;
    this.#forget(ticket.sender, use);
    for (const waiter of [...this.#queue]) {
      const waiting = this.#senders.get(waiter.sender);
      if (waiting && this.#fits(waiting, waiter.bytes)) {
        waiter.resolve(this.#take(waiting, waiter.sender, waiter.bytes));
      }
    }
  }

  #use(sender: string): SenderUse {
    let use = this.#senders.get(sender);
    if (!use) {
      use = { bytes: 0, bodies: 0, waiting: 0 };
      this.#senders.set(sender, use);
    }
    return use;
  }

  #forget(sender: string, use: SenderUse): void {
    if (use.bytes === 0 && use.bodies === 0 && use.waiting === 0) this.#senders.delete(sender);
  }

  #fits(use: SenderUse, bytes: number): boolean {
    return (
      use.bodies < this.#limits.perSenderBodies &&
      use.bytes + bytes <= this.#limits.perSenderBytes &&
      this.#bytes + bytes <= this.#limits.bufferBytes
    );
  }

  #take(use: SenderUse, sender: string, bytes: number): Ticket {
    use.bytes += bytes;
    use.bodies++;
    this.#bytes += bytes;
    this.#bodies++;
    return { sender, bytes };
  }
}
