/**
 * The EntryStore port's contract: its behaviour through the port alone, run against every
 * backend in STORE_BACKENDS (test/support/store.ts).
 */
import { describe, expect, it } from "vitest";
import type { EntryEventInput, HandoffEntryDraft } from "../../../schemas/handoff-entry.js";
import { entryDraft, openedEvent } from "../../../test/support/entry-fixture.js";
import {
  type OpenContractDatabase,
  STORE_BACKENDS,
  useContractDatabase,
} from "../../../test/support/store.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { type EntryStore, EntryVersionConflictError } from "../ports/entry-store.js";
import type { JobQueue } from "../ports/job-queue.js";

const KEY = { repository: "octo/repo", issueNumber: 7 };
const AT = "2025-01-01T00:00:00.000Z";

function draft(overrides: Partial<HandoffEntryDraft> = {}): HandoffEntryDraft {
  return entryDraft({
    deadline: { kind: "unanswered", at: "2025-01-01T00:30:00.000Z" },
    ...overrides,
  });
}

function event(overrides: Partial<EntryEventInput> = {}): EntryEventInput {
  return { ...openedEvent(AT), ...overrides };
}

const claimed = () => draft({ state: "claimed", owner: "agent-b", comments_through: 11 });
const claimEvent = () => event({ kind: "claimed", actor: "agent-b", comment_id: 11 });

function entryStoreContract(
  backend: string,
  open: OpenContractDatabase<EntryStore & JobQueue>,
): void {
  describe(`EntryStore contract: ${backend}`, () => {
    const t = useContractDatabase(open);

    it("creates version 1 with its event once; a second create returns the stored entry and writes nothing", async () => {
      const store = t.port;
      const first = await store.createEntry({ entry: draft(), event: event() });
      expect(first).toEqual({ created: true, entry: { ...draft(), version: 1 } });
      const again = await store.createEntry({
        entry: draft({ author: "someone-else" }),
        event: event({ actor: "someone-else" }),
      });
      expect(again).toEqual({ created: false, entry: first.entry });
      expect(await store.listEntryEvents(KEY)).toEqual([
        {
          ...event(),
          id: expect.any(Number),
          repository: "octo/repo",
          issue_number: 7,
          version: 1,
          from_state: null,
          to_state: "open",
          posted_at: null,
        },
      ]);
    });

    it("updates only at the expected version, bumping it by one and appending the event with both states", async () => {
      const store = t.port;
      await store.createEntry({ entry: draft(), event: event() });
      const next = await store.updateEntry({
        expectedVersion: 1,
        entry: claimed(),
        event: claimEvent(),
      });
      expect(next).toEqual({ ...claimed(), version: 2 });
      expect(await store.getEntry(KEY)).toEqual(next);
      await expect(
        store.updateEntry({
          expectedVersion: 1,
          entry: draft({ state: "blocked" }),
          event: event({ kind: "blocked", actor: "agate" }),
        }),
      ).rejects.toThrow(EntryVersionConflictError);
      const events = await store.listEntryEvents(KEY);
      expect(events.map((e) => [e.version, e.from_state, e.to_state, e.kind])).toEqual([
        [1, null, "open", "opened"],
        [2, "open", "claimed", "claimed"],
      ]);
      expect((await store.getEntry(KEY))?.state).toBe("claimed");
    });

    it("two writers that read the same version: one wins, the other conflicts and writes nothing", async () => {
      const a = t.port;
      const b = await t.connect();
      await a.createEntry({ entry: draft(), event: event() });
      const results = await Promise.allSettled([
        a.updateEntry({ expectedVersion: 1, entry: claimed(), event: claimEvent() }),
        b.updateEntry({
          expectedVersion: 1,
          entry: draft({ state: "blocked", deadline: null }),
          event: event({ kind: "blocked", actor: "agate" }),
        }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(await b.listEntryEvents(KEY)).toHaveLength(2);
      await b.close();
    });

    it("records a comment's command once: the same comment id again is a conflict", async () => {
      const store = t.port;
      await store.createEntry({ entry: draft(), event: event() });
      await store.updateEntry({ expectedVersion: 1, entry: claimed(), event: claimEvent() });
      await expect(
        store.updateEntry({
          expectedVersion: 2,
          entry: claimed(),
          event: event({ kind: "refused", actor: "agent-b", comment_id: 11 }),
        }),
      ).rejects.toThrow(/comment 11 was recorded at version 2/);
      expect(await store.getEntry(KEY)).toMatchObject({ version: 2 });
    });

    it("enqueues a change's jobs in its transaction, and none when the change is refused", async () => {
      const store = t.port;
      const timer = {
        kind: "entries.deadline",
        payload: { at: "2025-01-01T00:30:00.000Z" },
        run_at: "2025-01-01T00:30:00.000Z",
      };
      await store.createEntry({ entry: draft(), event: event(), jobs: [timer] });
      await expect(
        store.updateEntry({
          expectedVersion: 5,
          entry: claimed(),
          event: claimEvent(),
          jobs: [timer],
        }),
      ).rejects.toThrow(EntryVersionConflictError);
      const jobs = await store.listJobs({ kind: "entries.deadline" });
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ run_at: "2025-01-01T00:30:00.000Z", status: "queued" });
    });

    it("marks a reply posted once; the first time is kept; an unknown version is NotFound", async () => {
      const store = t.port;
      await store.createEntry({ entry: draft(), event: event() });
      await store.markEntryEventPosted({ ...KEY, version: 1, at: "2025-01-01T00:00:01.000Z" });
      await store.markEntryEventPosted({ ...KEY, version: 1, at: "2025-01-01T00:05:00.000Z" });
      expect((await store.listEntryEvents(KEY))[0]?.posted_at).toBe("2025-01-01T00:00:01.000Z");
      await expect(store.markEntryEventPosted({ ...KEY, version: 9, at: AT })).rejects.toThrow(
        NotFoundError,
      );
    });

    it("refuses an entry outside its schema and an update of a missing entry, writing nothing", async () => {
      const store = t.port;
      await expect(
        store.createEntry({ entry: draft({ state: "done" as never }), event: event() }),
      ).rejects.toThrow(InvalidInputError);
      await expect(
        store.updateEntry({ expectedVersion: 1, entry: draft(), event: event() }),
      ).rejects.toThrow(NotFoundError);
      expect(await store.getEntry(KEY)).toBeNull();
      expect(await store.listEntries()).toEqual([]);
    });

    it("lists entries by repository and state, across a reopen", async () => {
      const writer = t.port;
      await writer.createEntry({ entry: draft(), event: event() });
      await writer.createEntry({ entry: draft({ issue_number: 8 }), event: event() });
      await writer.createEntry({
        entry: draft({ repository: "octo/other", issue_number: 1 }),
        event: event(),
      });
      await writer.updateEntry({ expectedVersion: 1, entry: claimed(), event: claimEvent() });
      await writer.close();
      const reader = await t.connect();
      expect(
        (await reader.listEntries({ repository: "octo/repo" })).map((e) => e.issue_number),
      ).toEqual([7, 8]);
      expect(
        (await reader.listEntries({ states: ["claimed"] })).map((e) => [e.repository, e.owner]),
      ).toEqual([["octo/repo", "agent-b"]]);
      expect(await reader.listEntries({ states: ["open"] })).toHaveLength(2);
      expect(await reader.listEntries()).toHaveLength(3);
    });
  });
}

for (const backend of STORE_BACKENDS) entryStoreContract(backend.name, backend.open);
