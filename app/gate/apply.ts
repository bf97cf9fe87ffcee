/**
 * apply: carries out a gate pass's plan in a fixed order and records it. Stale marks and
 * observations first (so a crash after them loses nothing a retry needs), then the comments it
 * will post, as intents (app/github/write-once.ts), then GitHub's writes (check, labels,
 * comments), then the decision's audit entry and acceptance record with the facts, decision and
 * plan they came from, then follow-up jobs. Nothing here decides.
 *
 * Run again after a crash (`retried`), every write is made once: the check is found by the
 * ledger or on GitHub (check-runs.ts), labels are a set the plan computes from what GitHub shows,
 * a label GitHub made grey is styled when the retry finds it so, the first run's comments are
 * found by their marker or posted, and the audit entry and record carry keys of the job.
 */
import { createHash } from "node:crypto";
import { decisionConcernsDashboard } from "../../checks/dashboard/pulls.js";
import type { GatePlan } from "../../checks/gate/plan.js";
import { STATE_LABELS } from "../../checks/gate/plan.js";
import { sightingOf } from "../../checks/gate/sighting.js";
import type { AcceptanceRecordInput } from "../../schemas/acceptance-record.js";
import type { GateDecision, GateFacts } from "../../schemas/gate.js";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { evaluatorKey, GATE_JOBS } from "../../schemas/jobs/gate.js";
import { jobOf } from "../../schemas/jobs/index.js";
import type { AgateCheckRun, GitHubAdapter } from "../github/adapter.js";
import { jobScope, WriteOnce } from "../github/write-once.js";
import { queueJob } from "../runtime/jobs.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { ObservationStore } from "../store/ports/observation-store.js";
import type { RecordStore } from "../store/ports/record-store.js";
import type { WriteIntentLedger } from "../store/ports/write-intent-ledger.js";
import type { AgateChecks } from "./check-runs.js";
import { type EntryPriorityStore, queueEntryPriorityPasses } from "./entry-priority.js";
import type { Observations } from "./gather.js";

export type ApplyStore = RecordStore &
  ObservationStore &
  AuditLog &
  WriteIntentLedger &
  EntryPriorityStore &
  Pick<JobQueue, "enqueue" | "listJobs">;

export interface Applied {
  wroteCheck: boolean;
  storedRecord: boolean;
}

export async function applyGatePlan(options: {
  github: GitHubAdapter;
  checks: AgateChecks;
  store: ApplyStore;
  installation: number;
  facts: GateFacts;
  decision: GateDecision;
  plan: GatePlan;
  observations: Observations;
  existing: AgateCheckRun | null;
  now: () => Date;
  /** An earlier run of this job stopped part-way: see queueEntryPriorityPasses. */
  retried?: boolean;
  /** The job this pass runs in: what it writes once is keyed by it. */
  jobId?: number;
}): Promise<Applied> {
  const { store, facts, decision, plan, now } = options;
  const pr = facts.pull_request;
  const at = now().toISOString();
  // A new head supersedes every record of other heads; they stay, marked stale.
  await store.markStale({
    repository: pr.repository,
    pullNumber: pr.number,
    supersededBy: pr.head_sha,
    at,
  });
  const { merge_commit, head } = options.observations;
  if (merge_commit) {
    await store.recordMergeCommit({
      repository: pr.repository,
      pull_number: pr.number,
      ...merge_commit,
      observed_at: at,
    });
  }
  await store.recordHeadObservation({
    repository: pr.repository,
    pull_number: pr.number,
    ...head,
    observed_at: at,
  });
  const labelsLeft = [
    ...pr.labels.filter((label) => !plan.labels.remove.includes(label)),
    ...plan.labels.add,
  ];
  await store.recordPullRequestSighting({
    repository: pr.repository,
    pull_number: pr.number,
    ...sightingOf(options.observations.view, labelsLeft),
    observed_at: at,
  });

  await writeToGitHub(options, labelsLeft);
  if (plan.storeDecision) await storeDecision(store, options, at);
  // A retry cannot tell whether its first run stored a decision and stopped before this: the
  // refresh (one queued per repository at a time) is queued again then.
  const refresh = plan.storeDecision
    ? decisionConcernsDashboard(decision.state, facts.prior_records)
    : (options.retried ?? false);
  if (refresh) {
    await queueJob(store, DASHBOARD_JOBS.refresh, {
      repository: pr.repository,
      installation: options.installation,
      trigger: { event: "gate.decision", action: decision.state, delivery_id: null },
    });
  }
  // Stored after GitHub's writes, with the passes they call for: a pass retried after a failed
  // write still sees the mentions as changed. An entry that changes meanwhile is caught by
  // queueEntryPriorityPasses (this pass queued again) or by the entry's own pass. A run that
  // stopped between storing its record and queueing is made good by its retry (`retried`).
  await queueEntryPriorityPasses(store, {
    facts,
    installation: options.installation,
    mentionedNow: options.observations.entry_mentions,
    retried: options.retried ?? false,
  });
  if (plan.askEvaluator && !(await evaluatorAlreadyAsked(store, pr, plan.askEvaluator))) {
    await store.enqueue(
      jobOf(GATE_JOBS.evaluator, {
        repository: pr.repository,
        installation: options.installation,
        number: pr.number,
        head_sha: pr.head_sha,
        ...plan.askEvaluator,
      }),
    );
  }
  return { wroteCheck: plan.check !== null, storedRecord: plan.storeDecision };
}

type ApplyOptions = Parameters<typeof applyGatePlan>[0];

/** The check, the labels and the comments, each once however often the job runs. */
async function writeToGitHub(options: ApplyOptions, labelsLeft: readonly string[]): Promise<void> {
  const { github, plan } = options;
  const pr = options.facts.pull_request;
  // Recorded before anything is written: a retry after the labels were put right no longer
  // sees why to say so, and says what this run decided to (finish, below).
  const writes = new WriteOnce(github, options.store, jobScope(options.jobId, "gate"));
  const comments = [];
  for (const [i, body] of plan.comments.entries()) {
    comments.push(await writes.intend(`${writes.scope}:comment:${i}`, pr.number, body));
  }
  if (plan.check) await options.checks.write(pr.head_sha, options.existing, plan.check);
  for (const label of plan.labels.remove) await github.removeLabel(pr.number, label);
  await addLabels(github, pr.number, plan.labels.add, options.retried ? labelsLeft : []);
  for (const comment of comments) await writes.make(comment);
  if (options.retried) await writes.finish();
}

/**
 * The decision's audit entry, then its acceptance record, each under the job's key. The audit
 * entry first: a retry that finds no record stores both, each once; one that finds the record
 * (so decides to store nothing) finds the audit entry too.
 */
async function storeDecision(store: ApplyStore, options: ApplyOptions, at: string): Promise<void> {
  const { facts, decision, plan, jobId } = options;
  const pr = facts.pull_request;
  const once =
    jobId === undefined ? {} : { dedupeKey: `job:${jobId}:gate@${pr.head_sha}:${decision.state}` };
  await store.appendAudit(
    {
      kind: "gate.decision",
      subject: `${pr.repository}#${pr.number}@${pr.head_sha}`,
      // The plan beside the decision: what this pass wrote, and why, can be replayed.
      decision: JSON.parse(JSON.stringify({ ...decision, plan })),
      facts: JSON.parse(JSON.stringify(facts)),
      at,
    },
    once,
  );
  await store.appendRecord(recordInput(facts, decision, at), once);
}

/**
 * Adds the plan's state labels and gives one GitHub had to make (grey) agate's look. A retry
 * checks the look of the state labels already on (`check`): its first run may have added one
 * and stopped before styling it, and adds nothing now.
 */
async function addLabels(
  github: GitHubAdapter,
  number: number,
  add: readonly string[],
  check: readonly string[],
): Promise<void> {
  const looks = add.length > 0 ? await github.addLabels(number, [...add]) : [];
  for (const name of check) {
    if (add.includes(name) || !STATE_LABELS[name]) continue;
    const look = await github.repositoryLabel(name);
    if (look) looks.push(look);
  }
  for (const name of new Set([...add, ...check])) {
    const style = STATE_LABELS[name];
    const label = looks.find((l) => l.name === name);
    if (
      style &&
      label &&
      (label.color !== style.color || label.description !== style.description)
    ) {
      await github.styleLabel(name, style.color, style.description);
    }
  }
}

/**
 * A pass made while the evaluator judges the same tree (its job queued or running) asks nothing
 * more: that job's verdict queues the next pass. A person's re-run is always asked.
 */
async function evaluatorAlreadyAsked(
  queue: Pick<JobQueue, "listJobs">,
  pr: GateFacts["pull_request"],
  ask: NonNullable<GatePlan["askEvaluator"]>,
): Promise<boolean> {
  if (ask.rerun) return false;
  const concurrencyKey = evaluatorKey(pr.repository, pr.number);
  for (const status of ["queued", "running"] as const) {
    const jobs = await queue.listJobs({ kind: GATE_JOBS.evaluator.kind, status, concurrencyKey });
    for (const job of jobs) {
      const parsed = GATE_JOBS.evaluator.payload.safeParse(job.payload);
      if (
        parsed.success &&
        parsed.data.tree_sha === ask.tree_sha &&
        parsed.data.config_digest === ask.config_digest
      ) {
        return true;
      }
    }
  }
  return false;
}

const digestOf = (facts: GateFacts) =>
  facts.config.status === "ok"
    ? facts.config.digest
    : createHash("sha256")
        .update(facts.config.status === "invalid" ? facts.config.message : "")
        .digest("hex");

function recordInput(
  facts: GateFacts,
  decision: GateDecision,
  decidedAt: string,
): AcceptanceRecordInput {
  const believed = facts.evidence.filter((e) => e.record && !e.refused && !e.waiting).at(-1);
  const shown = believed ?? facts.evidence.at(-1);
  const record = shown?.record ?? null;
  const evaluator = facts.config.status === "ok" ? facts.config.config.evaluator : null;
  const judged = facts.evaluation.status === "judged" ? facts.evaluation.evaluation : null;
  const verdict = judged?.outcome.status === "verdict" ? judged.outcome : null;
  return {
    repository: facts.pull_request.repository,
    pull_number: facts.pull_request.number,
    head_sha: facts.pull_request.head_sha,
    base_sha: facts.pull_request.base_sha,
    tested: record?.tested ?? null,
    commands: record?.commands ?? [],
    provenance: shown
      ? {
          workflow: record?.workflow ?? null,
          verified: shown === believed,
          refused_reason: shown.refused ?? shown.waiting,
        }
      : null,
    runner: record?.runner ?? null,
    grader: {
      agate_version: facts.agate_version,
      config_digest: digestOf(facts),
      evaluator: evaluator
        ? {
            kind: evaluator.kind,
            provider: evaluator.kind === "llm" ? evaluator.provider : null,
            model: evaluator.kind === "llm" ? evaluator.model : null,
            prompt_version: judged?.run.prompt_version ?? null,
          }
        : null,
    },
    verdict: verdict?.verdict ?? null,
    verdict_by: verdictBy(facts),
    handoff: decision.handoff,
    override: decision.state === "accepted" ? facts.override : null,
    decision: {
      state: decision.state,
      head_tree_sha: facts.head_tree_sha,
      replayed_from: decision.replayed_from ?? null,
      reasons: [
        decision.title,
        ...decision.requirements.map((r) => `${r.name}: ${r.status}: ${r.reason}`),
        ...decision.reasons,
      ],
    },
    decided_at: decidedAt,
  };
}

/** Who gave the verdict the decision rests on, in words for the record. */
function verdictBy(facts: GateFacts): string | null {
  if (facts.evaluation.status === "judged") {
    const run = facts.evaluation.evaluation.run;
    return [run.kind, run.provider, run.model, run.prompt_version].filter(Boolean).join(" ");
  }
  const head = facts.pull_request.head_sha;
  const approval = facts.reviews.find(
    (r) => r.state === "APPROVED" && r.maintainer && r.commit_id === head,
  );
  return approval ? `review by ${approval.login}` : null;
}
