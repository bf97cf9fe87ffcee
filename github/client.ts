/**
 * The REST client every call of github/ takes, and the token client of the CLI. The App hands in
 * Probot's installation client (structurally an @octokit/rest client: the same `rest`, `paginate`
 * and `request`); the CLI makes one from a token. Never Probot here, never @actions/*: the CLI
 * runs outside Actions, and the Action's bundle must not carry the App.
 */
import { Octokit } from "@octokit/rest";
import { AGATE_VERSION } from "../schemas/version.js";

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

/**
 * A client with a token (none: anonymous, enough for a public repository) for the CLI or the
 * Action, named in its user agent, with Octokit's log silent.
 */
export function tokenClient(
  token: string | undefined,
  baseUrl: string,
  program: "cli" | "action" = "cli",
): Octokit {
  return new Octokit({
    ...(token ? { auth: token } : {}),
    baseUrl,
    userAgent: `agate-${program}/${AGATE_VERSION}`,
    log: SILENT_OCTOKIT_LOG,
  });
}
