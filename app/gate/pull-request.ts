/**
 * One pull request's gate pass, the `gate.pull_request` job: gather (app/gate/gather.ts) →
 * decide and plan (pure, checks/gate/decide.ts and plan.ts) → apply (app/gate/apply.ts).
 * Whatever event caused it, the decision is about the live head: a late or out-of-order event
 * only causes a fresh look, never changes the check of a commit that is no longer the head.
 */
import { decideGate } from "../../checks/gate/decide.js";
import { planGatePass } from "../../checks/gate/plan.js";
import { codeSpan, fenced } from "../../checks/markdown.js";
import type { EvidenceRunFact, GateDecision } from "../../schemas/gate.js";
import { evidenceEventMatters, type PullRequestJob } from "../../schemas/jobs/gate.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { CheckRunLedger } from "../store/ports/check-run-ledger.js";
import type { ObservationStore } from "../store/ports/observation-store.js";
import { type ApplyStore, applyGatePlan } from "./apply.js";
import { AgateChecks } from "./check-runs.js";
import type { EvidenceCache } from "./evidence.js";
import { type GatherStore, gatherPullRequest } from "./gather.js";
import type { RequiredCheckReader } from "./required-check.js";
import type { TraceReportCache } from "./trace-report.js";

export interface PassDeps {
  github: GitHubAdapter;
  store: GatherStore & ApplyStore & CheckRunLedger;
  reads: ImmutableReads;
  evidence: EvidenceCache;
  traceReports?: TraceReportCache;
  setup?: RequiredCheckReader;
  agateVersion: string;
  appSlug: string;
  now: () => Date;
  /** An earlier run of this pass's job stopped part-way (JobContext's `retried`). */
  retried?: boolean;
  /** The job this pass runs in (JobContext's `jobId`). */
  jobId?: number;
}

export interface PassResult {
  decision: GateDecision | null;
  /** Why nothing was decided, such as a closed pull request. */
  skipped: string | null;
  wroteCheck: boolean;
  storedRecord: boolean;
}

/** The push itself: no run of the evidence workflow for this head can have finished yet. */
const PUSHES = new Set(["opened", "synchronize"]);

export async function runPullRequestPass(deps: PassDeps, job: PullRequestJob): Promise<PassResult> {
  const skip = (skipped: string): PassResult => ({
    decision: null,
    skipped,
    wroteCheck: false,
    storedRecord: false,
  });
  if (job.only_if_app !== null && job.only_if_app !== deps.appSlug) {
    return skip(`a check run of ${job.only_if_app}, not this App's`);
  }
  if (job.unless_sender !== null && job.unless_sender === `${deps.appSlug}[bot]`) {
    return skip("agate's own label change");
  }
  // A retry is never skipped as already read: its first run may have stored the decision (what
  // runAlreadyRead finds) and stopped before queueing what the decision calls for.
  if (!deps.retried && job.run && job.head_sha && (await runAlreadyRead(deps.store, job))) {
    return skip(
      `run ${job.run.id} (attempt ${job.run.attempt}) was already read with its job complete`,
    );
  }
  const { github } = deps;
  const checks = new AgateChecks(github, deps.store, deps.now);
  if (job.retarget && job.head_sha) await holdForRetarget(checks, job);
  try {
    const gathered = await gatherPullRequest(
      deps,
      { number: job.number, head_sha: job.head_sha, base_sha: job.base_sha, seen: job.seen },
      {
        skipRuns: job.trigger.event === "pull_request" && PUSHES.has(job.trigger.action ?? ""),
        rerunEvaluator: job.rerun_evaluator,
        relevant: job.only_if ? evidenceEventMatters(job.only_if) : undefined,
        completedJob: job.run?.job ? { runId: job.run.id, job: job.run.job } : null,
      },
    );
    if (gathered.status === "skipped") return skip(gathered.reason);
    const { facts, observations, evaluatorDue, headSeen } = gathered;
    const decision = decideGate(facts);
    const existing = await checks.current(facts.pull_request.head_sha, headSeen);
    const plan = planGatePass({
      facts,
      decision,
      existing,
      evaluatorDue,
      rerunEvaluator: job.rerun_evaluator,
      task: observations.view.detail,
    });
    const applied = await applyGatePlan({
      github,
      checks,
      store: deps.store,
      installation: job.installation,
      facts,
      decision,
      plan,
      observations,
      existing,
      now: deps.now,
      retried: deps.retried ?? false,
      ...(deps.jobId === undefined ? {} : { jobId: deps.jobId }),
    });
    return { decision, skipped: null, ...applied };
  } catch (error) {
    await holdOnError(github, checks, deps.store, job.number, error, deps.now);
    throw error;
  }
}

/**
 * A run's completion and its evidence job's completion each cause a pass; whichever comes second
 * adds nothing when the last stored decision for the head already read that run's attempt with
 * the job complete. Artifact names are unique in a run, so nothing can join the record after.
 */
async function runAlreadyRead(store: AuditLog, job: PullRequestJob): Promise<boolean> {
  const { run, head_sha: head } = job;
  if (!run || !head) return false;
  const [last] = await store.listAudit({
    kind: "gate.decision",
    subject: `${job.repository}#${job.number}@${head}`,
    order: "desc",
    limit: 1,
  });
  const read = (last?.facts as { evidence_run?: EvidenceRunFact | null } | undefined)?.evidence_run;
  return (
    read?.run.id === run.id &&
    read.run.run_attempt === run.attempt &&
    read.job?.status === "completed"
  );
}

/**
 * A retarget must not leave the old base's decision standing while the new base is read: the
 * check on the head goes back in progress first, saying why.
 */
async function holdForRetarget(checks: AgateChecks, job: PullRequestJob): Promise<void> {
  const { retarget, head_sha: head } = job;
  if (!retarget || !head) return;
  const existing = await checks.current(head);
  await checks.write(head, existing, {
    conclusion: null,
    rerunEvaluator: false,
    title: `The base changed from ${retarget.from} to ${retarget.to}: re-evaluating against the new base`,
    summary: `**Not decided.** The pull request now targets ${codeSpan(retarget.to, 120)}, not ${codeSpan(retarget.from, 120)}; no decision made against the old base stands. agate is reading the new base's config.\n`,
    externalId: `agate:${job.repository}#${job.number}@${head}`,
  });
}

/**
 * A pass that failed must not leave an earlier green standing: the check on the live head goes
 * back to in progress with the reason, and the job is retried. Best effort: when GitHub itself
 * is what fails, this fails too, and the retry is what remains.
 */
async function holdOnError(
  github: GitHubAdapter,
  checks: AgateChecks,
  store: ObservationStore,
  number: number,
  error: unknown,
  now: () => Date,
): Promise<void> {
  try {
    const pr = await github.pullRequest(number);
    // Seen now: the pass that retries lists the check this writes instead of making another.
    await store.recordHeadObservation({
      repository: pr.repository,
      head_sha: pr.head_sha,
      pull_number: pr.number,
      base_ref: pr.base_ref,
      observed_at: now().toISOString(),
    });
    const existing = await checks.current(pr.head_sha);
    const reason = error instanceof Error ? error.message : String(error);
    await checks.write(pr.head_sha, existing, {
      conclusion: null,
      rerunEvaluator: false,
      title: "agate could not finish evaluating this commit; it will retry",
      summary: `**Not decided.** The last evaluation failed, so no earlier decision stands until it succeeds:\n\n${fenced(reason.slice(0, 2_000))}\n`,
      externalId: `agate:${pr.repository}#${pr.number}@${pr.head_sha}`,
    });
  } catch {
    // GitHub is what fails; the job's retry will try again.
  }
}
