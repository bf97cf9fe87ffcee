/**
 * apply: carries out the effects a pass (or a hold) listed (checks/gate/plan.ts, holds.ts), in
 * the order listed, and reads nothing to decide: observations first (so a crash after them loses
 * nothing a retry needs), then the comments it will post, as intents (app/github/write-once.ts),
 * then GitHub's writes (check, labels, comments), then the decision's audit entry and record,
 * then jobs. A list out of that order is refused: the order is what makes a crash safe.
 *
 * Run again after a crash (`retried`), every write is made once: the check is found by the
 * ledger or on GitHub (check-runs.ts), labels are a set the plan computed from what GitHub shows,
 * a state label GitHub made grey is styled when the retry finds it so, the first run's comments
 * are found by their marker or posted (also those the new decision no longer calls for), and the
 * audit entry and record carry keys of the job.
 */
import type { Effect } from "../../schemas/effects.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { type Intended, jobScope, WriteOnce } from "../github/write-once.js";
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

/** Each kind's place in the order: observations, GitHub, the decision stored, jobs. */
const STAGE: Record<Effect["kind"], number> = {
  observe: 0,
  check: 1,
  labels: 1,
  comment: 1,
  audit: 2,
  record: 2,
  enqueue: 3,
  mentions: 3,
};
const GITHUB = 1;

export async function applyEffects(
  ctx: ApplyContext,
  effects: readonly Effect[],
): Promise<Applied> {
  const { github, store } = ctx;
  const writes = new WriteOnce(github, store, jobScope(ctx.jobId, "gate"));
  const intents = new Map<Effect, Intended>();
  const applied: Applied = { wroteCheck: false, storedRecord: false };
  const stages = effects.map((e) => STAGE[e.kind]);
  const out = stages.findIndex((s, i) => i > 0 && s < (stages[i - 1] ?? 0));
  if (out >= 0) {
    throw new Error(
      `effect ${out} (${effects[out]?.kind}) is listed after a later stage's: nothing was applied; list observations, GitHub's writes, the decision stored, then jobs`,
    );
  }
  let stage = 0;
  for (const effect of effects) {
    const next = STAGE[effect.kind];
    // Recorded before anything is written: a retry after the labels were put right no longer
    // sees why to say so, and says what this run decided to.
    if (stage < GITHUB && next >= GITHUB) {
      for (const e of effects) {
        if (e.kind === "comment") {
          intents.set(e, await writes.intend(`${writes.scope}:${e.key}`, e.number, e.body));
        }
      }
    }
    if (stage <= GITHUB && next > GITHUB && ctx.retried) await writes.finish();
    stage = next;
    switch (effect.kind) {
      case "observe":
        await observe(store, effect);
        break;
      case "check":
        await ctx.checks.write(effect.head_sha, effect.existing, effect.write);
        applied.wroteCheck = true;
        break;
      case "labels":
        for (const label of effect.remove) await github.removeLabel(effect.number, label);
        await addLabels(github, effect);
        break;
      case "comment": {
        const intended = intents.get(effect);
        if (intended) await writes.make(intended);
        break;
      }
      case "audit":
        await store.appendAudit(effect.entry, dedupe(effect.dedupe_key));
        break;
      case "record":
        await store.appendRecord(effect.record, dedupe(effect.dedupe_key));
        applied.storedRecord = true;
        break;
      case "enqueue":
        await store.enqueue(effect.job, effect.dedupe ?? undefined);
        break;
      case "mentions":
        await store.replaceEntryMentions({
          repository: effect.repository,
          pullNumber: effect.pull_number,
          issues: effect.issues,
          jobs: effect.jobs,
        });
        break;
    }
  }
  if (stage <= GITHUB && ctx.retried) await writes.finish();
  return applied;
}

const dedupe = (key: string | null) => (key === null ? {} : { dedupeKey: key });

async function observe(store: ApplyStore, effect: Extract<Effect, { kind: "observe" }>) {
  if (effect.stale) await store.markStale(effect.stale);
  if (effect.merge_commit) await store.recordMergeCommit(effect.merge_commit);
  if (effect.head) await store.recordHeadObservation(effect.head);
  if (effect.sighting) await store.recordPullRequestSighting(effect.sighting);
}

/**
 * Adds the state labels and gives one GitHub had to make (grey) agate's look. The labels to
 * restyle (a retry's) are looked at first: the one read here, of the write's own result.
 */
async function addLabels(
  github: GitHubAdapter,
  effect: Extract<Effect, { kind: "labels" }>,
): Promise<void> {
  const { add, restyle, styles } = effect;
  const looks = add.length > 0 ? await github.addLabels(effect.number, [...add]) : [];
  for (const name of restyle) {
    const look = await github.repositoryLabel(name);
    if (look) looks.push(look);
  }
  for (const name of new Set([...add, ...restyle])) {
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
}
