/**
 * Whether an HTTP error from GitHub's REST API is a rate limit rather than an answer about access:
 * 429, or 403 with `retry-after`, no requests left, or a message that says so (a secondary limit
 * may come with neither header), as GitHub's REST documentation describes its primary and
 * secondary limits. A rate limit says nothing about the resource: read again later.
 */
export function isRateLimited(error: unknown): boolean {
  const { status, response, message } = (error ?? {}) as {
    status?: number;
    message?: string;
    response?: { headers?: Record<string, string | number | undefined> };
  };
  if (status === 429) return true;
  if (status !== 403) return false;
  const headers = response?.headers ?? {};
  return (
    headers["retry-after"] !== undefined ||
    String(headers["x-ratelimit-remaining"]) === "0" ||
    /\b(secondary rate limit|rate limit exceeded)\b/i.test(message ?? "")
  );
}
