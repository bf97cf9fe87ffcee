/**
 * A gate pass keeps the priority of the handoff entries linked to its pull request current
 * (docs/entries.md, "Priority"). An entry is `agate:blocking` while a linked pull request is open
 * and held by the gate (checks/entries/priority.ts); a pass can change that two ways, and queues
 * an entry's pass only for what it changed:
 *
 * - the gate's hold on the pull request began or ended (its stored decisions say so): every
 *   unresolved entry linked to it now or before this pass;
 * - its description's mentions changed while the gate holds it: the entries mentioned only before
 *   or only now (an entry whose form names the pull request is linked either way).
 *
 * The entry's pass derives the label again from the store (entry_mentions and the records), so
 * any replica's pass agrees; a pass that finds nothing changed writes nothing.
 */
import { gateHolds } from "../../checks/entries/priority.js";
import type { GateFacts } from "../../schemas/gate.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { jobOf } from "../../schemas/jobs/index.js";
import type { NewJob } from "../../schemas/store.js";
import { entryJob } from "../entries/route.js";
import type { EntryMentionStore } from "../store/ports/entry-mention-store.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";

export type EntryPriorityStore = EntryMentionStore &
  Pick<EntryStore, "listEntries"> &
  Pick<RecordStore, "listRecords"> &
  Pick<JobQueue, "enqueue">;

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === new Set(b).size && a.every((n) => b.includes(n));

/**
 * After the pass stored what it decided: the entry passes its change calls for, and, when the
 * description newly mentions an entry that changed after this pass read it, this pull request's
 * pass again (the entry's own pass may have looked for mentioning pull requests before this pass
 * stored its mentions, and so not have queued it). When the description's mentions changed, they
 * are stored in the same transaction as those passes: a crash stores both or neither, and a retry
 * finds the mentions still changed. Returns what it queued, for the log.
 */
export async function queueEntryPriorityPasses(
  store: EntryPriorityStore,
  options: {
    facts: GateFacts;
    installation: number;
    mentionedNow: readonly number[];
    /**
     * An earlier run of this pass stopped part-way: it may have stored its record and not queued
     * the passes the hold's change called for, and what is stored no longer shows the change.
     * Every linked unresolved entry's pass is queued then (each writes only what differs).
     */
    retried?: boolean;
  },
): Promise<{ entries: number[]; gatePass: boolean }> {
  const pr = options.facts.pull_request;
  const key = { repository: pr.repository, pullNumber: pr.number };
  const mentionedBefore = await store.listEntryMentions(key);
  const planned = await plannedPasses(store, { ...options, mentionedBefore });
  if (sameSet(mentionedBefore, options.mentionedNow)) {
    for (const job of planned.jobs) await store.enqueue(job);
  } else {
    await store.replaceEntryMentions({ ...key, issues: options.mentionedNow, jobs: planned.jobs });
  }
  return { entries: planned.entries, gatePass: planned.gatePass };
}

/** The passes the pass's change calls for (see queueEntryPriorityPasses); reads, never writes. */
async function plannedPasses(
  store: EntryPriorityStore,
  options: {
    facts: GateFacts;
    installation: number;
    mentionedBefore: readonly number[];
    mentionedNow: readonly number[];
    retried?: boolean;
  },
): Promise<{ jobs: NewJob[]; entries: number[]; gatePass: boolean }> {
  const { facts, mentionedBefore, mentionedNow } = options;
  const retried = options.retried ?? false;
  const pr = facts.pull_request;
  const linked = (facts.entries ?? []).map((e) => e.issue_number);
  const mentionsChanged = !sameSet(mentionedBefore, mentionedNow);
  const none = { jobs: [], entries: [], gatePass: false };
  // Nothing links it, and nothing did: no entry's priority can depend on this pull request.
  if (linked.length === 0 && mentionedBefore.length === 0 && mentionedNow.length === 0) return none;
  const holdsBefore = gateHolds(facts.prior_records);
  const records = await store.listRecords({ repository: pr.repository, pullNumber: pr.number });
  const holdsAfter = gateHolds(records.map((r) => ({ state: r.decision.state, stale: r.stale })));
  if (!mentionsChanged && holdsBefore === holdsAfter && !retried) return none;

  const entries = await store.listEntries({ repository: pr.repository });
  const named = (e: HandoffEntry) => e.fields.blocking_pull === pr.number;
  const now = (e: HandoffEntry) => mentionedNow.includes(e.issue_number);
  const before = (e: HandoffEntry) => mentionedBefore.includes(e.issue_number);
  const due = entries.filter((e) => {
    if (e.state === "resolved") return false;
    if (holdsBefore !== holdsAfter || retried) return named(e) || now(e) || before(e);
    return holdsAfter && !named(e) && now(e) !== before(e);
  });
  const target = {
    repository: pr.repository,
    installation: options.installation,
    trigger: {
      event: "gate.decision",
      action: `#${pr.number} ${holdsAfter ? "holds" : "does not hold"}`,
      delivery_id: null,
    },
  };
  const jobs = due.map((e) => entryJob(target, e.issue_number));

  const decidedOn = new Map((facts.entries ?? []).map((e) => [e.issue_number, e.state]));
  const changedSince =
    mentionsChanged &&
    entries.some((e) => now(e) && !before(e) && decidedOn.get(e.issue_number) !== e.state);
  if (changedSince) jobs.push(pullRequestPassAgain(pr.repository, pr.number, options));
  return { jobs, entries: due.map((e) => e.issue_number), gatePass: changedSince };
}

function pullRequestPassAgain(
  repository: string,
  number: number,
  options: { installation: number },
): NewJob {
  return jobOf(GATE_JOBS.pullRequest, {
    repository,
    installation: options.installation,
    number,
    trigger: { event: "entries.mention", action: "changed while read", delivery_id: null },
  });
}
