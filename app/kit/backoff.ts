/**
 * How long a failed job waits before its next attempt: exponential, capped, with jitter.
 *
 * Attempt n (1 for the first failure) waits between half and all of min(maxMs, baseMs · 2^(n-1)):
 * with the defaults 1–2 s, 2–4 s, 4–8 s, … up to 2.5–5 min. The jitter spreads the retries of
 * jobs that failed together (GitHub down for a minute) so they do not come back in one burst; the
 * lower half bound keeps a retry from coming back at once.
 */
export type Backoff = (attempt: number) => number;

export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
  /** A number in [0, 1); tests pin it. */
  random?: () => number;
}

export const DEFAULT_BACKOFF_BASE_MS = 2_000;
export const DEFAULT_BACKOFF_MAX_MS = 5 * 60_000;

export function exponentialBackoff(options: BackoffOptions = {}): Backoff {
  const baseMs = options.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const maxMs = options.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const random = options.random ?? Math.random;
  return (attempt) => {
    const exponent = Math.max(0, Math.floor(attempt) - 1);
    // 2^exponent overflows to Infinity for huge attempts, which min() caps.
    const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  };
}
