import { describe, expect, it } from "vitest";
import type { DecisionState } from "../../schemas/acceptance-record.js";
import type { LinkedEntryFact, PriorRecord } from "../../schemas/gate.js";
import type { HandoffEntryState } from "../../schemas/handoff-entry.js";
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { ENTRY_FIELDS, entryDraft } from "../../test/support/entry-fixture.js";
import { gateFacts } from "../../test/support/gate-facts.js";
import { useSqliteStore } from "../../test/support/sqlite-store.js";
import { recordInput } from "../../test/support/store.js";
import type { SqliteStore } from "../store/sqlite-store.js";
import { type EntryPriorityStore, queueEntryPriorityPasses } from "./entry-priority.js";

const REPO = "octo/widgets";
const PULL = 7;
const AT = "2026-01-01T00:00:00.000Z";
const HEAD_1 = "a".repeat(40);

const store = useSqliteStore();

async function entry(issue: number, state: HandoffEntryState, blockingPull: number | null = null) {
  const draft = entryDraft({
    repository: REPO,
    issue_number: issue,
    fields: { ...ENTRY_FIELDS, blocking_pull: blockingPull },
    state,
    opened_at: AT,
    state_changed_at: AT,
  });
  await store().createEntry({
    entry: draft,
    event: {
      kind: "opened",
      actor: "agent-a",
      comment_id: null,
      reason: "opened",
      reply: null,
      mentions: [],
      at: AT,
    },
  });
}

/** A decision stored for the pull request, as a pass's apply stores it. */
async function decided(state: DecisionState): Promise<PriorRecord> {
  const stored = await store().appendRecord(
    recordInput({
      repository: REPO,
      pull_number: PULL,
      head_sha: HEAD_1,
      decision: { state, head_tree_sha: null, replayed_from: null, reasons: [] },
    }),
  );
  return {
    id: stored.id,
    head_sha: stored.head_sha,
    base_sha: stored.base_sha,
    tree_sha: null,
    state,
    config_digest: stored.grader.config_digest,
    agate_version: stored.grader.agate_version,
    decided_at: stored.decided_at,
    stale: null,
  };
}

const linked = (issue: number, state: HandoffEntryState): LinkedEntryFact => ({
  issue_number: issue,
  state,
  author: "agent-a",
  owner: null,
  escalation_reason: null,
  why: null,
  question: "q?",
  state_changed_at: AT,
});

/** The store, with the name of every method called on it listed in `calls`. */
function recording(target: SqliteStore): { store: EntryPriorityStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return value.apply(object, args);
      };
    },
  });
  return { store: proxy, calls };
}

/** One pass's queueing (and storing of its mentions), as apply makes it. */
async function pass(options: {
  prior: PriorRecord[];
  entries: LinkedEntryFact[];
  mentions: number[];
  /** The store the pass uses (default: the test's). */
  via?: EntryPriorityStore;
  /** An earlier run of the job stopped part-way. */
  retried?: boolean;
}) {
  const facts = gateFacts({
    pull_request: { ...gateFacts().pull_request, repository: REPO, number: PULL },
    prior_records: options.prior,
    entries: options.entries,
  });
  return queueEntryPriorityPasses(options.via ?? store(), {
    facts,
    installation: 1,
    mentionedNow: options.mentions,
    ...(options.retried ? { retried: true } : {}),
  });
}

describe("queueEntryPriorityPasses", () => {
  it("the hold beginning and ending reaches every unresolved entry linked, named or mentioned; the same hold again reaches none", async () => {
    await entry(3, "open", PULL);
    await entry(4, "claimed");
    await entry(5, "resolved", PULL);
    await entry(6, "open");
    // First decision: pending, so the gate now holds it (nothing before).
    const pending = await decided("pending");
    let result = await pass({
      prior: [],
      entries: [linked(3, "open"), linked(4, "claimed"), linked(5, "resolved")],
      mentions: [4],
    });
    expect(result).toEqual({ entries: [3, 4], gatePass: false });
    // Same hold, same mentions: nothing.
    result = await pass({
      prior: [pending],
      entries: [linked(3, "open"), linked(4, "claimed"), linked(5, "resolved")],
      mentions: [4],
    });
    expect(result).toEqual({ entries: [], gatePass: false });
    // Accepted: the hold ends.
    await decided("accepted");
    result = await pass({
      prior: [pending],
      entries: [linked(3, "open"), linked(4, "claimed"), linked(5, "resolved")],
      mentions: [4],
    });
    expect(result).toEqual({ entries: [3, 4], gatePass: false });
  });

  it("mentions changed while the gate holds: only the entries mentioned before or now, not those named anyway", async () => {
    await entry(3, "open", PULL);
    await entry(4, "open");
    await entry(5, "open");
    await entry(6, "open");
    const pending = await decided("pending");
    await pass({ prior: [], entries: [linked(3, "open"), linked(4, "open")], mentions: [3, 4] });
    const result = await pass({
      prior: [pending],
      entries: [linked(3, "open"), linked(5, "open")],
      // 3 is named by its form: linked either way. 99 is no entry.
      mentions: [5, 99],
    });
    expect(result).toEqual({ entries: [4, 5], gatePass: false });
  });

  it("a retried pass queues every linked entry: its first run may have stored the hold's change and stopped before queueing", async () => {
    await entry(3, "open", PULL);
    await entry(4, "claimed");
    await entry(5, "resolved", PULL);
    // The first run stored the decision and the mentions, then stopped (a crash): the retry finds
    // the same hold before and after, and the same mentions.
    const pending = await decided("pending");
    await store().replaceEntryMentions({ repository: REPO, pullNumber: PULL, issues: [4] });
    const facts = {
      prior: [pending],
      entries: [linked(3, "open"), linked(4, "claimed")],
      mentions: [4],
    };
    expect(await pass(facts)).toEqual({ entries: [], gatePass: false });
    expect(await pass({ ...facts, retried: true })).toEqual({ entries: [3, 4], gatePass: false });
    const queued = await store().listJobs({ kind: ENTRY_JOBS.entry.kind });
    expect(queued).toHaveLength(2);
  });

  it("changed mentions are stored in one write with the passes they call for, never before them", async () => {
    await entry(4, "open");
    await entry(5, "open");
    const pending = await decided("pending");
    await pass({ prior: [], entries: [linked(4, "open")], mentions: [4] });
    const { store: counted, calls } = recording(store());
    const result = await pass({
      prior: [pending],
      entries: [linked(5, "open")],
      mentions: [5],
      via: counted,
    });
    expect(result).toEqual({ entries: [4, 5], gatePass: false });
    // A crash can store both or neither: a retry finds the mentions still changed.
    expect(calls.filter((c) => c === "replaceEntryMentions" || c === "enqueue")).toEqual([
      "replaceEntryMentions",
    ]);
    expect(await store().listEntryMentions({ repository: REPO, pullNumber: PULL })).toEqual([5]);
  });

  it("mentions changed while the gate does not hold: no entry's priority moves", async () => {
    await entry(4, "open");
    const accepted = await decided("accepted");
    await pass({ prior: [], entries: [linked(4, "open")], mentions: [4] });
    const result = await pass({ prior: [accepted], entries: [], mentions: [] });
    expect(result).toEqual({ entries: [], gatePass: false });
  });

  it("an entry newly mentioned that changed after the pass read it: the pull request's pass again", async () => {
    await entry(4, "escalated");
    const pending = await decided("pending");
    await pass({ prior: [], entries: [], mentions: [] });
    // The pass read the entry open; it is escalated by now.
    const result = await pass({ prior: [pending], entries: [linked(4, "open")], mentions: [4] });
    expect(result).toEqual({ entries: [4], gatePass: true });
    const jobs = await store().listJobs({ kind: GATE_JOBS.pullRequest.kind });
    expect(jobs.map((j) => GATE_JOBS.pullRequest.payload.parse(j.payload).number)).toEqual([PULL]);
  });

  it("nothing links the pull request: no read beyond the mentions, nothing queued", async () => {
    await entry(4, "open");
    await decided("pending");
    const { store: counted, calls } = recording(store());
    expect(await pass({ prior: [], entries: [], mentions: [], via: counted })).toEqual({
      entries: [],
      gatePass: false,
    });
    // The stored mentions are the one read: no records, no entries, no write.
    expect(calls).toEqual(["listEntryMentions"]);
    expect(await store().listJobs({})).toEqual([]);
  });
});
