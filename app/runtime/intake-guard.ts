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
 *
 * This file walks a request through the steps; admission.ts holds the memory budget (step 3),
 * intake-body.ts the bounded read (step 4) and the answer with its lingering close.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Admission, senderKey, type Ticket } from "./admission.js";
import { answer, readBody } from "./intake-body.js";
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
  const guard: Guard = {
    options,
    limits,
    admission: new Admission(limits),
    refusals: new RefusalLog(options.log, options.logEveryMs ?? 60_000),
    counts: { accepted: 0, abandoned: 0, bytesRead: 0 },
  };
  return {
    stats: () => ({
      ...guard.admission.stats(),
      accepted: guard.counts.accepted,
      bytesRead: guard.counts.bytesRead,
      refused: guard.refusals.counts(),
      abandoned: guard.counts.abandoned,
    }),
    handle(req, res, next) {
      if (req.method !== "POST" || webhookPathname(req.url) !== options.path) return false;
      const headers = checkHeaders(req, guard.limits);
      if ("refusal" in headers) refuse(guard, req, res, headers.refusal);
      else admit(guard, req, res, headers, next);
      return true;
    },
  };
}

/** One guard's settings, its memory budget and what it has counted. */
interface Guard {
  options: IntakeGuardOptions;
  limits: IntakeLimits;
  admission: Admission;
  refusals: RefusalLog;
  counts: { accepted: number; abandoned: number; bytesRead: number };
}

type Next = Parameters<IntakeGuard["handle"]>[2];

interface Refusal {
  reason: RefusalReason;
  status: number;
  error: string;
  headers?: Record<string, string>;
}

function refuse(guard: Guard, req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  guard.refusals.note(refusal.reason, refusal.status, {
    sender: req.socket.remoteAddress,
    delivery: headerText(req, "x-github-delivery"),
    event: headerText(req, "x-github-event"),
    content_length: req.headers["content-length"],
  });
  answer(
    req,
    res,
    refusal.status,
    { error: refusal.error },
    refusal.headers ?? {},
    guard.limits.lingerMs,
  );
}

/** Steps 1 and 2: the headers GitHub always sends, and a declared length within the cap. */
function checkHeaders(
  req: IncomingMessage,
  limits: IntakeLimits,
): { signature: string; declared: number | null } | { refusal: Refusal } {
  const contentType = req.headers["content-type"];
  if (typeof contentType !== "string" || !JSON_CONTENT_TYPE.test(contentType)) {
    return {
      refusal: {
        reason: "content_type",
        status: 415,
        error: 'Unsupported "Content-Type" header value. Must be "application/json"',
      },
    };
  }
  const missing = REQUIRED_HEADERS.filter((name) => req.headers[name] === undefined);
  if (missing.length > 0) {
    return {
      refusal: {
        reason: "headers_missing",
        status: 400,
        error: `Required headers missing: ${missing.join(", ")}`,
      },
    };
  }
  const signature = SIGNATURE.exec(headerText(req, "x-hub-signature-256") ?? "")?.[1];
  if (signature === undefined) {
    return {
      refusal: {
        reason: "signature_malformed",
        status: 400,
        error:
          "x-hub-signature-256 is not sha256=<64 hex digits>: the sender is not GitHub, or the " +
          "App's webhook has no secret set",
      },
    };
  }
  // Node's parser has checked that a content-length is one decimal number, and refuses it
  // beside transfer-encoding, so the body is exactly this long when it is given.
  const length = req.headers["content-length"];
  const declared = length === undefined ? null : Number(length);
  if (declared !== null && declared > limits.maxBodyBytes) {
    return { refusal: tooLarge(limits.maxBodyBytes) };
  }
  return { signature, declared };
}

/** Step 3: room in memory for the body, given back when the exchange is over, whatever happens. */
function admit(
  guard: Guard,
  req: IncomingMessage,
  res: ServerResponse,
  { signature, declared }: { signature: string; declared: number | null },
  next: Next,
): void {
  const { admission, limits } = guard;
  const reserve = declared ?? limits.maxBodyBytes;
  let released = false;
  let ticket: Ticket | null = null;
  const release = () => {
    if (released) return;
    released = true;
    if (ticket) admission.release(ticket);
  };
  res.once("close", release);

  void admission
    .acquire(senderKey(req.socket.remoteAddress), reserve, res)
    .then(async (granted) => {
      if (granted === "gone") {
        guard.counts.abandoned++;
        return;
      }
      if (granted === "sender_busy" || granted === "busy") {
        refuse(guard, req, res, {
          reason: granted,
          status: granted === "sender_busy" ? 429 : 503,
          error:
            granted === "sender_busy"
              ? "too many webhook bodies from this sender at once; try again shortly"
              : "too many webhook bodies at once; try again shortly",
          headers: { "retry-after": "1" },
        });
        return;
      }
      ticket = granted;
      if (released) {
        admission.release(ticket);
        return;
      }
      await receive(guard, req, res, signature, next);
    });
}

/** Steps 4 and 5: the body read within its limits, and handed on only when its signature matches. */
async function receive(
  guard: Guard,
  req: IncomingMessage,
  res: ServerResponse,
  signature: string,
  next: Next,
): Promise<void> {
  const { limits } = guard;
  const body = await readBody(req, guard.options.secret, limits, guard.counts);
  if (body.kind === "gone") {
    guard.counts.abandoned++;
    return;
  }
  if (body.kind === "too_large") {
    refuse(guard, req, res, tooLarge(limits.maxBodyBytes));
    return;
  }
  if (body.kind === "timeout") {
    refuse(guard, req, res, {
      reason: "body_timeout",
      status: 408,
      error: `the body did not arrive within ${limits.bodyTimeoutMs} ms`,
    });
    return;
  }
  if (!timingSafeEqual(body.digest, Buffer.from(signature, "hex"))) {
    refuse(guard, req, res, {
      reason: "signature_mismatch",
      status: 400,
      error:
        "signature does not match the body and the webhook secret: the sender does not " +
        "have this App's secret (if it is GitHub, check WEBHOOK_SECRET against the App's " +
        "settings)",
    });
    return;
  }
  guard.counts.accepted++;
  // Only a verified body is decoded, and handed on as it came: the intake stores it.
  next(
    req,
    res,
    (body.chunks.length === 1
      ? (body.chunks[0] as Buffer)
      : Buffer.concat(body.chunks, body.size)
    ).toString("utf8"),
  );
}

function tooLarge(max: number): Refusal {
  return {
    reason: "too_large",
    status: 413,
    error: `the body is larger than ${max} bytes, GitHub's cap on webhook payloads; it was not read`,
  };
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
