/**
 * What the store remembers about a pull request and its head, read first in every pass: its
 * records, the test merge commits, overrides, sightings and bases of the head, the entries, and the
 * entries its description mentioned when a pass last stored them. checks/gate/reads.ts
 * (`storedFacts`) makes them facts; this only reads them.
 */
import type { StoredReads } from "../../../checks/gate/reads.js";
import type { PullRequestSnapshot } from "../../../schemas/gate.js";
import type { BaseSightingStore } from "../../store/ports/base-sighting-store.js";
import type { EntryMentionStore } from "../../store/ports/entry-mention-store.js";
import type { EntryStore } from "../../store/ports/entry-store.js";
import type { ObservationStore } from "../../store/ports/observation-store.js";
import type { OverrideStore } from "../../store/ports/override-store.js";
import type { RecordStore } from "../../store/ports/record-store.js";

export async function readStored(
  store: RecordStore &
    OverrideStore &
    ObservationStore &
    BaseSightingStore &
    Pick<EntryStore, "listEntries"> &
    Pick<EntryMentionStore, "listEntryMentions">,
  pr: PullRequestSnapshot,
): Promise<StoredReads & { mentions: number[] }> {
  const key = { repository: pr.repository, pullNumber: pr.number };
  const head = { repository: pr.repository, headSha: pr.head_sha };
  const [records, mergeCommits, overrides, sightings, bases, entries, mentions] = await Promise.all(
    [
      store.listRecords(key),
      store.listMergeCommits({ ...key, headSha: pr.head_sha }),
      store.listOverrides({ ...key, headSha: pr.head_sha }),
      store.listHeadObservations(head),
      store.listBaseSightings(head),
      store.listEntries({ repository: pr.repository }),
      store.listEntryMentions(key),
    ],
  );
  return { records, mergeCommits, overrides, sightings, bases, entries, mentions };
}
