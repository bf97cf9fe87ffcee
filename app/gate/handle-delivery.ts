import { GATE_CHECK_NAME } from "../../schemas/gate.js";
import type { StoredDelivery } from "../../schemas/store.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import { GitHubAdapter, type GitHubClient, RERUN_EVALUATOR } from "../github/adapter.js";
import type { Store } from "../store/store.js";
import type { EvaluatorDeps } from "./ask-evaluator.js";
import { evaluatePullRequest } from "./evaluate.js";
import { ConfigCache } from "./gather.js";
import { handleMergeGroupDelivery } from "./merge-group.js";

export interface GateDeps {
  store: Store;
  now: () => Date;
  /** An installation-authenticated client (Probot's `auth(installationId)`). */
  octokitFor(installationId: number): Promise<GitHubClient>;
  /** The App's own slug, so only its `agate` check runs count as the gate. */
  appSlug(): Promise<string>;
  configs?: ConfigCache;
  /** How to reach the evaluator; absent: a configured llm or command evaluator is unavailable. */
  evaluator?: EvaluatorDeps;
  log?: (line: string) => void;
}

interface DeliveryPayload {
  action?: string;
  installation?: { id: number };
  repository?: { full_name: string };
  pull_request?: { number: number };
  check_run?: {
    name: string;
    status?: string;
    app?: { slug?: string } | null;
    pull_requests?: { number: number }[];
  };
  check_suite?: { pull_requests?: { number: number }[] };
  workflow_run?: { pull_requests?: { number: number }[] };
  label?: { name: string };
  sender?: { login: string };
  requested_action?: { identifier?: string };
}

/** Which pull requests a delivery may have changed the gate of; the gate then reads them live. */
export function pullRequestsOf(event: string, payload: DeliveryPayload, appSlug: string): number[] {
  switch (event) {
    case "pull_request":
      if (payload.action === "closed" || !payload.pull_request) return [];
      // agate's own state labels changing is agate's doing; a person's edit is re-evaluated.
      if (
        (payload.action === "labeled" || payload.action === "unlabeled") &&
        payload.label?.name.startsWith("agate:") &&
        payload.sender?.login === `${appSlug}[bot]`
      ) {
        return [];
      }
      return [payload.pull_request.number];
    case "pull_request_review":
      return payload.pull_request ? [payload.pull_request.number] : [];
    case "check_run":
      // Our own `agate` check changing is our own doing: re-evaluating on it would loop. Only a
      // person asking (the "Re-run gate" button, or "Re-run" in the checks tab) is a reason.
      if (payload.check_run?.name === GATE_CHECK_NAME && payload.check_run.app?.slug === appSlug) {
        const asked = payload.action === "requested_action" || payload.action === "rerequested";
        if (!asked) return [];
      }
      // A check run created already completed is followed by its `completed` event: one look.
      if (payload.action === "created" && payload.check_run?.status === "completed") return [];
      return (payload.check_run?.pull_requests ?? []).map((p) => p.number);
    case "check_suite":
      return (payload.check_suite?.pull_requests ?? []).map((p) => p.number);
    case "workflow_run":
      return (payload.workflow_run?.pull_requests ?? []).map((p) => p.number);
    default:
      return [];
  }
}

/** The `gate.delivery` job: re-evaluate every pull request the delivery names. */
export async function handleGateDelivery(delivery: StoredDelivery, deps: GateDeps): Promise<void> {
  const payload = JSON.parse(delivery.payload) as DeliveryPayload;
  const installationId = payload.installation?.id;
  const repository = payload.repository?.full_name;
  if (!installationId || !repository) return;
  const slug = await deps.appSlug();
  // A merge group, or evidence on a merge-group head (no pull request): see merge-group.ts.
  if (await handleMergeGroupDelivery(delivery, deps, slug)) return;
  const numbers = [...new Set(pullRequestsOf(delivery.event, payload, slug))];
  if (numbers.length === 0) return;
  const octokit = await deps.octokitFor(installationId);
  const configs = deps.configs ?? new ConfigCache();
  for (const number of numbers) {
    const github = new GitHubAdapter(octokit, repository, slug);
    const result = await evaluatePullRequest({
      github,
      store: deps.store,
      configs,
      number,
      agateVersion: AGATE_VERSION,
      now: deps.now,
      ...(deps.evaluator ? { evaluator: deps.evaluator } : {}),
      rerunEvaluator:
        delivery.event === "check_run" &&
        payload.action === "requested_action" &&
        payload.requested_action?.identifier === RERUN_EVALUATOR,
    }).catch(async (error: unknown) => {
      await holdOnError(new GitHubAdapter(octokit, repository, slug), number, error);
      throw error;
    });
    deps.log?.(
      `${repository}#${number} after ${delivery.event}${payload.action ? `.${payload.action}` : ""}: ${result.skipped ?? result.decision?.title} (${result.calls} GitHub calls)`,
    );
  }
}

/**
 * An evaluation that failed must not leave an earlier green standing: the check on the live head
 * goes back to in progress with the reason, and the job is retried. Best effort: when GitHub
 * itself is what fails, this fails too, and the retry is what remains.
 */
async function holdOnError(github: GitHubAdapter, number: number, error: unknown): Promise<void> {
  try {
    const pr = await github.pullRequest(number);
    const existing = await github.agateCheckRun(pr.head_sha);
    const reason = error instanceof Error ? error.message : String(error);
    await github.writeAgateCheckRun(pr.head_sha, existing, {
      status: "in_progress",
      title: "agate could not finish evaluating this commit; it will retry",
      summary: `**Not decided.** The last evaluation failed, so no earlier decision stands until it succeeds:\n\n\`\`\`text\n${reason.slice(0, 2_000)}\n\`\`\`\n`,
      externalId: `agate:${pr.repository}#${pr.number}@${pr.head_sha}`,
    });
  } catch {
    // GitHub is what fails; the job's retry will try again.
  }
}
