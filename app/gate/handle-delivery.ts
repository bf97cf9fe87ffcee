import { codeSpan, fenced } from "../../checks/markdown.js";
import { GATE_CHECK_NAME } from "../../schemas/gate.js";
import { type EvidenceEvent, evaluateJobSchema, evidenceEventMatters } from "../../schemas/jobs.js";
import type { StoredDelivery } from "../../schemas/store.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import { GitHubAdapter, type GitHubClient, RERUN_EVALUATOR } from "../github/adapter.js";
import type { Store } from "../store/store.js";
import type { EvaluatorDeps } from "./ask-evaluator.js";
import { type EvaluationResult, evaluatePullRequest } from "./evaluate.js";
import { EvidenceCache } from "./evidence.js";
import { ConfigCache } from "./gather.js";
import { handleMergeGroupDelivery } from "./merge-group.js";
import { handleOverrideComment } from "./override.js";
import { EVALUATE } from "./reconcile.js";

export interface GateDeps {
  store: Store;
  now: () => Date;
  /** An installation-authenticated client (Probot's `auth(installationId)`). */
  octokitFor(installationId: number): Promise<GitHubClient>;
  /** The App's own slug, so only its `agate` check runs count as the gate. */
  appSlug(): Promise<string>;
  configs?: ConfigCache;
  evidence?: EvidenceCache;
  /** How to reach the evaluator; absent: a configured llm or command evaluator is unavailable. */
  evaluator?: EvaluatorDeps;
  log?: (line: string) => void;
}

interface DeliveryPayload {
  action?: string;
  installation?: { id: number };
  repository?: { full_name: string };
  pull_request?: { number: number; head?: { sha: string }; base?: { ref: string; sha: string } };
  changes?: { base?: { ref?: { from: string }; sha?: { from: string } } };
  check_run?: {
    name: string;
    head_sha?: string;
    status?: string;
    app?: { slug?: string } | null;
    pull_requests?: { number: number }[];
  };
  workflow_run?: { head_sha?: string; path?: string; pull_requests?: { number: number }[] };
  workflow_job?: { head_sha?: string; name?: string };
  issue?: { number: number; pull_request?: unknown };
  comment?: { body?: string };
  label?: { name: string };
  sender?: { login: string };
  requested_action?: { identifier?: string };
}

/**
 * Which pull requests a delivery may have changed the gate of; the gate then reads them live.
 * Workflow events name only a commit (a fork's pull request is not in their list), so they are
 * followed by head SHA; `relevant` says from the base config whether the event could matter.
 */
export interface GateTargets {
  numbers: number[];
  /** Also every open pull request whose head is this commit. */
  headSha: string | null;
  /** Evaluate only when the base config makes this event evidence; null: always. */
  relevant: EvidenceEvent | null;
  /** The base changed: the head's check goes back in progress before anything is read. */
  retarget: { from: string; to: string } | null;
}

const none: GateTargets = { numbers: [], headSha: null, relevant: null, retarget: null };

export function gateTargetsOf(
  event: string,
  payload: DeliveryPayload,
  appSlug: string,
): GateTargets {
  const numbers = (list: { number: number }[] | undefined) => (list ?? []).map((p) => p.number);
  switch (event) {
    case "pull_request": {
      if (payload.action === "closed" || !payload.pull_request) return none;
      // agate's own state labels changing is agate's doing; a person's edit is re-evaluated.
      if (
        (payload.action === "labeled" || payload.action === "unlabeled") &&
        payload.label?.name.startsWith("agate:") &&
        payload.sender?.login === `${appSlug}[bot]`
      ) {
        return none;
      }
      const from = payload.changes?.base?.ref?.from;
      const to = payload.pull_request.base?.ref;
      const retarget =
        payload.action === "edited" && from !== undefined && to !== undefined ? { from, to } : null;
      return { ...none, numbers: [payload.pull_request.number], retarget };
    }
    case "pull_request_review":
      return payload.pull_request ? { ...none, numbers: [payload.pull_request.number] } : none;
    case "check_run": {
      // Only our own `agate` check is a reason, and only when a person asks (the "Re-run gate"
      // button, or "Re-run" in the checks tab); its own changes are our doing and would loop.
      const run = payload.check_run;
      if (run?.name !== GATE_CHECK_NAME || run.app?.slug !== appSlug) return none;
      if (payload.action !== "requested_action" && payload.action !== "rerequested") return none;
      return { ...none, numbers: numbers(run.pull_requests), headSha: run.head_sha ?? null };
    }
    case "workflow_run": {
      const run = payload.workflow_run;
      if (payload.action !== "completed" || !run?.head_sha) return none;
      const path = run.path;
      return {
        ...none,
        numbers: numbers(run.pull_requests),
        headSha: run.head_sha,
        relevant: { workflow: path ?? null, job: null },
      };
    }
    case "workflow_job": {
      const job = payload.workflow_job;
      if (payload.action !== "completed" || !job?.head_sha) return none;
      return {
        ...none,
        headSha: job.head_sha,
        relevant: { workflow: null, job: job.name ?? null },
      };
    }
    default:
      return none;
  }
}

/**
 * One evaluation of one pull request with the job's dependencies; an error first puts the head's
 * check back in progress (no earlier decision stands on a failed evaluation), then propagates
 * so the job retries.
 */
async function evaluateOne(
  deps: GateDeps,
  target: { octokit: GitHubClient; repository: string; slug: string; number: number },
  options: { relevant?: EvidenceEvent | null; rerunEvaluator?: boolean } = {},
): Promise<EvaluationResult> {
  const { octokit, repository, slug, number } = target;
  return evaluatePullRequest({
    github: new GitHubAdapter(octokit, repository, slug),
    store: deps.store,
    configs: deps.configs ?? new ConfigCache(),
    evidence: deps.evidence ?? new EvidenceCache(),
    number,
    agateVersion: AGATE_VERSION,
    now: deps.now,
    ...(deps.evaluator ? { evaluator: deps.evaluator } : {}),
    ...(options.relevant ? { relevant: evidenceEventMatters(options.relevant) } : {}),
    rerunEvaluator: options.rerunEvaluator ?? false,
  }).catch(async (error: unknown) => {
    await holdOnError(new GitHubAdapter(octokit, repository, slug), number, error);
    throw error;
  });
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
  const octokit = await deps.octokitFor(installationId);
  // One cache for the whole job, whatever path evaluates.
  const shared: GateDeps = {
    ...deps,
    configs: deps.configs ?? new ConfigCache(),
    evidence: deps.evidence ?? new EvidenceCache(),
  };
  if (delivery.event === "issue_comment") {
    await handleOverrideComment(payload, {
      github: new GitHubAdapter(octokit, repository, slug),
      store: deps.store,
      now: deps.now,
      evaluate: (number) => evaluateOne(shared, { octokit, repository, slug, number }),
      log: deps.log,
    });
    return;
  }
  const targets = gateTargetsOf(delivery.event, payload, slug);
  if (targets.headSha && targets.numbers.length === 0) {
    // Known only by its head, the pull request is evaluated in a job of its own key, so it runs
    // in order with the pull request's other jobs instead of beside them.
    const lookup = new GitHubAdapter(octokit, repository, slug);
    for (const number of await lookup.openPullRequestsWithHead(targets.headSha)) {
      await deps.store.enqueue({
        kind: EVALUATE,
        payload: evaluateJobSchema.parse({
          repository,
          number,
          installation: installationId,
          only_if: targets.relevant,
        }),
        concurrency_key: `${repository}#${number}`,
      });
    }
    return;
  }
  for (const number of targets.numbers) {
    const github = new GitHubAdapter(octokit, repository, slug);
    if (targets.retarget && payload.pull_request?.head?.sha) {
      await holdForRetarget(
        github,
        repository,
        number,
        payload.pull_request.head.sha,
        targets.retarget,
      );
    }
    const result = await evaluateOne(
      shared,
      { octokit, repository, slug, number },
      {
        relevant: targets.relevant,
        rerunEvaluator:
          delivery.event === "check_run" &&
          payload.action === "requested_action" &&
          payload.requested_action?.identifier === RERUN_EVALUATOR,
      },
    );
    deps.log?.(
      `${repository}#${number} after ${delivery.event}${payload.action ? `.${payload.action}` : ""}: ${result.skipped ?? result.decision?.title} (${result.calls} GitHub calls)`,
    );
  }
}

/**
 * The `gate.evaluate` job: one pull request, read live (the reconcile pass, or a workflow event
 * that named only its head), evaluated only when the event is evidence under its base config.
 */
export async function handleEvaluateJob(
  payload: unknown,
  deps: GateDeps,
): Promise<EvaluationResult> {
  const { repository, number, installation, only_if } = evaluateJobSchema.parse(payload);
  const octokit = await deps.octokitFor(installation);
  const slug = await deps.appSlug();
  return evaluateOne(deps, { octokit, repository, slug, number }, { relevant: only_if });
}

/**
 * A retarget must not leave the old base's decision standing while the new base is read: the
 * check on the head goes back in progress first, saying why.
 */
async function holdForRetarget(
  github: GitHubAdapter,
  repository: string,
  number: number,
  headSha: string,
  retarget: { from: string; to: string },
): Promise<void> {
  const existing = await github.agateCheckRun(headSha);
  await github.writeAgateCheckRun(headSha, existing, {
    status: "in_progress",
    title: `The base changed from ${retarget.from} to ${retarget.to}: re-evaluating against the new base`,
    summary: `**Not decided.** The pull request now targets ${codeSpan(retarget.to, 120)}, not ${codeSpan(retarget.from, 120)}; no decision made against the old base stands. agate is reading the new base's config.\n`,
    externalId: `agate:${repository}#${number}@${headSha}`,
  });
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
      summary: `**Not decided.** The last evaluation failed, so no earlier decision stands until it succeeds:\n\n${fenced(reason.slice(0, 2_000))}\n`,
      externalId: `agate:${pr.repository}#${pr.number}@${pr.head_sha}`,
    });
  } catch {
    // GitHub is what fails; the job's retry will try again.
  }
}
