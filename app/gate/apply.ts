/**
 * apply: carries out the effects a pass (or a hold) listed (checks/gate/plan.ts, holds.ts), phase
 * by phase as schemas/effects.ts states the order (`PhasedEffects`), and reads nothing to decide
 * (only, on a retry, the exactly-once machinery looks for its own earlier writes). The order is
 * what makes a crash safe; checks/ lists the effects of each phase, and its tests hold them.
 *
 * Run again after a crash (`retried`), every write is made once: the check is found by the
 * ledger or on GitHub (check-runs.ts), labels are a set the plan computed from what GitHub shows,
 * a retry restyles the state labels it leaves on (its first run may have stopped before styling
 * one GitHub made grey), the first run's comments are found by their marker or posted (also
 * those the new decision no longer calls for), and the audit entry and record carry keys of the
 * job.
 */
import type { GitHubEffect, PhasedEffects, StoreEffect } from "../../schemas/effects.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { type Intended, jobScope, WriteOnce } from "../runtime/write-once.js";
import type { AuditLog } from "../store/ports/audit-log.js";
import type { EntryMentionStore } from "../store/ports/entry-mention-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { ObservationStore } from "../store/ports/observation-store.js";
import type { RecordStore } from "../store/ports/record-store.js";
import type { WriteIntentLedger } from "../store/ports/write-intent-ledger.js";
import type { AgateChecks } from "./check-runs.js";

export type ApplyStore = Pick<RecordStore, "appendRecord" | "markStale"> &
  Pick<
    ObservationStore,
    "recordMergeCommit" | "recordHeadObservation" | "recordPullRequestSighting"
  > &
  Pick<AuditLog, "appendAudit"> &
  WriteIntentLedger &
  Pick<EntryMentionStore, "replaceEntryMentions"> &
  Pick<JobQueue, "enqueue">;

export interface ApplyContext {
  github: GitHubAdapter;
  checks: AgateChecks;
  store: ApplyStore;
  /** The job the effects are applied in: what it writes once is keyed by it. */
  jobId?: number | undefined;
  /** An earlier run of this job stopped part-way: its recorded comments are finished. */
  retried: boolean;
}

export interface Applied {
  wroteCheck: boolean;
  storedRecord: boolean;
}

/**
 * Applies the phases in order: what is stored first; the comments' intents, recorded before the
 * first write on GitHub (a retry after the labels were put right no longer sees why to say so,
 * and says what this run decided to); GitHub's writes; a retried job's recorded comments, made
 * after them; then what is stored after.
 */
export async function applyEffects(ctx: ApplyContext, effects: PhasedEffects): Promise<Applied> {
  const writes = new WriteOnce(ctx.github, ctx.store, jobScope(ctx.jobId, "gate"));
  const applied: Applied = { wroteCheck: false, storedRecord: false };
  for (const effect of effects.first) await storeOne(ctx.store, effect, applied);
  const intents = new Map<GitHubEffect, Intended>();
  for (const e of effects.github) {
    if (e.kind === "comment") {
      intents.set(e, await writes.intend(`${writes.scope}:${e.key}`, e.number, e.body));
    }
  }
  for (const effect of effects.github) {
    await onGitHub(ctx, effect, writes, intents.get(effect), applied);
  }
  if (ctx.retried) await writes.finish();
  for (const effect of effects.after) await storeOne(ctx.store, effect, applied);
  return applied;
}

/** One write on GitHub, through the mechanism that makes it once. */
async function onGitHub(
  ctx: ApplyContext,
  effect: GitHubEffect,
  writes: WriteOnce,
  intended: Intended | undefined,
  applied: Applied,
): Promise<void> {
  switch (effect.kind) {
    case "check":
      await ctx.checks.write(effect.head_sha, effect.existing, effect.write);
      applied.wroteCheck = true;
      return;
    case "labels":
      for (const label of effect.remove) await ctx.github.removeLabel(effect.number, label);
      return addLabels(ctx.github, effect);
    case "comment":
      if (intended) await writes.make(intended);
      return;
  }
}

/** One write to the store: each once under its key, or idempotent. */
async function storeOne(store: ApplyStore, effect: StoreEffect, applied: Applied): Promise<void> {
  switch (effect.kind) {
    case "observe":
      return observe(store, effect);
    case "audit":
      await store.appendAudit(effect.entry, dedupe(effect.dedupe_key));
      return;
    case "record":
      await store.appendRecord(effect.record, dedupe(effect.dedupe_key));
      applied.storedRecord = true;
      return;
    case "enqueue":
      await store.enqueue(effect.job, effect.dedupe ?? undefined);
      return;
    case "mentions":
      await store.replaceEntryMentions({
        repository: effect.repository,
        pullNumber: effect.pull_number,
        issues: effect.issues,
        jobs: effect.jobs,
      });
      return;
  }
}

const dedupe = (key: string | null) => (key === null ? {} : { dedupeKey: key });

async function observe(store: ApplyStore, effect: Extract<StoreEffect, { kind: "observe" }>) {
  if (effect.stale) await store.markStale(effect.stale);
  if (effect.merge_commit) await store.recordMergeCommit(effect.merge_commit);
  if (effect.head) await store.recordHeadObservation(effect.head);
  if (effect.sighting) await store.recordPullRequestSighting(effect.sighting);
}

/**
 * Adds the state labels and gives one GitHub had to make (grey) agate's look, as the write's own
 * answer shows it; then restyles those the decision found not agate's (a retry's).
 */
async function addLabels(
  github: GitHubAdapter,
  effect: Extract<GitHubEffect, { kind: "labels" }>,
): Promise<void> {
  const { add, restyle, styles } = effect;
  const looks = add.length > 0 ? await github.addLabels(effect.number, [...add]) : [];
  for (const name of add) {
    const style = styles[name];
    const label = looks.find((l) => l.name === name);
    if (
      style &&
      label &&
      (label.color !== style.color || label.description !== style.description)
    ) {
      await github.styleLabel(name, style.color, style.description);
    }
  }
  for (const name of restyle) {
    const style = styles[name];
    if (style) await github.styleLabel(name, style.color, style.description);
  }
}
