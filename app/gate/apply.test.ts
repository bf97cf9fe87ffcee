import { describe, expect, it } from "vitest";
import { decidePass } from "../../checks/gate/plan.js";
import type { PhasedEffects, StoreEffect } from "../../schemas/effects.js";
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { jobOf } from "../../schemas/jobs/index.js";
import { storedEntry } from "../../test/support/entry-fixture.js";
import { gateFacts, HEAD, TREE } from "../../test/support/gate-facts.js";
import { passSeen } from "../../test/support/gate-pass.js";
import { useSqliteStore } from "../../test/support/sqlite-store.js";
import { GitHubAdapter, type GitHubClient } from "../github/adapter.js";
import type { SqliteStore } from "../store/sqlite-store.js";
import { type ApplyStore, applyEffects } from "./apply.js";
import { AgateChecks } from "./check-runs.js";

/** A client that fails the test if anything reaches GitHub: these effects write nothing there. */
const noGitHub = new Proxy({} as GitHubClient, {
  get: (_target, name) => {
    throw new Error(`effects without GitHub writes reached GitHub (${String(name)})`);
  },
});
const github = new GitHubAdapter(noGitHub, "octo/widgets", "agate");

/** The store, failing the test on any read: apply carries out what it is told and reads nothing. */
function writeOnly(target: SqliteStore): ApplyStore {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      if (/^(list|get|latest|known|count)/.test(String(property))) {
        return () => {
          throw new Error(`apply read the store (${String(property)})`);
        };
      }
      return value.bind(object);
    },
  });
}

describe("applyEffects", () => {
  const store = useSqliteStore();
  const apply = (effects: PhasedEffects, via: ApplyStore = writeOnly(store()), retried = false) =>
    applyEffects(
      {
        github,
        checks: new AgateChecks(github, via as SqliteStore, () => new Date()),
        store: via,
        retried,
      },
      effects,
    );
  const stored = (effect: StoreEffect): PhasedEffects => ({
    first: [],
    github: [],
    after: [effect],
  });

  it("carries out a pass's effects without reading: observations, the decision stored, the jobs with the mentions", async () => {
    const facts = gateFacts();
    const entry = storedEntry({ repository: "octo/widgets", issue_number: 12 });
    const { effects } = decidePass(
      facts,
      passSeen(facts, { entry_mentions: [12], repository_entries: [entry] }),
    );
    const applied = await apply({ ...effects, github: [] });
    expect(applied).toEqual({ wroteCheck: false, storedRecord: true });
    const key = { repository: "octo/widgets", pullNumber: 7 };
    expect((await store().listRecords(key)).map((r) => r.head_sha)).toEqual([HEAD]);
    expect(await store().listAudit({ kind: "gate.decision" })).toHaveLength(1);
    expect(
      await store().listHeadObservations({ repository: "octo/widgets", headSha: HEAD }),
    ).toHaveLength(1);
    expect(await store().listEntryMentions(key)).toEqual([12]);
    expect((await store().listJobs({})).map((j) => j.kind)).toEqual([
      ENTRY_JOBS.entry.kind,
      GATE_JOBS.pullRequest.kind,
    ]);
  });

  it("a retried job: what is stored first, then its recorded comments finished, then the decision and its jobs", async () => {
    const facts = gateFacts();
    const { effects } = decidePass(facts, passSeen(facts, { retried: true }));
    const calls: string[] = [];
    const target = writeOnly(store());
    // The ledger's pending intents are the one read a retry makes (write-once.ts's finish).
    const logged = new Proxy(target, {
      get(object, property) {
        if (property === "listPendingWriteIntents") {
          return (query: { scope: string }) => {
            calls.push(String(property));
            return store().listPendingWriteIntents(query);
          };
        }
        const value = Reflect.get(object, property, object);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(String(property));
          return value.apply(object, args);
        };
      },
    });
    await apply({ ...effects, github: [] }, logged, true);
    expect(calls).toEqual([
      "markStale",
      "recordHeadObservation",
      "recordPullRequestSighting",
      "listPendingWriteIntents",
      "appendAudit",
      "appendRecord",
    ]);
  });

  it("the evaluator's key: a pass made while the same tree is queued asks nothing more; once it is being judged, a person's re-run, another tree and a later pass do", async () => {
    const ask = (tree: string, rerun = false): PhasedEffects => {
      const job = jobOf(GATE_JOBS.evaluator, {
        repository: "octo/widgets",
        installation: 1,
        number: 7,
        head_sha: HEAD,
        tree_sha: tree,
        config_digest: "d".repeat(64),
        rerun,
      });
      const dedupeKey = `gate.evaluator:octo/widgets#7@tree:${tree}:${"d".repeat(64)}`;
      return stored({
        kind: "enqueue",
        job: { ...job, concurrency_key: job.concurrency_key ?? null, max_attempts: 8 },
        dedupe: rerun ? null : { dedupeKey, until: "started" },
      });
    };
    const statuses = async () =>
      (await store().listJobs({ kind: GATE_JOBS.evaluator.kind })).map((j) => j.status);
    await apply(ask(TREE));
    await apply(ask(TREE));
    expect(await statuses()).toEqual(["queued"]);
    // Being judged (leased by a worker): the pass the job queues before it ends may ask again,
    // once; that job runs after this one and finds the verdict stored.
    const claimed = await store().claimJob({ workerId: "w", leaseMs: 60_000 });
    expect(claimed).not.toBeNull();
    await apply(ask(TREE));
    await apply(ask(TREE));
    expect(await statuses()).toEqual(["running", "queued"]);
    // A person asked again: always queued. Another tree: a job of its own.
    await apply(ask(TREE, true));
    await apply(ask("7".repeat(40)));
    expect(await statuses()).toEqual(["running", "queued", "queued", "queued"]);
    // Once the job is done, the key it held is long free: the queued one still holds it.
    if (claimed) await store().completeJob(claimed.lease);
    await apply(ask(TREE));
    expect(await statuses()).toEqual(["done", "queued", "queued", "queued"]);
  });
});
