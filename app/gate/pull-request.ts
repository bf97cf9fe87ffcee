/**
 * One pull request's gate pass, the `gate.pull_request` job: gather (app/gate/gather.ts, which
 * executes checks/gate/reads.ts's read plan) → decide (checks/gate/plan.ts's `decidePass`: the
 * decision and the effects it calls for) → apply (app/gate/apply.ts, which reads nothing).
 * Whatever event caused it, the decision is about the live head: a late or out-of-order event
 * only causes a fresh look, never changes the check of a commit that is no longer the head.
 */
import { errorHold, retargetHold } from "../../checks/gate/holds.js";
import { decidePass } from "../../checks/gate/plan.js";
import type { PhasedEffects } from "../../schemas/effects.js";
import type { GateDecision } from "../../schemas/gate.js";
import { evidenceEventMatters, type PullRequestJob } from "../../schemas/jobs/gate.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { ImmutableReads } from "../github/reads.js";
import type { RecordStore } from "../store/ports/record-store.js";
import { type ApplyStore, applyEffects } from "./apply.js";
import { AgateChecks } from "./check-runs.js";
import type { EvidenceCache } from "./evidence.js";
import { type GatherStore, gatherPullRequest } from "./gather.js";
import type { RequiredCheckReader } from "./required-check.js";
import type { TraceReportCache } from "./trace-report.js";

export interface PassDeps {
  github: GitHubAdapter;
  store: GatherStore & ApplyStore;
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
  const apply = (effects: PhasedEffects, retried = false) =>
    applyEffects({ github, checks, store: deps.store, jobId: deps.jobId, retried }, effects);
  const held = { repository: job.repository, number: job.number };
  if (job.retarget && job.head_sha) {
    const existing = await checks.current(job.head_sha);
    await apply(retargetHold({ ...held, head_sha: job.head_sha, existing }, job.retarget));
  }
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
    const retried = deps.retried ?? false;
    const { decision, effects } = decidePass(gathered.facts, {
      ...gathered.seen,
      rerun_evaluator: job.rerun_evaluator,
      installation: job.installation,
      at: deps.now().toISOString(),
      job_id: deps.jobId ?? null,
      retried,
    });
    return { decision, skipped: null, ...(await apply(effects, retried)) };
  } catch (error) {
    await holdOnError(github, checks, apply, job.number, error, deps.now);
    throw error;
  }
}

/**
 * A run's completion and its evidence job's completion each cause a pass; whichever comes second
 * adds nothing when the head's newest acceptance record already read that run's attempt with the
 * job complete (its provenance's `run`). Artifact names are unique in a run, so nothing can join
 * the record after. A record is stored exactly when the decision's audit entry is.
 */
async function runAlreadyRead(
  store: Pick<RecordStore, "listRecords">,
  job: PullRequestJob,
): Promise<boolean> {
  const { run, head_sha: head } = job;
  if (!run || !head) return false;
  const records = await store.listRecords({
    repository: job.repository,
    pullNumber: job.number,
    headSha: head,
  });
  const read = records.at(-1)?.provenance?.run;
  return read?.id === run.id && read.attempt === run.attempt && read.job_complete;
}

/**
 * A pass that failed must not leave an earlier green standing: the check on the live head goes
 * back to in progress with the reason (checks/gate/holds.ts), and the job is retried. Best
 * effort: when GitHub itself is what fails, this fails too, and the retry is what remains. The
 * one read here (the live head) is of a pass that failed, so nothing it gathered stands.
 */
async function holdOnError(
  github: GitHubAdapter,
  checks: AgateChecks,
  apply: (effects: PhasedEffects) => Promise<unknown>,
  number: number,
  error: unknown,
  now: () => Date,
): Promise<void> {
  try {
    const pr = await github.pullRequest(number);
    const existing = await checks.current(pr.head_sha);
    const reason = error instanceof Error ? error.message : String(error);
    const held = { repository: pr.repository, number: pr.number, head_sha: pr.head_sha };
    await apply(
      errorHold(
        { ...held, base_ref: pr.base_ref, base_sha: pr.base_sha, existing },
        reason,
        now().toISOString(),
      ),
    );
  } catch {
    // GitHub is what fails; the job's retry will try again.
  }
}
