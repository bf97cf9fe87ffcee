/**
 * An entry's change reaches the gate: when a handoff entry that names a pull request (its form's
 * "Blocking pull request") is opened or changes state, that pull request's gate pass is queued,
 * so its `agate` check shows the entry's new state (an escalation escalates it, a resolution
 * moves it on). The entry job hands these jobs to the store in the same transaction as the
 * change (EntryStore's `jobs`), so a change is never stored without its pass.
 */
import type { HandoffEntryDraft } from "../../schemas/handoff-entry.js";
import { JOB_KINDS, type JobPayloadInput, pullRequestKey } from "../../schemas/jobs.js";
import type { NewJob } from "../../schemas/store.js";

type EntryView = Pick<HandoffEntryDraft, "repository" | "issue_number" | "state" | "fields">;

/**
 * The gate pass for the pull request an entry names, when the change matters to it: the entry is
 * new (`before` null) or its state changed. None when it names no pull request. The pass reads
 * the pull request and the entry afresh, so a closed pull request or a later change is handled
 * there; a queued pass that finds nothing new writes nothing.
 */
export function linkedPullRequestJobs(
  before: EntryView | null,
  after: EntryView,
  installation: number,
): NewJob[] {
  const number = after.fields.blocking_pull;
  if (number === null) return [];
  if (before !== null && before.state === after.state) return [];
  const payload: JobPayloadInput<"gate.pull_request"> = {
    repository: after.repository,
    installation,
    number,
    trigger: {
      event: "entries.entry",
      action: `${before?.state ?? "new"}→${after.state} (#${after.issue_number})`,
      delivery_id: null,
    },
  };
  return [
    {
      kind: JOB_KINDS.pullRequest,
      payload: payload as NewJob["payload"],
      concurrency_key: pullRequestKey(after.repository, number),
    },
  ];
}
