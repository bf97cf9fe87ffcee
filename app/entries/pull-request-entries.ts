/**
 * A pull request closed or reopened: every unresolved entry linked to it (its form's "Blocking
 * pull request" names it, or its description mentions the entry, as its last gate pass read it)
 * gets a pass, which derives the entry's priority label again (`agate:blocking` while an agent
 * waits on it, else `agate:background`: checks/entries/priority.ts). A pull request the dashboard lists (its newest decision escalated,
 * stalled or capped) that closes or reopens queues the dashboard's refresh. Reads
 * only agate's database; each queued job makes its own calls.
 */

import { newestListed } from "../../checks/dashboard/pulls.js";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import type { PullRequestEntriesJob } from "../../schemas/jobs/entries.js";
import { queueJob } from "../runtime/jobs.js";
import type { EntryMentionStore } from "../store/ports/entry-mention-store.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";
import { entryJob } from "./route.js";

export async function runPullRequestEntriesJob(
  job: PullRequestEntriesJob,
  deps: {
    store: Pick<EntryStore, "listEntries"> &
      Pick<EntryMentionStore, "listEntryMentions"> &
      Pick<RecordStore, "listRecords"> &
      Pick<JobQueue, "enqueue">;
  },
): Promise<string> {
  const mentioned = await deps.store.listEntryMentions({
    repository: job.repository,
    pullNumber: job.number,
  });
  const entries = (await deps.store.listEntries({ repository: job.repository })).filter(
    (entry) =>
      (entry.fields.blocking_pull === job.number || mentioned.includes(entry.issue_number)) &&
      entry.state !== "resolved",
  );
  for (const entry of entries) await deps.store.enqueue(entryJob(job, entry.issue_number));
  // Closing takes a listed pull request off the dashboard; reopening puts it back (a pass that
  // decides the same again stores nothing, so the gate would not queue the refresh).
  const records = await deps.store.listRecords({
    repository: job.repository,
    pullNumber: job.number,
  });
  const listed = newestListed(records.map((r) => ({ id: r.id, state: r.decision.state })));
  if (listed) {
    await queueJob(deps.store, DASHBOARD_JOBS.refresh, {
      repository: job.repository,
      installation: job.installation,
      trigger: job.trigger,
    });
  }
  const which = entries.map((entry) => `#${entry.issue_number}`).join(", ");
  return `${job.repository}#${job.number} ${job.trigger.event}.${job.trigger.action ?? ""}: ${entries.length} entries linked${which ? ` (${which}), passes queued` : ""}${listed ? "; dashboard refresh queued" : ""}`;
}
