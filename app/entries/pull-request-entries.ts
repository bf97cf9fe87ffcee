/**
 * A pull request closed or reopened: every unresolved entry that names it (its form's
 * "Blocking pull request") gets a pass, which reads whether the pull request is open and derives
 * the entry's priority label from it (`agate:blocking` while an agent waits on it, else
 * `agate:background`). A pull request the dashboard lists (its newest decision escalated,
 * stalled or capped) that closes or reopens queues the dashboard's refresh. Reads
 * only agate's database; each queued job makes its own calls.
 */

import { listedOnDashboard } from "../../checks/dashboard/pulls.js";
import {
  entryKey,
  JOB_KINDS,
  type JobPayloadInput,
  type PullRequestEntriesJob,
} from "../../schemas/jobs.js";
import { queueDashboardRefresh } from "../dashboard/queue.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";

export async function runPullRequestEntriesJob(
  job: PullRequestEntriesJob,
  deps: {
    store: Pick<EntryStore, "listEntries"> &
      Pick<RecordStore, "listRecords"> &
      Pick<JobQueue, "enqueue">;
  },
): Promise<string> {
  const entries = (await deps.store.listEntries({ repository: job.repository })).filter(
    (entry) => entry.fields.blocking_pull === job.number && entry.state !== "resolved",
  );
  for (const entry of entries) {
    const payload: JobPayloadInput<"entries.entry"> = {
      repository: job.repository,
      installation: job.installation,
      issue_number: entry.issue_number,
      trigger: job.trigger,
    };
    await deps.store.enqueue({
      kind: JOB_KINDS.entry,
      payload: payload as never,
      concurrency_key: entryKey(job.repository, entry.issue_number),
    });
  }
  let dashboard = "";
  // Closing takes a listed pull request off the dashboard; reopening it puts it back (a pass
  // that decides the same again stores nothing, so the gate would not queue the refresh).
  if (job.trigger.action === "closed" || job.trigger.action === "reopened") {
    const records = await deps.store.listRecords({
      repository: job.repository,
      pullNumber: job.number,
    });
    const newest = records.reduce<(typeof records)[number] | null>(
      (a, r) => (a === null || r.id > a.id ? r : a),
      null,
    );
    if (newest && listedOnDashboard(newest.decision.state)) {
      await queueDashboardRefresh(deps.store, job.repository, job.installation, job.trigger);
      dashboard = "; dashboard refresh queued";
    }
  }
  const which = entries.map((entry) => `#${entry.issue_number}`).join(", ");
  return `${job.repository}#${job.number} ${job.trigger.event}.${job.trigger.action ?? ""}: ${entries.length} entries name it${which ? ` (${which}), passes queued` : ""}${dashboard}`;
}
