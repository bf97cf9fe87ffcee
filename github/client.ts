/**
 * The REST client every call of github/ takes, and the token client of the CLI. The App hands in
 * Probot's installation client (structurally an @octokit/rest client: the same `rest`, `paginate`
 * and `request`); the CLI makes one from a token. Never Probot here, never @actions/*: the CLI
 * runs outside Actions, and the Action's bundle must not carry the App.
 */
import { Octokit } from "@octokit/rest";

export type RestClient = Pick<Octokit, "rest" | "paginate" | "request">;

/**
 * Octokit's own log, silenced: by default it prints a line of its own to stderr for every failed
 * request ("GET /repos/o/r - 500 with id UNKNOWN in 34ms"), even one agate expects (a 404 for a
 * file that is not there) or explains in its own words. agate says what failed and what to do.
 */
export const SILENT_OCTOKIT_LOG = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** A client with a token (none: anonymous, enough for a public repository), Octokit's log silent. */
export function tokenClient(options: {
  token: string | undefined;
  baseUrl: string;
  userAgent: string;
}): Octokit {
  return new Octokit({
    ...(options.token ? { auth: options.token } : {}),
    baseUrl: options.baseUrl,
    userAgent: options.userAgent,
    log: SILENT_OCTOKIT_LOG,
  });
}
