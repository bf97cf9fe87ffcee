/**
 * Deliveries about issues → handoff entry jobs. Pure and quick, as the gate's route: it only
 * drops what cannot concern an entry (a pull request, a body without the form's headings, a
 * comment that is no command, a label agate does not own) and names the issue's pass. A pull
 * request closed or reopened reaches the entries linked to it.
 */
import { parseEntryCommand } from "../../checks/entries/commands.js";
import { parseEntryForm } from "../../checks/entries/form.js";
import { parseWait } from "../../checks/entries/priority.js";
import { isEntryLabel } from "../../checks/entries/projection.js";
import { ENTRY_JOBS } from "../../schemas/jobs/entries.js";
import { type JobInput, jobOf } from "../../schemas/jobs/index.js";
import type { NewJob } from "../../schemas/store.js";
import type { DeliveryTarget, DomainRoutes, RoutedPayload } from "../runtime/routing.js";

/** One entry's pass, under its concurrency key: the one way any part of the App queues it. */
export function entryJob(
  target: DeliveryTarget,
  issue: number,
  extra: Partial<JobInput<typeof ENTRY_JOBS.entry>> = {},
): NewJob {
  return jobOf(ENTRY_JOBS.entry, {
    repository: target.repository,
    installation: target.installation,
    issue_number: issue,
    trigger: target.trigger,
    ...extra,
  });
}

/** `issues`: opened or edited in the form's layout, closed, reopened, an entry label changed. */
function entryJobsForIssue(e: RoutedPayload<"issues">, target: DeliveryTarget): NewJob[] {
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
 * `issue_comment`: a new comment on an issue that starts with a command, or declares a wait
 * (`/wait 10m`). An edit is not one: a command is what was said when it was said, as for
 * `/agate accept`; a wait renewed by an edit is read when the wait's timer fires.
 */
function entryJobsForComment(e: RoutedPayload<"issue_comment">, target: DeliveryTarget): NewJob[] {
  if (e.action !== "created" || e.issue.pull_request !== undefined) return [];
  const body = e.comment.body ?? null;
  // A declared wait is no command, but it can make the entry blocking: its pass derives that.
  if (parseEntryCommand(body) === null && parseWait(body) === null) return [];
  return [entryJob(target, e.issue.number)];
}

/**
 * `pull_request` closed or reopened: an entry linked to the pull request is `agate:blocking`
 * while it is open and the gate holds it, so the entries linked to it derive that again
 * (app/entries/pull-request-entries.ts). Opening and editing need nothing here: the gate pass
 * queues the entries whose priority its decision changes.
 */
function entryJobsForPullRequest(
  e: RoutedPayload<"pull_request">,
  target: DeliveryTarget,
): NewJob[] {
  if (e.action !== "closed" && e.action !== "reopened") return [];
  return [
    jobOf(ENTRY_JOBS.pullRequestEntries, {
      repository: target.repository,
      installation: target.installation,
      number: e.pull_request.number,
      trigger: target.trigger,
    }),
  ];
}

/** The entries' routes. */
export const entryRoutes: DomainRoutes = {
  events: {
    issues: entryJobsForIssue,
    issue_comment: entryJobsForComment,
    pull_request: entryJobsForPullRequest,
  },
};
