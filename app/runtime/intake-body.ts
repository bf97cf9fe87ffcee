/**
 * The body of a webhook request, read within the intake guard's limits (intake-guard.ts): at
 * most the cap, within the deadline, its HMAC computed as it arrives; and the answer to a request
 * refused before its body has all arrived, closed so that the sender can still read it.
 */
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IntakeLimits } from "./intake-guard.js";

type Body =
  | { kind: "body"; chunks: Buffer[]; size: number; digest: Buffer }
  | { kind: "too_large" }
  | { kind: "timeout" }
  | { kind: "gone" };

/** Reads at most `maxBodyBytes`, within `bodyTimeoutMs`, hashing as it goes. */
export function readBody(
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
