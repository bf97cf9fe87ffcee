/**
 * One handoff entry's pass, run for every event about its issue and when its timer fires: the
 * issue read live, an entry made from a valid form (or the form refused), new commands handled
 * in comment order with any deadline that passed before each, replies posted exactly once, then
 * labels and the issue's open/closed state projected from the stored entry.
 */
import type { DefaultsRead, ExtendsRef } from "../../checks/config/extends.js";
import { isListedEntryState } from "../../checks/dashboard/render.js";
import { parseEntryCommand } from "../../checks/entries/commands.js";
import { parseEntryForm } from "../../checks/entries/form.js";
import {
  applyCommand,
  applyDeadline,
  type EntryStep,
  type EscalationRules,
  needsMaintainerTest,
  openEntry,
} from "../../checks/entries/machine.js";
import { markerPrefix, renderReplyMarker } from "../../checks/entries/marker.js";
import {
  commandForLabel,
  desiredEntryLabels,
  ENTRY_LABELS,
  isEntryLabel,
  isEntryPriorityLabel,
  issueStateFor,
  planEntryLabels,
} from "../../checks/entries/projection.js";
import * as say from "../../checks/entries/replies.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { ENTRY_JOBS, type EntryJob } from "../../schemas/jobs/entries.js";
import { jobOf } from "../../schemas/jobs/index.js";
import type { NewJob } from "../../schemas/store.js";
import type { EntryIssueFact, GitHubAdapter, IssueCommentFact } from "../github/adapter.js";
import type { Account } from "../github/maintainers.js";
import { queueJob } from "../runtime/jobs.js";
import { jobScope, WriteOnce, type WriteOnceGitHub } from "../runtime/write-once.js";
import type { EntryMentionStore } from "../store/ports/entry-mention-store.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";
import type { WriteIntentLedger } from "../store/ports/write-intent-ledger.js";
import { linkedPullRequestJobs } from "./linked-pulls.js";
import { readEscalationRules } from "./rules.js";
import { agentWaits } from "./waiting.js";

/** The GitHub calls an entry's pass makes, all through the adapter. */
export type EntryGitHub = WriteOnceGitHub &
  Pick<
    GitHubAdapter,
    | "entryIssue"
    | "issueComments"
    | "comment"
    | "addLabels"
    | "removeLabel"
    | "styleLabel"
    | "setIssueState"
    | "defaultBranchFile"
    | "isPullRequestOpen"
  >;

export interface EntryDeps {
  github: EntryGitHub;
  store: EntryStore &
    JobQueue &
    EntryMentionStore &
    WriteIntentLedger &
    Pick<RecordStore, "listRecords">;
  now: () => Date;
  /** The App's bot login (`<slug>[bot]`): its own comments and label changes are no commands. */
  appLogin: string;
  /**
   * The gate's maintainer test (app/github/maintainers.ts: a person's account listed in
   * `escalation.maintainers`, teams included; write access when empty).
   */
  isMaintainer(account: Account, maintainers: string[]): Promise<boolean>;
  /** Organisation defaults as the gate remembers them (readEscalationRules' `readDefaults`). */
  readDefaults?: (ref: ExtendsRef) => Promise<DefaultsRead>;
  /** The job: what the pass writes once is keyed by it (JobContext's `jobId`). */
  jobId?: number;
  /** An earlier run of the job stopped part-way: what it recorded to write is finished. */
  retried?: boolean;
}

/**
 * What the refusal is, for a client waiting on its entry (`agate-gate entry open` looks for it
 * in the App's own comments); WriteOnce's marker, not this, makes it said once.
 */
const REFUSAL_TAG = "<!-- agate:entry-refused -->";

/** The timer job for an entry's deadline, if it has one. */
function deadlineJobs(entry: HandoffEntry | EntryStep["entry"], installation: number): NewJob[] {
  if (!entry.deadline) return [];
  const at = entry.deadline.at;
  const { repository, issue_number } = entry;
  return [
    jobOf(
      ENTRY_JOBS.deadline,
      { repository, installation, issue_number, deadline_at: at },
      { run_at: at },
    ),
  ];
}

export async function runEntryJob(job: EntryJob, deps: EntryDeps): Promise<string> {
  const where = `${job.repository}#${job.issue_number}`;
  // agate's own label and state changes come back as webhooks: nothing to do, no call made.
  const by = job.label_change?.by ?? job.state_change?.by;
  if (by !== undefined && by.toLowerCase() === deps.appLogin.toLowerCase()) {
    return `${where}: agate's own change`;
  }
  const stored = await deps.store.getEntry({
    repository: job.repository,
    issueNumber: job.issue_number,
  });
  // Any event but a label change may be the first agate hears of an entry (deliveries can come
  // out of order: a /claim before its issue's `opened`).
  if (!stored && job.label_change !== null) return `${where}: not a handoff entry`;

  const issue = await deps.github.entryIssue(job.issue_number);
  if (!issue) return `${where}: no such issue (or a pull request)`;

  const pass = entryPass(job, deps);
  const opened = stored
    ? { entry: stored, created: false }
    : await openFromForm(pass, job, deps, issue);
  if (typeof opened === "string") return `${where}: ${opened}`;
  let { entry } = opened;

  // Comments are read whenever a command or a timer may be due: a timer must see an answer
  // made in time whose webhook is still on its way, a command handles any before it, and a new
  // entry any made before agate saw it.
  if (job.trigger.event === "issue_comment" || job.trigger.event === "timer" || opened.created) {
    entry = await applyComments(pass, deps, entry, await pass.comments());
  }
  entry = await pass.deadlines(entry, deps.now());

  // Labels first: a client that sees agate's reply sees the labels it promises.
  const projected = await project(deps, entry, issue, job, pass.comments);
  const posted = await postReplies(deps, entry, pass.comments);
  const problem = pass.problem();
  const notes = problem ? [...pass.notes, problem] : pass.notes;
  return `${where} after ${job.trigger.event}${job.trigger.action ? `.${job.trigger.action}` : ""}: ${entry.state} v${entry.version}${notes.length ? ` (${notes.join(", ")})` : ""}; ${posted} replies, ${projected}`;
}

/**
 * One run of an entry's pass: its rules and the issue's comments read once (each only when
 * needed), its steps stored, notes for its log line.
 */
interface EntryPass {
  rules(): Promise<EscalationRules>;
  /**
   * The issue's comments as listed at the pass's first need. The pass's own comments posted
   * after are not in it, and need not be: a reply's and a notice's markers are looked for only
   * to find what an earlier run posted.
   */
  comments(): Promise<IssueCommentFact[]>;
  /** A problem with the rules' config, said in the log line (the defaults were used). */
  problem(): string | undefined;
  /** Stores a step with the jobs it calls for, in one transaction; the entry as stored. */
  save(current: HandoffEntry, step: EntryStep): Promise<HandoffEntry>;
  /** Applies every deadline that passed by `until`, each at its own time. */
  deadlines(current: HandoffEntry, until: Date): Promise<HandoffEntry>;
  readonly notes: string[];
}

function entryPass(job: EntryJob, deps: EntryDeps): EntryPass {
  const { github, store } = deps;
  const key = { repository: job.repository, issueNumber: job.issue_number };
  const target = { repository: job.repository, installation: job.installation };
  let rulesRead: Awaited<ReturnType<typeof readEscalationRules>> | undefined;
  let commentsRead: Promise<IssueCommentFact[]> | undefined;
  const pass: EntryPass = {
    notes: [],
    rules: async () => {
      rulesRead ??= await readEscalationRules(github, deps.readDefaults);
      return rulesRead.rules;
    },
    comments: () => {
      commentsRead ??= github.issueComments(job.issue_number);
      return commentsRead;
    },
    problem: () => rulesRead?.problem ?? undefined,
    save: async (current, step) => {
      const moved = step.entry.deadline?.at !== current.deadline?.at;
      // A change into or out of a state the dashboard lists changes it, and a state change may
      // change the gate of the pull requests linked to the entry: both are queued in the same
      // transaction, so neither is lost; a replayed command is no step and queues nothing.
      const listed =
        step.entry.state !== current.state &&
        (isListedEntryState(step.entry.state) || isListedEntryState(current.state));
      const mentioning = await store.listMentioningPullRequests(key);
      const next = await store.updateEntry({
        expectedVersion: current.version,
        entry: step.entry,
        event: step.event,
        jobs: [
          ...(moved ? deadlineJobs(step.entry, job.installation) : []),
          ...(listed ? [jobOf(DASHBOARD_JOBS.refresh, { ...target, trigger: job.trigger })] : []),
          ...linkedPullRequestJobs(current, step.entry, job.installation, mentioning),
        ],
      });
      await mentionedMeanwhile(store, current, step.entry, job.installation, mentioning);
      const moves = step.entry.state !== current.state ? ` → ${next.state}` : "";
      pass.notes.push(`${step.event.kind}${moves}`);
      return next;
    },
    deadlines: async (current, until) => {
      let e = current;
      while (e.deadline && Date.parse(e.deadline.at) <= until.getTime()) {
        const step = applyDeadline(e, new Date(e.deadline.at), await pass.rules());
        if (!step) break;
        e = await pass.save(e, step);
      }
      return e;
    },
  };
  return pass;
}

/**
 * The entry the issue's form makes, with its timer and the gate passes of the pull requests it
 * links, in one transaction (`created`: by this pass, not another's at the same moment); or why
 * there is none (a refused form is said once, then closed).
 */
async function openFromForm(
  pass: EntryPass,
  job: EntryJob,
  deps: EntryDeps,
  issue: EntryIssueFact,
): Promise<{ entry: HandoffEntry; created: boolean } | string> {
  if (issue.state === "closed") return "closed, not a handoff entry";
  const form = parseEntryForm(issue.body);
  if (form.kind === "not_an_entry") return "not a handoff entry";
  if (form.kind === "refused") {
    await refuse(deps, job.repository, issue, say.refusedForm(form.missing, form.problems));
    return `refused (missing ${form.missing.join(", ") || form.problems.join("; ")}), closed`;
  }
  const step = openEntry({
    repository: job.repository,
    issue_number: issue.number,
    author: issue.author,
    fields: form.fields,
    at: deps.now(),
    rules: await pass.rules(),
  });
  const { store } = deps;
  const key = { repository: job.repository, issueNumber: job.issue_number };
  const mentioning = await store.listMentioningPullRequests(key);
  const created = await store.createEntry({
    ...step,
    jobs: [
      ...deadlineJobs(step.entry, job.installation),
      ...linkedPullRequestJobs(null, step.entry, job.installation, mentioning),
    ],
  });
  if (created.created) {
    await mentionedMeanwhile(store, null, step.entry, job.installation, mentioning);
    pass.notes.push("opened");
  }
  return { entry: created.entry, created: created.created };
}

/** Each new command in the comments, oldest first, with every deadline that passed before it. */
async function applyComments(
  pass: EntryPass,
  deps: EntryDeps,
  current: HandoffEntry,
  comments: readonly IssueCommentFact[],
): Promise<HandoffEntry> {
  const pending = comments
    .filter((c) => c.id > current.comments_through)
    .filter((c) => c.login.toLowerCase() !== deps.appLogin.toLowerCase())
    // An edit is never a command (as the route says): a plain comment changed later into
    // `/answer` or `/escalate` would act with the words of a moment nobody saw.
    .filter((c) => !c.edited)
    .map((c) => ({ comment: c, command: parseEntryCommand(c.body) }))
    .sort((a, b) => a.comment.id - b.comment.id);
  let entry = current;
  for (const { comment, command } of pending) {
    if (command === null) continue;
    const at = new Date(Math.min(Date.parse(comment.created_at), deps.now().getTime()));
    entry = await pass.deadlines(entry, at);
    const maintainer = needsMaintainerTest(entry, command, comment.login)
      ? await deps.isMaintainer(
          { login: comment.login, type: comment.user_type },
          (await pass.rules()).maintainers,
        )
      : undefined;
    const step = applyCommand(
      entry,
      { command, actor: comment.login, comment_id: comment.id, at, maintainer },
      await pass.rules(),
    );
    if (step) entry = await pass.save(entry, step);
  }
  return entry;
}

/**
 * The refusal, then the issue closed. Said once per issue (app/runtime/write-once.ts): a retry
 * after a crash finds it by its marker, and a form reopened still incomplete is closed again
 * without a second comment. Its scope is its own, not the pass's: a retry that finds the form
 * fixed opens the entry, and must not say the refusal its first run recorded.
 */
async function refuse(
  deps: EntryDeps,
  repository: string,
  issue: EntryIssueFact,
  text: string,
): Promise<void> {
  const writes = new WriteOnce(deps.github, deps.store, jobScope(deps.jobId, "entry-refusal"));
  const key = `entry-refused:${repository}#${issue.number}`;
  await writes.comment(key, issue.number, `${text}\n\n${REFUSAL_TAG}`);
  await deps.github.setIssueState(issue.number, "closed", "not_planned");
}

/**
 * Posts every reply not yet marked posted, oldest first, each once: a reply whose marker is
 * already on the issue (posted before a crash, not yet marked) is only marked.
 */
async function postReplies(
  deps: EntryDeps,
  entry: HandoffEntry,
  listed: EntryPass["comments"],
): Promise<number> {
  const key = { repository: entry.repository, issueNumber: entry.issue_number };
  const unposted = (await deps.store.listEntryEvents(key)).filter((e) => e.posted_at === null);
  if (unposted.length === 0) return 0;
  const needsPost = unposted.some((e) => e.reply !== null);
  const comments = needsPost ? await listed() : [];
  const own = comments.filter((c) => c.login.toLowerCase() === deps.appLogin.toLowerCase());
  let count = 0;
  for (const event of unposted) {
    if (event.reply !== null && !own.some((c) => c.body.includes(markerPrefix(event.version)))) {
      await deps.github.comment(
        entry.issue_number,
        `${event.reply}\n\n${renderReplyMarker({ ...event, state: event.to_state, comment: event.comment_id })}`,
      );
      count++;
    }
    await deps.store.markEntryEventPosted({
      ...key,
      version: event.version,
      at: deps.now().toISOString(),
    });
  }
  return count;
}

/**
 * Labels and open/closed from the stored entry; a hand change put back says which command. The
 * notice is recorded before the change it explains (app/runtime/write-once.ts), keyed by the
 * delivery it answers: a run retried after the label was put back no longer sees a change to
 * make, and still says it once.
 */
async function project(
  deps: EntryDeps,
  entry: HandoffEntry,
  issue: EntryIssueFact,
  job: EntryJob,
  listed: EntryPass["comments"],
): Promise<string> {
  const { github } = deps;
  const writes = new WriteOnce(github, deps.store, jobScope(deps.jobId, "entry"), (target) =>
    target === issue.number ? listed() : github.issueComments(target),
  );
  const notice = (what: string, text: string) =>
    writes.intend(
      `put-back:${job.trigger.delivery_id ?? writes.scope}:${what}`,
      issue.number,
      text,
    );
  const waiting = await agentWaits(deps, entry, {
    comments: listed,
    isOpen: (number) => github.isPullRequestOpen(number),
  });
  if (waiting?.by === "author") await queueWaitExpiry(deps, job, waiting.until);
  const plan = planEntryLabels(issue.labels, desiredEntryLabels(entry.state, waiting !== null));
  // An escalated or blocked entry's line on the dashboard says whether an agent waits on it.
  const priorityChanged = [...plan.add, ...plan.remove].some(isEntryPriorityLabel);
  if (priorityChanged && isListedEntryState(entry.state)) {
    const { repository, installation, trigger } = job;
    // Through its spec's dedupe: one refresh waiting per repository, however often this changes.
    await queueJob(deps.store, DASHBOARD_JOBS.refresh, { repository, installation, trigger });
  }
  const change = job.label_change;
  const putBack =
    change &&
    isEntryLabel(change.label) &&
    [...plan.add, ...plan.remove].some((l) => l.toLowerCase() === change.label.toLowerCase())
      ? await notice(
          "label",
          say.labelPutBack({
            label: change.label,
            action: change.action,
            by: change.by,
            state: entry.state,
            command: commandForLabel(change.label),
          }),
        )
      : null;
  // A label GitHub had to create has its default colour: give it agate's, once. Looked at also
  // when nothing is added: a run that added one may have stopped before styling it.
  const labels = plan.add.length > 0 ? await github.addLabels(issue.number, plan.add) : issue.looks;
  const removed = new Set(plan.remove.map((name) => name.toLowerCase()));
  for (const label of labels) {
    const style = ENTRY_LABELS.get(label.name.toLowerCase());
    if (
      style &&
      !removed.has(label.name.toLowerCase()) &&
      label.description !== style.description
    ) {
      await github.styleLabel(label.name, style.color, style.description);
    }
  }
  for (const name of plan.remove) await github.removeLabel(issue.number, name);
  if (putBack) await writes.make(putBack);
  const want = issueStateFor(entry.state);
  let moved = "";
  if (want && want.state !== issue.state) {
    const state = job.state_change;
    // Only a person's close or reopen is answered; agate closing its own entry is not undone.
    const reopened =
      state && (state.action === "closed") === (issue.state === "closed")
        ? await notice(
            "state",
            say.closedPutBack({
              by: state.by,
              state: entry.state,
              reopened: want.state === "open",
            }),
          )
        : null;
    await github.setIssueState(
      issue.number,
      want.state,
      want.state === "closed" ? want.reason : undefined,
    );
    moved = `, ${want.state === "closed" ? "closed" : "reopened"}`;
    if (reopened) await writes.make(reopened);
  }
  if (deps.retried) await writes.finish();
  return `labels +${plan.add.length} -${plan.remove.length}${moved}`;
}

/**
 * The entry's pass again when its author's declared wait runs out (a renewal since moves it on,
 * and that pass queues the next one), so a dead agent's entry goes back to the background.
 */
async function queueWaitExpiry(deps: EntryDeps, job: EntryJob, until: Date): Promise<void> {
  const at = until.toISOString();
  const { repository, installation, issue_number } = job;
  // A timer of its own (no concurrency key: a job that waits must not hold the entry's passes
  // back), queued once for every pass that sees the same declaration.
  await deps.store.enqueue(
    jobOf(
      ENTRY_JOBS.deadline,
      { repository, installation, issue_number, deadline_at: at, timer: "wait" },
      { run_at: at },
    ),
    { dedupeKey: `wait:${repository}#${issue_number}@${at}` },
  );
}

/**
 * A pull request whose gate pass stored its mention of the entry after this pass looked
 * (`mentioning`) but read the entry before this change was stored would show the old state:
 * its pass is queued now, after the change (app/gate/entry-priority.ts checks the other order).
 */
async function mentionedMeanwhile(
  store: EntryDeps["store"],
  before: HandoffEntry | null,
  after: EntryStep["entry"],
  installation: number,
  mentioning: readonly number[],
): Promise<void> {
  if (before !== null && before.state === after.state) return;
  const now = await store.listMentioningPullRequests({
    repository: after.repository,
    issueNumber: after.issue_number,
  });
  const late = now.filter((n) => !mentioning.includes(n) && n !== after.fields.blocking_pull);
  if (late.length === 0) return;
  for (const job of linkedPullRequestJobs(
    before,
    { ...after, fields: { ...after.fields, blocking_pull: null } },
    installation,
    late,
  )) {
    await store.enqueue(job);
  }
}
