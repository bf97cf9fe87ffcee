/**
 * An entry's timer firing: when the deadline is still the entry's, the entry's own pass is
 * queued (under its concurrency key, so it runs in order with its comment jobs); that pass
 * reads the comments first, so an answer made in time is never overtaken by its own timer.
 */
import type { EntryDeadlineJob } from "../../schemas/jobs/entries.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import { entryJob } from "./route.js";

export async function runEntryDeadlineJob(
  job: EntryDeadlineJob,
  deps: { store: EntryStore & JobQueue },
): Promise<string> {
  const where = `${job.repository}#${job.issue_number}`;
  if (job.timer === "wait") {
    // The author's declared wait ran out (or was renewed since): the pass derives it again.
    const trigger = { event: "timer", action: "wait runs out", delivery_id: null };
    await deps.store.enqueue(entryJob({ ...job, trigger }, job.issue_number), {
      dedupeKey: `timer:${job.repository}#${job.issue_number}@wait ${job.deadline_at}`,
    });
    return `${where}: a declared wait ran out at ${job.deadline_at}, pass queued`;
  }
  const entry = await deps.store.getEntry({
    repository: job.repository,
    issueNumber: job.issue_number,
  });
  // A later change set another deadline (its own timer is queued) or none: this one is moot.
  if (!entry?.deadline || entry.deadline.at !== job.deadline_at) {
    return `${where}: timer for ${job.deadline_at} superseded`;
  }
  const trigger = { event: "timer", action: entry.deadline.kind, delivery_id: null };
  // Two replicas firing the same timer queue one pass.
  await deps.store.enqueue(entryJob({ ...job, trigger }, job.issue_number), {
    dedupeKey: `timer:${job.repository}#${job.issue_number}@${job.deadline_at}`,
  });
  return `${where}: ${entry.deadline.kind} deadline ${job.deadline_at} reached, pass queued`;
}
