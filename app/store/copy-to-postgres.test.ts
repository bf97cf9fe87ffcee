/**
 * The SQLite → PostgreSQL copy on real databases: a SQLite file with rows in every table
 * (a pruned delivery, a running job, a stale record, an entry with a posted reply …) reads the
 * same through the PostgreSQL store afterwards; a non-empty target is refused with nothing
 * written; ids go on after the copied ones.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { entryDraft, openedEvent } from "../../test/support/entry-fixture.js";
import {
  delivery,
  evaluation,
  freshPostgresDatabase,
  frozenClock,
  override,
  recordInput,
  SHA_A,
  SHA_B,
  sixDeliveries,
  tempDir,
  WEEK,
} from "../../test/support/store.js";
import { COPY_ORDER, CopyError, copySqliteToPostgres } from "./copy-to-postgres.js";
import { PostgresStore } from "./postgres/postgres-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { Store } from "./store.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const REPO = "octo/repo";
const PR = { repository: REPO, pullNumber: 12 };
const ENTRY = { repository: REPO, issueNumber: 7 };
const AT = "2025-01-01T00:00:00.000Z";

/** A SQLite file with at least one row in every table agate has. */
async function filledSqlite(): Promise<string> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const file = join(dir, "agate.db");
  const clock = frozenClock();
  const store = SqliteStore.open(file, { now: clock.now });
  await sixDeliveries(store, clock);
  clock.advance(1);
  expect((await store.pruneDeliveryPayloads({ retentionMs: WEEK })).pruned).toBe(3);
  await store.enqueue({ kind: "gate.reconcile", payload: null }, { dedupeKey: "reconcile" });
  await store.appendRecord(recordInput());
  await store.appendRecord(recordInput({ head_sha: SHA_B }));
  await store.markStale({ ...PR, supersededBy: SHA_B, at: AT });
  await store.appendEvaluation(evaluation());
  await store.appendOverride(override());
  await store.recordMergeCommit({ ...recordKey(), merge_sha: SHA_B, observed_at: AT });
  await store.recordHeadObservation({
    repository: REPO,
    head_sha: SHA_A,
    pull_number: 12,
    base_ref: "main",
    base_sha: SHA_B,
    observed_at: AT,
  });
  const sighted = JSON.stringify({ repository: { full_name: REPO } });
  await store.recordDelivery({
    delivery: { ...delivery("sighted", sighted), received_at: AT },
    payload: sighted,
    jobs: [],
    sightings: [{ repository: REPO, pull_number: 12, head_sha: SHA_A, base_ref: "evil" }],
  });
  await store.recordPullRequestSighting({
    repository: REPO,
    pull_number: 12,
    updated_at: AT,
    digest: "a".repeat(64),
    observed_at: AT,
  });
  await store.recordCheckRun({
    repository: REPO,
    head_sha: SHA_A,
    check: {
      id: 9,
      status: "completed",
      conclusion: "success",
      title: "Accepted",
      summary: "ok",
      startedAt: AT,
      externalId: `agate:${REPO}#12@${SHA_A}`,
    },
    written_at: AT,
  });
  await store.beginCheckRunWrite({ repository: REPO, headSha: SHA_B });
  const { entry } = await store.createEntry({
    entry: entryDraft({ repository: REPO, opened_at: AT, state_changed_at: AT }),
    event: openedEvent(AT),
  });
  await store.markEntryEventPosted({ ...ENTRY, version: entry.version, at: AT });
  await store.replaceEntryMentions({ ...PR, issues: [ENTRY.issueNumber, 9] });
  await store.appendAudit(
    { kind: "gate.decision", subject: REPO, decision: {}, facts: {}, at: AT },
    { dedupeKey: "job:1" },
  );
  // One write made (GitHub's id known), one recorded and not known made.
  for (const key of ["done", "pending"]) {
    await store.recordWriteIntent({
      key,
      scope: "job:1",
      repository: REPO,
      target: 12,
      kind: "comment",
      body: `the ${key} reply`,
      marker: createHash("sha256").update(key).digest("hex").slice(0, 16),
    });
  }
  await store.completeWriteIntent({ key: "done", githubId: 4_000_000_001 });
  await store.close();
  return file;
}

function recordKey() {
  return { repository: REPO, pull_number: 12, head_sha: SHA_A };
}

/** What the store answers about everything filledSqlite wrote, through the ports. */
async function everything(store: Store) {
  const deliveries = await Promise.all(
    ["done", "dead", "queued", "running", "none", "young"].map((id) => store.getDeliveryRecord(id)),
  );
  return {
    deliveries,
    payload: await store.getDelivery("queued"),
    jobs: await store.listJobs(),
    records: await store.listRecords(PR),
    repositories: await store.listRepositories(),
    evaluations: await store.listEvaluations(PR),
    overrides: await store.listOverrides({ ...PR, headSha: SHA_A }),
    merges: await store.listMergeCommits({ ...PR, headSha: SHA_A }),
    heads: await store.listHeadObservations({ repository: REPO, headSha: SHA_A }),
    newestHead: await store.newestHead(PR),
    sighting: await store.latestPullRequestSighting(PR),
    check: await store.knownCheckRun({ repository: REPO, headSha: SHA_A }),
    inFlight: await store.knownCheckRun({ repository: REPO, headSha: SHA_B }),
    entries: await store.listEntries(),
    events: await store.listEntryEvents(ENTRY),
    mentions: await store.listEntryMentions(PR),
    mentioning: await store.listMentioningPullRequests(ENTRY),
    audit: await store.listAudit(),
    // The copied dedupe key still holds: the same append returns the copied row.
    auditOnce: await store.appendAudit(
      { kind: "x", subject: "y", decision: null, facts: null, at: AT },
      { dedupeKey: "job:1" },
    ),
    intents: await store.listPendingWriteIntents({ scope: "job:1" }),
    intentDone: (
      await store.recordWriteIntent({
        key: "done",
        scope: "job:1",
        repository: REPO,
        target: 12,
        kind: "comment",
        body: "again",
        marker: "f".repeat(16),
      })
    ).intent,
  };
}

describe("copying a SQLite database into PostgreSQL", () => {
  it("copies every table so the PostgreSQL store reads the same, and ids go on after the copied ones", async () => {
    const file = await filledSqlite();
    const target = await freshPostgresDatabase({ empty: true });
    cleanups.push(target.drop);
    const lines: string[] = [];

    const result = await copySqliteToPostgres({
      from: `file:${file}`,
      to: target.url,
      log: (l) => lines.push(l),
    });
    expect(result.tables.map((t) => t.table)).toEqual([...COPY_ORDER]);
    // Every table had rows to copy: none of them is left out by this test.
    expect(result.tables.filter((t) => t.rows === 0)).toEqual([]);
    expect(lines).toHaveLength(COPY_ORDER.length);

    const sqlite = SqliteStore.open(file);
    const postgres = await PostgresStore.open({ url: target.url, poolSize: 2 });
    cleanups.push(() => postgres.close());
    const before = await everything(sqlite);
    await sqlite.close();
    expect(await everything(postgres)).toEqual(before);
    // A pruned delivery stays pruned; its placeholder payload is gone.
    await expect(postgres.getDelivery("done")).rejects.toThrow(/pruned/);

    const next = await postgres.enqueue({ kind: "a", payload: null });
    expect(next.id).toBeGreaterThan(Math.max(...before.jobs.map((j) => j.id)));
    // The dedupe key came along: the copied reconcile job still holds it.
    const held = before.jobs.find((j) => j.kind === "gate.reconcile");
    expect(
      (await postgres.enqueue({ kind: "gate.reconcile", payload: 1 }, { dedupeKey: "reconcile" }))
        .id,
    ).toBe(held?.id);
  });

  it("refuses a target that holds agate data, writing nothing", async () => {
    const file = await filledSqlite();
    const target = await freshPostgresDatabase();
    cleanups.push(target.drop);
    const postgres = await PostgresStore.open({ url: target.url, poolSize: 1 });
    cleanups.push(() => postgres.close());
    await postgres.appendAudit({ kind: "k", subject: "s", decision: {}, facts: {}, at: AT });

    const refused = await copySqliteToPostgres({ from: file, to: target.url }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(CopyError);
    expect((refused as Error).message).toMatch(
      /already holds agate data \(audit_log: 1\): copy into an empty database .* Nothing was written/,
    );
    expect(await postgres.listJobs()).toEqual([]);
    expect(await postgres.listAudit()).toHaveLength(1);
  });

  it("rolls back a copy whose rows PostgreSQL did not store as sent (the digests differ)", async () => {
    const file = await filledSqlite();
    const target = await freshPostgresDatabase();
    cleanups.push(target.drop);
    // A target that changes what it is given: the counts agree, the contents do not.
    const raw = new pg.Client({ connectionString: target.url });
    await raw.connect();
    await raw.query(`CREATE FUNCTION tamper() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.subject := NEW.subject || ' (changed)'; RETURN NEW; END $$`);
    await raw.query(
      "CREATE TRIGGER tamper BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION tamper()",
    );
    await raw.end();

    const refused = await copySqliteToPostgres({ from: file, to: target.url }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(CopyError);
    expect((refused as Error).message).toMatch(
      /does not check out \(audit_log: 1 rows in SQLite, 1 in PostgreSQL, digests \w{12} and \w{12}\): it was rolled back, nothing was written/,
    );
    const postgres = await PostgresStore.open({ url: target.url, poolSize: 1 });
    cleanups.push(() => postgres.close());
    expect(await postgres.listJobs()).toEqual([]);
    expect(await postgres.listAudit()).toEqual([]);
  });

  it("says what is wrong with the source or the target", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    await expect(
      copySqliteToPostgres({ from: join(dir, "missing.db"), to: "postgres://u:p@127.0.0.1/x" }),
    ).rejects.toThrow(/there is no file .*missing\.db; name the SQLite database the App used/);
    await expect(
      copySqliteToPostgres({ from: join(dir, "a.db"), to: `file:${join(dir, "b.db")}` }),
    ).rejects.toThrow(/the target must be a PostgreSQL URL/);
    await expect(
      copySqliteToPostgres({ from: "postgres://u:secret@127.0.0.1/x", to: "postgres://u@h/x" }),
    ).rejects.toThrow(/the source must be a SQLite database file/);
  });
});
