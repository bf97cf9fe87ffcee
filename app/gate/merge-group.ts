/**
 * The merge queue: on `merge_group` `checks_requested`, the `agate` check on the group head is
 * put in progress and a deadline job is enqueued, so every checks request gets an explicit
 * conclusion within `merge_queue.record_timeout` (a queue left waiting blocks the repository).
 */
import { COMPARE_FILES_LIMIT, judgeListing } from "../../checks/gate/listing.js";
import {
  decideMergeGroup,
  isMergeQueueRef,
  renderMergeGroupSummary,
} from "../../checks/gate/merge-group.js";
import type { BaseConfigFact } from "../../schemas/gate.js";
import { GATE_CHECK_NAME } from "../../schemas/gate.js";
import {
  type MergeGroupDecision,
  type MergeGroupFacts,
  type MergeGroupRefFact,
  mergeGroupDeadlineJobSchema,
} from "../../schemas/merge-group.js";
import type { StoredDelivery } from "../../schemas/store.js";
import { AGATE_VERSION } from "../../schemas/version.js";
import { GitHubAdapter } from "../github/adapter.js";
import type { Store } from "../store/store.js";
import { collectEvidence, EvidenceCache } from "./evidence.js";
import { ConfigCache } from "./gather.js";
import type { GateDeps } from "./handle-delivery.js";

export const MERGE_GROUP_DEADLINE = "gate.merge_group_deadline";
/** What `merge_queue.record_timeout` defaults to, for a base whose config cannot be read. */
const DEFAULT_RECORD_TIMEOUT_MS = 30 * 60_000;

/**
 * The check's external id names the group's base: a later check_run / workflow_run event on the
 * group head carries no base, and our own check run is GitHub data only this App can write.
 */
const externalIdOf = (group: MergeGroupRefFact) =>
  `agate:merge_group:${group.repository}@${group.head_sha}:base=${group.base_sha}`;
const BASE_IN_EXTERNAL_ID = /^agate:merge_group:[^@]+@([0-9a-f]{40}):base=([0-9a-f]{40})$/;

export interface MergeGroupEvaluation {
  decision: MergeGroupDecision;
  wroteCheck: boolean;
}

/** Evaluates one merge group's head from live facts and writes its `agate` check run. */
export async function evaluateMergeGroup(options: {
  github: GitHubAdapter;
  store: Store;
  configs: ConfigCache;
  group: MergeGroupRefFact;
  /** The deadline job is running: no verified record by now means failure. */
  deadlineReached: boolean;
  now: () => Date;
  agateVersion?: string;
  evidence?: EvidenceCache;
}): Promise<MergeGroupEvaluation> {
  const { github, group, now } = options;
  const [existing, config] = await Promise.all([
    github.agateCheckRunDetail(group.head_sha),
    options.configs.read(github, group.base_sha),
  ]);
  const facts: MergeGroupFacts = {
    merge_group: group,
    config,
    changed_files: [],
    changed_files_listing: { complete: true, reason: null },
    evidence_source: null,
    evidence_run: null,
    evidence: [],
    deadline_passed: false,
    agate_version: options.agateVersion ?? AGATE_VERSION,
  };
  if (config.status === "ok") {
    // Read by SHA, so nothing can move under it; but compare stops at 300 files.
    facts.changed_files = await github.compareFiles(group.base_sha, group.head_sha);
    facts.changed_files_listing = judgeListing({
      source: "GitHub's compare of the merge group",
      count: facts.changed_files.length,
      limit: COMPARE_FILES_LIMIT,
      expected: null,
    });
    const collected = await collectEvidence(github, options.evidence ?? new EvidenceCache(), {
      target: { kind: "merge_group", headSha: group.head_sha },
      repository: group.repository,
      config: config.config,
      configDigest: config.digest,
      baseSha: group.base_sha,
      changedFiles: facts.changed_files,
      listing: facts.changed_files_listing,
    });
    facts.evidence_source = collected.source;
    facts.evidence_run = collected.run;
    facts.evidence = collected.evidence;
    // A re-evaluation after the deadline (a late event) must not put the check back in
    // progress: the check run's own start is when the checks request was answered.
    const started = existing?.startedAt ? Date.parse(existing.startedAt) : Number.NaN;
    facts.deadline_passed =
      options.deadlineReached ||
      now().getTime() - started >= config.config.merge_queue.record_timeout;
  }
  const decision = decideMergeGroup(facts);
  const summary = renderMergeGroupSummary(decision, facts);
  const wrote = await github.writeAgateCheckIfChanged(group.head_sha, existing, {
    conclusion: decision.conclusion,
    title: decision.title,
    summary,
    externalId: externalIdOf(group),
  });
  if (wrote) {
    await options.store.appendAudit({
      kind: "gate.merge_group.decision",
      subject: `${group.repository}@${group.head_sha}`,
      decision: JSON.parse(JSON.stringify(decision)),
      facts: JSON.parse(JSON.stringify(facts)),
      at: now().toISOString(),
    });
  }
  return { decision, wroteCheck: wrote };
}

interface MergeGroupPayload {
  action?: string;
  installation?: { id: number };
  repository?: { full_name: string };
  merge_group?: { head_sha: string; head_ref: string; base_sha: string };
  check_run?: {
    name: string;
    head_sha: string;
    app?: { slug?: string } | null;
    pull_requests?: unknown[];
    check_suite?: { head_branch?: string | null } | null;
  };
  workflow_run?: { head_sha: string; head_branch?: string | null; pull_requests?: unknown[] };
  workflow_job?: { head_sha: string; head_branch?: string | null };
}

/**
 * The merge-group head a check_run / workflow_run / workflow_job event is about, when it is one:
 * no pull request, and a head branch the merge queue made. Of check runs only our own `agate`
 * check counts, and only when a person asked for a re-run (its own changes would loop).
 */
export function mergeGroupHeadOf(
  event: string,
  payload: MergeGroupPayload,
  appSlug: string,
): { head_sha: string; head_ref: string } | null {
  if (event === "check_run" && payload.check_run) {
    const run = payload.check_run;
    // Evidence is no longer a check run: only a person asking our own check to re-run counts.
    if (run.name !== GATE_CHECK_NAME || run.app?.slug !== appSlug) return null;
    const asked = payload.action === "requested_action" || payload.action === "rerequested";
    if (!asked) return null;
    const ref = run.check_suite?.head_branch ?? null;
    if ((run.pull_requests ?? []).length > 0 || !isMergeQueueRef(ref)) return null;
    return { head_sha: run.head_sha, head_ref: ref ?? "" };
  }
  if (event === "workflow_run" && payload.workflow_run) {
    const run = payload.workflow_run;
    if ((run.pull_requests ?? []).length > 0 || !isMergeQueueRef(run.head_branch)) return null;
    return { head_sha: run.head_sha, head_ref: run.head_branch ?? "" };
  }
  if (event === "workflow_job" && payload.workflow_job) {
    const job = payload.workflow_job;
    if (!isMergeQueueRef(job.head_branch)) return null;
    return { head_sha: job.head_sha, head_ref: job.head_branch ?? "" };
  }
  return null;
}

const fullRef = (ref: string) => (ref.startsWith("refs/") ? ref : `refs/heads/${ref}`);

/**
 * The merge-queue part of the `gate.delivery` job. Returns true when the delivery was a merge
 * group's (handled here), false to let the pull-request path look at it.
 */
export async function handleMergeGroupDelivery(
  delivery: StoredDelivery,
  deps: GateDeps,
  appSlug: string,
): Promise<boolean> {
  const payload = JSON.parse(delivery.payload) as MergeGroupPayload;
  const installationId = payload.installation?.id;
  const repository = payload.repository?.full_name;
  if (!installationId || !repository) return false;
  const configs = deps.configs ?? new ConfigCache();

  if (delivery.event === "merge_group") {
    const group = payload.merge_group;
    // `destroyed` (merged, dequeued, invalidated) needs no answer; the deadline job finds the
    // check completed or concludes it, which GitHub ignores for a group that is gone.
    if (payload.action !== "checks_requested" || !group) return true;
    const github = new GitHubAdapter(await deps.octokitFor(installationId), repository, appSlug);
    const ref: MergeGroupRefFact = {
      repository,
      head_sha: group.head_sha,
      head_ref: group.head_ref,
      base_sha: group.base_sha,
    };
    // The deadline is enqueued before the check is written: whatever fails after, the group
    // still gets its answer. A retried delivery enqueues a second one, which finds it answered.
    const config = await configs.read(github, group.base_sha);
    if (config.status === "ok") await enqueueDeadline(deps, installationId, ref, config);
    const result = await evaluateMergeGroup({
      github,
      store: deps.store,
      configs,
      group: ref,
      deadlineReached: false,
      now: deps.now,
    });
    deps.log?.(
      `${repository} merge group ${group.head_sha.slice(0, 7)} after merge_group.checks_requested: ${result.decision.title} (${github.totalCalls} GitHub calls)`,
    );
    return true;
  }

  const head = mergeGroupHeadOf(delivery.event, payload, appSlug);
  if (!head) return false;
  const github = new GitHubAdapter(await deps.octokitFor(installationId), repository, appSlug);
  // Only a group the queue asked about (our check on it names its base) is evaluated: a branch
  // merely named like a queue branch gets no check from us.
  const existing = await github.agateCheckRunDetail(head.head_sha);
  const match = BASE_IN_EXTERNAL_ID.exec(existing?.externalId ?? "");
  if (!match?.[2] || match[1] !== head.head_sha) {
    deps.log?.(
      `${repository}@${head.head_sha.slice(0, 7)} after ${delivery.event}: no merge_group checks request seen for it; nothing to do`,
    );
    return true;
  }
  const result = await evaluateMergeGroup({
    github,
    store: deps.store,
    configs,
    group: {
      repository,
      head_sha: head.head_sha,
      head_ref: fullRef(head.head_ref),
      base_sha: match[2],
    },
    deadlineReached: false,
    now: deps.now,
  });
  deps.log?.(
    `${repository} merge group ${head.head_sha.slice(0, 7)} after ${delivery.event}${payload.action ? `.${payload.action}` : ""}: ${result.decision.title} (${github.totalCalls} GitHub calls)`,
  );
  return true;
}

async function enqueueDeadline(
  deps: GateDeps,
  installationId: number,
  group: MergeGroupRefFact,
  config: Extract<BaseConfigFact, { status: "ok" }>,
): Promise<void> {
  const timeout = config.config.merge_queue.record_timeout ?? DEFAULT_RECORD_TIMEOUT_MS;
  await deps.store.enqueue({
    kind: MERGE_GROUP_DEADLINE,
    payload: mergeGroupDeadlineJobSchema.parse({
      repository: group.repository,
      installation_id: installationId,
      head_sha: group.head_sha,
      head_ref: group.head_ref,
      base_sha: group.base_sha,
    }),
    // No concurrency key: a keyed job that is not yet due would hold back every later job of
    // the group's key (`repo@head`), which is the evidence this deadline waits for.
    concurrency_key: null,
    run_at: new Date(deps.now().getTime() + timeout).toISOString(),
  });
}

/**
 * The `gate.merge_group_deadline` job: when the group's `agate` check is still not completed,
 * it is concluded now (failure, unless verified evidence arrived without an event).
 */
export async function handleMergeGroupDeadline(payload: unknown, deps: GateDeps): Promise<void> {
  const job = mergeGroupDeadlineJobSchema.parse(payload);
  const slug = await deps.appSlug();
  const github = new GitHubAdapter(
    await deps.octokitFor(job.installation_id),
    job.repository,
    slug,
  );
  const existing = await github.agateCheckRunDetail(job.head_sha);
  if (existing?.status === "completed") {
    deps.log?.(
      `${job.repository} merge group ${job.head_sha.slice(0, 7)}: deadline reached, already concluded ${existing.conclusion}`,
    );
    return;
  }
  const result = await evaluateMergeGroup({
    github,
    store: deps.store,
    configs: deps.configs ?? new ConfigCache(),
    group: {
      repository: job.repository,
      head_sha: job.head_sha,
      head_ref: job.head_ref,
      base_sha: job.base_sha,
    },
    deadlineReached: true,
    now: deps.now,
  });
  deps.log?.(
    `${job.repository} merge group ${job.head_sha.slice(0, 7)}: deadline reached: ${result.decision.title}`,
  );
}
