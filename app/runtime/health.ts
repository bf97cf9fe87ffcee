/**
 * The App's probes: liveness (`GET /healthz`: the process and its store answer) and readiness
 * (`GET /readyz`: the store answers and GitHub accepts the App's credentials).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Probot } from "probot";
import { noAnswer, noAnswerText } from "../../checks/github-answers.js";
import { appForProbe } from "../../github/apps.js";
import type { Store } from "../store/store.js";

export const HEALTH_PATH = "/healthz";
export const READY_PATH = "/readyz";
/** How long a readiness answer is reused: probes come every few seconds, GitHub is asked less. */
const READY_CACHE_MS = 10_000;
const READY_GITHUB_TIMEOUT_MS = 5_000;

/**
 * Answers a probe; false for any other request. `kind` names the store's backend in the answers.
 */
export function probes(
  store: Store,
  kind: string,
  probot: Probot,
  now: () => Date,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const readiness = readinessCheck(store, kind, probot, now);
  return (req, res) => {
    if (req.method === "GET" && req.url === HEALTH_PATH) {
      void health(store, kind, res);
      return true;
    }
    if (req.method === "GET" && req.url === READY_PATH) {
      void readiness().then((ready) => {
        res.writeHead(ready.ok ? 200 : 503, { "content-type": "application/json" });
        res.end(JSON.stringify(ready));
      });
      return true;
    }
    return false;
  };
}

/**
 * Liveness: the process answers and its store answers (a worker that cannot reach its store is
 * stuck). It asks GitHub nothing, so a GitHub outage never restarts the App.
 */
async function health(
  store: Store,
  kind: string,
  res: ServerResponse<IncomingMessage>,
): Promise<void> {
  try {
    const queued = await store.countJobs({ status: "queued" });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, store: kind, queued }));
  } catch (error) {
    res.writeHead(503, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: false, store: kind, error: (error as Error).message }));
  }
}

export interface Readiness {
  ok: boolean;
  store: { ok: boolean; kind: string; error?: string };
  /** The App's own credentials against GitHub (`GET /app`): the key, the id and the host. */
  github: { ok: boolean; app?: string; error?: string };
  checked_at: string;
}

/**
 * Readiness: this App can do its work, so a load balancer may send it webhooks. The store answers,
 * and GitHub accepts the App's credentials. The answer is reused for a few seconds.
 */
function readinessCheck(
  store: Store,
  kind: string,
  probot: Probot,
  now: () => Date,
): () => Promise<Readiness> {
  let last: { at: number; answer: Promise<Readiness> } | undefined;
  const check = async (): Promise<Readiness> => {
    const [storeState, github] = await Promise.all([
      store.countJobs({ status: "queued" }).then(
        () => ({ ok: true, kind }),
        (error: Error) => ({ ok: false, kind, error: error.message }),
      ),
      probot
        .auth()
        .then((octokit) => appForProbe(octokit, READY_GITHUB_TIMEOUT_MS))
        .then(
          (data) => ({ ok: true, app: data.slug ?? String(data.id ?? "") }),
          (error: Error & { status?: number }) => {
            // No answer at all (DNS, a refused connection, a timeout) is not GitHub's HTTP 500.
            const unreached = noAnswer(error);
            return {
              ok: false,
              error: unreached
                ? `${noAnswerText(unreached)}; check GHE_HOST and GHE_PROTOCOL, and that this host can reach GitHub (DNS, a firewall or proxy on the way)`
                : error.status !== undefined && error.status >= 500
                  ? `GitHub answered HTTP ${error.status}: ${error.message}; it may be down (try again later), or GHE_HOST is not a GitHub`
                  : `GitHub refused the App's credentials${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}; check APP_ID, the private key, and GHE_HOST`,
            };
          },
        ),
    ]);
    return {
      ok: storeState.ok && github.ok,
      store: storeState,
      github,
      checked_at: now().toISOString(),
    };
  };
  return () => {
    const at = Date.now();
    if (!last || at - last.at >= READY_CACHE_MS) last = { at, answer: check() };
    return last.answer;
  };
}
