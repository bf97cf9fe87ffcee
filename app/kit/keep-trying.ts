/**
 * Runs `attempt` until it succeeds, waiting `firstDelayMs` after the first failure and twice as
 * long after each next one (at most `maxDelayMs`). For work that must happen once at start (the
 * first reconcile pass queued) while the database may not answer yet: a rejection left unhandled
 * would end the process. The timers never keep the process alive.
 */
export function keepTrying(
  attempt: () => Promise<void>,
  onFailure: (error: unknown, retryInMs: number) => void,
  options: { firstDelayMs: number; maxDelayMs: number },
): void {
  const run = (delayMs: number): void => {
    attempt().catch((error: unknown) => {
      onFailure(error, delayMs);
      setTimeout(() => run(Math.min(delayMs * 2, options.maxDelayMs)), delayMs).unref();
    });
  };
  run(options.firstDelayMs);
}
