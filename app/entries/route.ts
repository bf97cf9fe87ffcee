/**
 * Deliveries about issues → handoff entry jobs. Pure and quick, as the gate's route: it only
 * drops what cannot concern an entry (a pull request, a body without the form's headings, a
 * comment that is no command, a label agate does not own) and names the issue's pass.
 */
import type { z } from "zod";
import { parseEntryCommand } from "../../checks/entries/commands.js";
import { parseEntryForm } from "../../checks/entries/form.js";
import { isEntryLabel } from "../../checks/entries/projection.js";
import {
  entryKey,
  JOB_KINDS,
  type JobPayloadInput,
  type Trigger,
} from "../../schemas/jobs/gate.js";
import type { NewJob } from "../../schemas/store.js";
import type { issueCommentEventSchema, issuesEventSchema } from "../../schemas/webhooks.js";

export interface Target {
  repository: string;
  installation: number;
  trigger: Trigger;
}

/** One entry's pass, under its concurrency key: the one way any part of the App queues it. */
export function entryJob(
  target: Target,
  issue: number,
  extra: Partial<JobPayloadInput<"entries.entry">> = {},
): NewJob {
  const payload: JobPayloadInput<"entries.entry"> = {
    repository: target.repository,
    installation: target.installation,
    issue_number: issue,
    trigger: target.trigger,
    ...extra,
  };
  return {
    kind: JOB_KINDS.entry,
    payload: payload as NewJob["payload"],
    concurrency_key: entryKey(target.repository, issue),
  };
}

/** `issues`: opened or edited in the form's layout, closed, reopened, an entry label changed. */
export function entryJobsForIssue(e: z.output<typeof issuesEventSchema>, target: Target): NewJob[] {
  if (e.issue.pull_request !== undefined) return [];
  const by = e.sender?.login ?? "someone";
  switch (e.action) {
    case "opened":
    case "edited":
      return parseEntryForm(e.issue.body ?? null).kind === "not_an_entry"
        ? []
        : [entryJob(target, e.issue.number)];
    case "closed":
    case "reopened":
      return [entryJob(target, e.issue.number, { state_change: { action: e.action, by } })];
    case "labeled":
    case "unlabeled": {
      const label = e.label?.name;
      if (label === undefined || !isEntryLabel(label)) return [];
      return [entryJob(target, e.issue.number, { label_change: { label, action: e.action, by } })];
    }
    default:
      return [];
  }
}

/**
 * `issue_comment`: a new comment on an issue that starts with a command. An edit is not one: a
 * command is what was said when it was said, as for `/agate accept`.
 */
export function entryJobsForComment(
  e: z.output<typeof issueCommentEventSchema>,
  target: Target,
): NewJob[] {
  if (e.action !== "created" || e.issue.pull_request !== undefined) return [];
  if (parseEntryCommand(e.comment.body ?? null) === null) return [];
  return [entryJob(target, e.issue.number)];
}
