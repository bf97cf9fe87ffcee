/**
 * What an answer of GitHub's REST API means beyond its status: a rate limit rather than a word
 * about access, a file the contents API left out, or no answer at all. Pure, for the App and the
 * Action's and the CLI's clients alike.
 */

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

/**
 * Whether the contents API left a file's content out: over 1 MB it answers `"encoding": "none"`
 * with an empty `content` (GitHub's REST documentation), which must never read as an empty file.
 */
export function tooLargeForContents(file: {
  encoding?: string;
  content: string;
  size: number;
}): boolean {
  return file.encoding === "none" || (file.content === "" && file.size > 0);
}

/**
 * A request to GitHub that got no HTTP answer at all: a name that does not resolve, a refused
 * connection, a timeout. Octokit reports one as status 500 with no response, which reads as
 * GitHub's own error; a real 500 comes with its response. Null when the server answered.
 */
export function noAnswer(error: unknown): { host: string | null; reason: string } | null {
  const { name, status, response, message, request } = (error ?? {}) as {
    name?: string;
    status?: number;
    response?: unknown;
    message?: string;
    request?: { url?: string };
  };
  if (status !== 500 || response !== undefined) return null;
  // Octokit's RequestError for a fetch that failed, or the AbortError it passes on as it is.
  if (name !== "HttpError" && name !== "AbortError") return null;
  return { host: hostOf(request?.url), reason: message || "no answer" };
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** "cannot reach api.github.com: getaddrinfo ENOTFOUND api.github.com", for a failure without an answer. */
export function noAnswerText(failure: { host: string | null; reason: string }): string {
  return `cannot reach ${failure.host ?? "GitHub"}: ${failure.reason}`;
}
