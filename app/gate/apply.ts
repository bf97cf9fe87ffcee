/**
 * apply: carries out the effects a pass (or a hold) listed (checks/gate/plan.ts, holds.ts), in
 * the order listed, and reads nothing to decide (only, on a retry, the exactly-once machinery
 * looks for its own earlier writes): observations first (so a crash after them loses
 * nothing a retry needs), then the comments it will post, as intents (app/runtime/write-once.ts),
 * then GitHub's writes (check, labels, comments), then the decision's audit entry and record,
 * then jobs. The order is the plan's (checks/ lists it, and its tests hold it): it is what makes
 * a crash safe. A merge group's decision is stored before its check is written, and its
 * deadline queued before either.
 *
 * Run again after a crash (`retried`), every write is made once: the check is found by the
 * ledger or on GitHub (check-runs.ts), labels are a set the plan computed from what GitHub shows,
 * a state label GitHub made grey is styled when the retry's gather found it so, the first run's comments
 * are found by their marker or posted (also those the new decision no longer calls for), and the
 * audit entry and record carry keys of the job.
 */
import type { Effect } from "../../schemas/effects.js";
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

/** The effects that write on GitHub. */
const ON_GITHUB = new Set<Effect["kind"]>(["check", "labels", "comment"]);

/**
 * Applies the effects in the order listed. The comments' intents are recorded before the first
 * write on GitHub; a retried job's recorded comments are made after the last one (or, with none,
 * after the observations that lead the list).
 */
export async function applyEffects(
  ctx: ApplyContext,
  effects: readonly Effect[],
): Promise<Applied> {
  const writes = new WriteOnce(ctx.github, ctx.store, jobScope(ctx.jobId, "gate"));
  const intents = new Map<Effect, Intended>();
  const applied: Applied = { wroteCheck: false, storedRecord: false };
  const first = effects.findIndex((e) => ON_GITHUB.has(e.kind));
  const leading = effects.findIndex((e) => e.kind !== "observe");
  const last =
    first >= 0
      ? effects.findLastIndex((e) => ON_GITHUB.has(e.kind))
      : (leading < 0 ? effects.length : leading) - 1;
  if (last < 0 && ctx.retried) await writes.finish();
  for (const [i, effect] of effects.entries()) {
    // Recorded before anything is written: a retry after the labels were put right no longer
    // sees why to say so, and says what this run decided to.
    if (i === first) {
      for (const e of effects) {
        if (e.kind !== "comment") continue;
        intents.set(e, await writes.intend(`${writes.scope}:${e.key}`, e.number, e.body));
      }
    }
    await applyOne(ctx, effect, writes, intents.get(effect), applied);
    if (i === last && ctx.retried) await writes.finish();
  }
  return applied;
}

/** One effect: a switch over the kinds, each through the mechanism that makes it once. */
async function applyOne(
  ctx: ApplyContext,
  effect: Effect,
  writes: WriteOnce,
  intended: Intended | undefined,
  applied: Applied,
): Promise<void> {
  const { github, store } = ctx;
  switch (effect.kind) {
    case "observe":
      return observe(store, effect);
    case "check":
      await ctx.checks.write(effect.head_sha, effect.existing, effect.write);
      applied.wroteCheck = true;
      return;
    case "labels":
      for (const label of effect.remove) await github.removeLabel(effect.number, label);
      return addLabels(github, effect);
    case "comment":
      if (intended) await writes.make(intended);
      return;
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

async function observe(store: ApplyStore, effect: Extract<Effect, { kind: "observe" }>) {
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
  effect: Extract<Effect, { kind: "labels" }>,
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
