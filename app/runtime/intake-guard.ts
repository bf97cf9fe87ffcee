/**
 * Bounded webhook intake: what a request to the webhook path must get past before the intake
 * (intake.ts) sees it. Probot's middleware, which used to take it, reads any body whole into
 * memory before it checks the signature, and logs a refused body whole (three times); an
 * unsigned 600 MB POST took the App from 62 MB to 1.27 GB. Here, in order, each step without
 * reading more than it must:
 *
 * 1. The headers GitHub always sends (content type, event, delivery id, a well-formed
 *    `x-hub-signature-256`): refused at once when missing, the body left unread.
 * 2. `content-length` over GitHub's 25 MB payload cap: 413 at once, the body left unread.
 * 3. Room in memory (see `Admission`): a body reserves its declared length (a body without
 *    `content-length`, which GitHub never sends, reserves the whole cap) from a budget shared by
 *    all senders, of which one sender may hold only part, and only so many bodies at once. A
 *    request without room waits a little (unread: it costs a socket, not memory), then is
 *    refused (429 for a sender over its share, 503 when all senders together are).
 * 4. The body is read with a streaming limit and a deadline (a chunked body that grows past the
 *    cap is cut: 413; one that trickles: 408), and its HMAC is computed as it arrives.
 * 5. A signature that does not match: 400, the body dropped, one short log line (never the
 *    body). Only a verified body is handed on, as a string, to the intake, which records it.
 *
 * A refusal before the body has all arrived answers at once, then reads and discards for a
 * moment so that the sender can read the answer (a socket closed with unread input is reset,
 * which can destroy the answer in flight), then closes the connection if the body is still
 * coming.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIPv6 } from "node:net";
import type { RuntimeLog } from "./worker.js";

const MiB = 1024 * 1024;

export interface IntakeLimits {
  /** GitHub caps webhook payloads at 25 MB and does not deliver larger ones. */
  maxBodyBytes: number;
  /** Bytes of bodies held at once, all senders together (reserved by declared length). */
  bufferBytes: number;
  /** Of those, what one sender (an IPv4 address, an IPv6 /64) may hold. */
  perSenderBytes: number;
  /** Bodies one sender may have in flight at once. */
  perSenderBodies: number;
  /** Requests waiting for room: per sender, and all together. Beyond them: refused at once. */
  perSenderWaiting: number;
  waiting: number;
  /** How long a request waits for room before it is refused. */
  waitMs: number;
  /** How long a body may take to arrive (GitHub gives up on a delivery after 10 s). */
  bodyTimeoutMs: number;
  /** After refusing a request whose body is still coming: read and discard this long, then close. */
  lingerMs: number;
}

export const DEFAULT_INTAKE_LIMITS: Readonly<IntakeLimits> = {
  maxBodyBytes: 25 * MiB,
  bufferBytes: 64 * MiB,
  perSenderBytes: 32 * MiB,
  perSenderBodies: 16,
  perSenderWaiting: 64,
  waiting: 512,
  waitMs: 5_000,
  bodyTimeoutMs: 10_000,
  lingerMs: 500,
};

const REFUSAL_REASONS = [
  "content_type",
  "headers_missing",
  "signature_malformed",
  "too_large",
  "sender_busy",
  "busy",
  "body_timeout",
  "signature_mismatch",
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface IntakeStats {
  /** Bodies being read or handled now, and the bytes they reserve. */
  inFlight: number;
  reservedBytes: number;
  waiting: number;
  /** Bodies handed to Probot, verified. */
  accepted: number;
  /** Body bytes the guard has read, all requests together (a body refused unread adds none). */
  bytesRead: number;
  refused: Record<RefusalReason, number>;
  /** Senders that went away before their body arrived. */
  abandoned: number;
}

export interface IntakeGuard {
  /** True when the request is a webhook delivery and the guard took it; false: not its business. */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    /** Gets the request once its body has arrived and matched its signature, and that body. */
    next: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  ): boolean;
  stats(): IntakeStats;
}

export interface IntakeGuardOptions {
  secret: string;
  /** Requests to this path (as Probot's webhook middleware matches it) are guarded. */
  path: string;
  limits?: Partial<IntakeLimits>;
  log: RuntimeLog;
  /** A summary of refusals at most this often (a flood must not become a log flood). */
  logEveryMs?: number;
}

/** Checks that the limits can hold one delivery of the largest size GitHub sends. */
export function intakeLimits(overrides: Partial<IntakeLimits> = {}): IntakeLimits {
  const limits = { ...DEFAULT_INTAKE_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new Error(`intake limit ${name} is ${value}: it must be a whole number, 0 or more`);
    }
  }
  if (limits.perSenderBytes < limits.maxBodyBytes || limits.bufferBytes < limits.perSenderBytes) {
    throw new Error(
      `intake limits cannot take a ${limits.maxBodyBytes}-byte delivery: keep ` +
        "maxBodyBytes <= perSenderBytes <= bufferBytes",
    );
  }
  return limits;
}

const JSON_CONTENT_TYPE = /^\s*(application\/json)\s*(?:;|$)/u;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const REQUIRED_HEADERS = ["x-github-event", "x-hub-signature-256", "x-github-delivery"] as const;

export function createIntakeGuard(options: IntakeGuardOptions): IntakeGuard {
  const limits = intakeLimits(options.limits);
  const admission = new Admission(limits);
  const refusals = new RefusalLog(options.log, options.logEveryMs ?? 60_000);
  let accepted = 0;
  let abandoned = 0;
  const counter = { bytesRead: 0 };

  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    reason: RefusalReason,
    status: number,
    error: string,
    extra: Record<string, string> = {},
  ): void {
    refusals.note(reason, status, {
      sender: req.socket.remoteAddress,
      delivery: headerText(req, "x-github-delivery"),
      event: headerText(req, "x-github-event"),
      content_length: req.headers["content-length"],
    });
    answer(req, res, status, { error }, extra, limits.lingerMs);
  }

  return {
    stats: () => ({
      ...admission.stats(),
      accepted,
      bytesRead: counter.bytesRead,
      refused: refusals.counts(),
      abandoned,
    }),

    handle(req, res, next) {
      if (req.method !== "POST" || webhookPathname(req.url) !== options.path) return false;

      const contentType = req.headers["content-type"];
      if (typeof contentType !== "string" || !JSON_CONTENT_TYPE.test(contentType)) {
        refuse(
          req,
          res,
          "content_type",
          415,
          'Unsupported "Content-Type" header value. Must be "application/json"',
        );
        return true;
      }
      const missing = REQUIRED_HEADERS.filter((name) => req.headers[name] === undefined);
      if (missing.length > 0) {
        refuse(req, res, "headers_missing", 400, `Required headers missing: ${missing.join(", ")}`);
        return true;
      }
      const signature = SIGNATURE.exec(headerText(req, "x-hub-signature-256") ?? "")?.[1];
      if (signature === undefined) {
        refuse(
          req,
          res,
          "signature_malformed",
          400,
          "x-hub-signature-256 is not sha256=<64 hex digits>: the sender is not GitHub, or the " +
            "App's webhook has no secret set",
        );
        return true;
      }
      // Node's parser has checked that a content-length is one decimal number, and refuses it
      // beside transfer-encoding, so the body is exactly this long when it is given.
      const length = req.headers["content-length"];
      const declared = length === undefined ? null : Number(length);
      if (declared !== null && declared > limits.maxBodyBytes) {
        refuse(req, res, "too_large", 413, tooLarge(limits.maxBodyBytes));
        return true;
      }

      const sender = senderKey(req.socket.remoteAddress);
      const reserve = declared ?? limits.maxBodyBytes;
      let released = false;
      let ticket: Ticket | null = null;
      const release = () => {
        if (released) return;
        released = true;
        if (ticket) admission.release(ticket);
      };
      // Whatever happens next, the room is given back when the exchange is over.
      res.once("close", release);

      void admission.acquire(sender, reserve, res).then(async (granted) => {
        if (granted === "gone") {
          abandoned++;
          return;
        }
        if (granted === "sender_busy" || granted === "busy") {
          refuse(
            req,
            res,
            granted,
            granted === "sender_busy" ? 429 : 503,
            granted === "sender_busy"
              ? "too many webhook bodies from this sender at once; try again shortly"
              : "too many webhook bodies at once; try again shortly",
            { "retry-after": "1" },
          );
          return;
        }
        ticket = granted;
        if (released) {
          admission.release(ticket);
          return;
        }
        const body = await readBody(req, options.secret, limits, counter);
        if (body.kind === "gone") {
          abandoned++;
          return;
        }
        if (body.kind === "too_large") {
          refuse(req, res, "too_large", 413, tooLarge(limits.maxBodyBytes));
          return;
        }
        if (body.kind === "timeout") {
          refuse(
            req,
            res,
            "body_timeout",
            408,
            `the body did not arrive within ${limits.bodyTimeoutMs} ms`,
          );
          return;
        }
        if (!timingSafeEqual(body.digest, Buffer.from(signature, "hex"))) {
          refuse(
            req,
            res,
            "signature_mismatch",
            400,
            "signature does not match the body and the webhook secret: the sender does not " +
              "have this App's secret (if it is GitHub, check WEBHOOK_SECRET against the App's " +
              "settings)",
          );
          return;
        }
        accepted++;
        // Only a verified body is decoded, and handed on as it came: the intake stores it.
        next(
          req,
          res,
          (body.chunks.length === 1
            ? (body.chunks[0] as Buffer)
            : Buffer.concat(body.chunks, body.size)
          ).toString("utf8"),
        );
      });
      return true;
    },
  };
}

function tooLarge(max: number): string {
  return `the body is larger than ${max} bytes, GitHub's cap on webhook payloads; it was not read`;
}

function headerText(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * The path as @octokit/webhooks' middleware (Probot's) matches it: trailing slashes of the whole
 * URL removed, then the URL's pathname. The guard must take exactly the requests that Probot
 * would read, or a spelling of the path could reach Probot unguarded.
 */
export function webhookPathname(url: string | undefined): string | null {
  let end = (url ?? "").length;
  while (end > 0 && url?.charCodeAt(end - 1) === 47) end--;
  const trimmed = end === 0 ? "/" : (url ?? "").slice(0, end);
  try {
    return new URL(trimmed, "http://localhost").pathname;
  } catch {
    return null;
  }
}

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

type Body =
  | { kind: "body"; chunks: Buffer[]; size: number; digest: Buffer }
  | { kind: "too_large" }
  | { kind: "timeout" }
  | { kind: "gone" };

/** Reads at most `maxBodyBytes`, within `bodyTimeoutMs`, hashing as it goes. */
function readBody(
  req: IncomingMessage,
  secret: string,
  limits: IntakeLimits,
  counter: { bytesRead: number },
): Promise<Body> {
  return new Promise((resolve) => {
    const hmac = createHmac("sha256", secret);
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: Body | (() => Body)) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onClose);
      resolve(typeof outcome === "function" ? outcome() : outcome);
      chunks = [];
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      counter.bytesRead += chunk.length;
      if (size > limits.maxBodyBytes) {
        // Left flowing without a listener: the rest is discarded until the connection closes.
        settle({ kind: "too_large" });
        return;
      }
      hmac.update(chunk);
      chunks.push(chunk);
    };
    const onEnd = () => settle(() => ({ kind: "body", chunks, size, digest: hmac.digest() }));
    const onClose = () => settle({ kind: "gone" });
    const timer = setTimeout(() => settle({ kind: "timeout" }), limits.bodyTimeoutMs);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    req.on("error", onClose);
  });
}

/**
 * Answers `status` with a JSON body. When the request's body has not all arrived, the answer
 * says `connection: close`, and the connection is closed the way servers do it safely (a
 * "lingering close"): the answer, then our FIN, then whatever still comes is read and discarded
 * for `lingerMs`, then the socket is destroyed. Closing at once, with unread input, resets the
 * connection, and a reset can destroy the answer before the sender has read it (seen as EPIPE
 * instead of 413 by a sender still writing).
 */
export function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  lingerMs: number,
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  const incomplete = !req.complete;
  if (incomplete) lingerOnClose(req, lingerMs);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...(incomplete ? { connection: "close" } : {}),
    ...headers,
  });
  res.end(text);
}

function lingerOnClose(req: IncomingMessage, lingerMs: number): void {
  const socket = req.socket;
  // Flowing without a listener: the rest of the body is read and dropped, never kept.
  req.resume();
  let timer: NodeJS.Timeout | undefined;
  const lingerThenDestroy = () => {
    if (timer) return;
    timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
  // Node ends a `connection: close` exchange with socket.destroySoon(): FIN, then destroy as
  // soon as the answer is written. Here the destroy waits. (Should Node stop calling it, the
  // close is immediate again, and the timer below still bounds the connection.)
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    lingerThenDestroy();
  };
  // Whatever Node does, a body still coming after the lingering time is cut off.
  setTimeout(() => {
    if (!req.complete) socket.destroy();
  }, lingerMs).unref();
}

// ---- admission -------------------------------------------------------------------------------

interface Ticket {
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

// ---- logging refusals ------------------------------------------------------------------------

/** The first refusal is logged; after it, counts at most every `everyMs` (a flood is not a log flood). */
class RefusalLog {
  readonly #log: RuntimeLog;
  readonly #everyMs: number;
  readonly #total = Object.fromEntries(
    REFUSAL_REASONS.map((r) => [r, 0]),
  ) as IntakeStats["refused"];
  #sinceLine = 0;
  #lastLine = Number.NEGATIVE_INFINITY;

  constructor(log: RuntimeLog, everyMs: number) {
    this.#log = log;
    this.#everyMs = everyMs;
  }

  counts(): Record<RefusalReason, number> {
    return { ...this.#total };
  }

  note(reason: RefusalReason, status: number, fields: Record<string, unknown>): void {
    this.#total[reason]++;
    this.#sinceLine++;
    const now = Date.now();
    if (now - this.#lastLine < this.#everyMs) return;
    const count = this.#sinceLine;
    this.#sinceLine = 0;
    this.#lastLine = now;
    this.#log.warn(
      { ...fields, reason, status, refused: count, totals: this.counts() },
      `webhook request refused (${status} ${reason})` +
        (count > 1 ? `, with ${count - 1} more refusals since the last such line` : "") +
        `; these lines come at most every ${Math.round(this.#everyMs / 1000)} s. Nothing to do ` +
        "unless deliveries from GitHub are among them (the App's Advanced tab lists failed " +
        "deliveries); then check WEBHOOK_SECRET, or what sits in front of agate",
    );
  }
}
