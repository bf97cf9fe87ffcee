/**
 * An entry's change reaches the gate: when a handoff entry linked to pull requests (its form's
 * "Blocking pull request" names one, or their descriptions mention it) is opened or changes
 * state, their gate passes are queued, so their `agate` checks show the entry's new state (an
 * escalation escalates them, a resolution moves them on). The entry job hands these jobs to the
 * store in the same transaction as the change (EntryStore's `jobs`), so a change is never stored
 * without its passes.
 */
import type { HandoffEntryDraft } from "../../schemas/handoff-entry.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { jobOf } from "../../schemas/jobs/index.js";
import type { NewJob } from "../../schemas/store.js";

type EntryView = Pick<HandoffEntryDraft, "repository" | "issue_number" | "state" | "fields">;

/**
 * The gate passes for the pull requests linked to an entry, when the change matters to them: the
 * entry is new (`before` null) or its state changed. Linked: the pull request its form names, and
 * `mentioning`, those whose description mentions it (entry_mentions, as their last passes read
 * them). None when nothing links it. Each pass reads the pull request and the entry afresh, so a
 * closed pull request or a later change is handled there; a queued pass that finds nothing new
 * writes nothing.
 */
export function linkedPullRequestJobs(
  before: EntryView | null,
  after: EntryView,
  installation: number,
  mentioning: readonly number[] = [],
): NewJob[] {
  if (before !== null && before.state === after.state) return [];
  const named = after.fields.blocking_pull;
  const numbers = [...new Set([...(named === null ? [] : [named]), ...mentioning])];
  return numbers.map((number) =>
    jobOf(GATE_JOBS.pullRequest, {
      repository: after.repository,
      installation,
      number,
      trigger: {
        event: "entries.entry",
        action: `${before?.state ?? "new"}→${after.state} (#${after.issue_number})`,
        delivery_id: null,
      },
    }),
  );
}
