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
