/**
 * One JSON POST to an evaluator endpoint, with the transport retries a retry can fix, shared by
 * the OpenAI-compatible and the Anthropic wires. It never follows a redirect: the key and the
 * whole prompt would go wherever the endpoint points.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Backoff } from "../kit/backoff.js";

export type HttpFailure =
  | { ok: false; kind: "status"; status: number; json: unknown; attempts: number; detail: string }
  | { ok: false; kind: "not-json"; status: number; json: unknown; attempts: number; detail: string }
  /** A 3xx: never followed, since the key and the prompt would go wherever it points. */
  | { ok: false; kind: "redirect"; status: number; json: null; attempts: number; detail: string }
  | {
      ok: false;
      kind: "timeout" | "connection" | "aborted";
      status: null;
      json: null;
      attempts: number;
      detail: string;
    };

type HttpResult = { ok: true; json: unknown } | HttpFailure;

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  maxRetries: number;
  backoff: Backoff;
  maxRetryAfterMs: number;
  /** Counts every request made, retries included. */
  meter: { requests: number };
  signal: AbortSignal | undefined;
}

/** Statuses worth asking again: rate limits, request and lock timeouts, server errors. */
function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * POSTs JSON and reads the JSON answer, retrying what a retry can fix (429, 408, 409, 5xx,
 * dropped connections, timeouts) up to `maxRetries` times. A retry-after is honoured when it is
 * at most `maxRetryAfterMs`; a longer one ends the attempts at once, since holding a worker for
 * an hour helps nobody. Counts every request it makes in the meter.
 */
export async function postJson(options: PostOptions): Promise<HttpResult> {
  const text = JSON.stringify(options.body);
  for (let attempt = 1; ; attempt += 1) {
    if (options.signal?.aborted) return transportFailure("aborted", attempt - 1, "");
    options.meter.requests += 1;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let failure: HttpFailure;
    let wait: number | null = null;
    try {
      const response = await fetch(options.url, {
        method: "POST",
        headers: options.headers,
        body: text,
        signal,
        // Never follow: fetch drops `authorization` on a cross-origin redirect, but forwards
        // `x-api-key` and `api-key`, and the whole prompt, to wherever the endpoint points.
        redirect: "manual",
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        return {
          ok: false,
          kind: "redirect",
          status: response.status,
          json: null,
          attempts: attempt,
          detail: redirectTarget(options.url, response.headers.get("location")),
        };
      }
      const raw = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        if (response.ok || !retryable(response.status) || attempt > options.maxRetries) {
          return {
            ok: false,
            kind: response.ok ? "not-json" : "status",
            status: response.status,
            json: null,
            attempts: attempt,
            detail: response.ok ? oneLine(raw.slice(0, 200)) || "(empty)" : "",
          };
        }
        json = null;
      }
      if (response.ok) return { ok: true, json };
      failure = {
        ok: false,
        kind: "status",
        status: response.status,
        json,
        attempts: attempt,
        detail: "",
      };
      if (!retryable(response.status)) return failure;
      const asked = retryAfterMs(response.headers);
      if (asked !== null && asked > options.maxRetryAfterMs) {
        return {
          ...failure,
          detail: `the endpoint asked to wait ${Math.ceil(asked / 1000)} s before retrying, longer than the ${Math.round(options.maxRetryAfterMs / 1000)} s agate waits`,
        };
      }
      wait = asked;
    } catch (error) {
      if (options.signal?.aborted) return transportFailure("aborted", attempt, "");
      failure = timeout.aborted
        ? transportFailure("timeout", attempt, "")
        : transportFailure("connection", attempt, connectionDetail(error));
    }
    if (attempt > options.maxRetries) return failure;
    try {
      await sleep(wait ?? options.backoff(attempt), undefined, { signal: options.signal });
    } catch {
      return transportFailure("aborted", attempt, "");
    }
  }
}

/** Where a redirect points, as an origin and path only (no query, no credentials). */
function redirectTarget(from: string, location: string | null): string {
  if (location === null) return "(no location)";
  try {
    return redactUrl(new URL(location, from).toString());
  } catch {
    return "(an invalid location)";
  }
}

function transportFailure(
  kind: "timeout" | "connection" | "aborted",
  attempts: number,
  detail: string,
): HttpFailure {
  return { ok: false, kind, status: null, json: null, attempts, detail };
}

/** retry-after-ms (milliseconds), or retry-after in seconds or as an HTTP date. */
function retryAfterMs(headers: Headers): number | null {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function connectionDetail(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === "string") return cause.code;
  if (cause && typeof cause.message === "string") return oneLine(cause.message);
  return error instanceof Error ? oneLine(error.message) : String(error);
}

/** Error messages name the endpoint, never credentials someone put into its URL. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(invalid URL)";
  }
}

/** A provider's message on one line, at most 300 characters. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}
