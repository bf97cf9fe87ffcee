/**
 * The gate's jobs for a delivery, one per target (a pull request, a commit known only by its SHA,
 * a merge-group head). Pure and quick: it runs in the webhook request, on the payload parsed once
 * by the runtime (app/runtime/routing.ts), and only names the work; jobs read everything else
 * live.
 */
import { isMergeQueueRef } from "../../checks/gate/merge-group.js";
import { parseOverrideComment } from "../../checks/gate/override.js";
import { STATE_LABEL_PREFIX } from "../../checks/gate/plan.js";
import {
  type EvidenceJob,
  GATE_CHECK_NAME,
  type PullRequestView,
  pullRequestViewSchema,
} from "../../schemas/gate.js";
import { GATE_JOBS } from "../../schemas/jobs/gate.js";
import { type JobInput, jobOf, type Trigger } from "../../schemas/jobs/index.js";
import type { NewJob } from "../../schemas/store.js";
import type { RoutedEvent } from "../../schemas/webhooks.js";
import { RERUN_EVALUATOR } from "../github/adapter.js";
import type {
  DeliveryTarget,
  DomainRoutes,
  InstallationPayload,
  RoutedPayload,
} from "../runtime/routing.js";

/** Makes the gate's jobs for one delivery: its repository, installation and trigger on each. */
function jobMaker(target: DeliveryTarget) {
  const { repository, installation, trigger } = target;
  return {
    ...target,
    pullRequest: (number: number, extra: Partial<JobInput<typeof GATE_JOBS.pullRequest>> = {}) =>
      jobOf(GATE_JOBS.pullRequest, { repository, installation, number, trigger, ...extra }),
    head: (sha: string, extra: Partial<JobInput<typeof GATE_JOBS.head>> = {}) =>
      jobOf(GATE_JOBS.head, { repository, installation, head_sha: sha, trigger, ...extra }),
    mergeGroup: (
      sha: string,
      ref: string,
      baseSha: string | null,
      onlyIfApp: string | null = null,
    ) =>
      jobOf(GATE_JOBS.mergeGroup, {
        repository,
        installation,
        head_sha: sha,
        head_ref: ref,
        base_sha: baseSha,
        trigger,
        only_if_app: onlyIfApp,
      }),
  };
}

type Make = ReturnType<typeof jobMaker>;
type Event<E extends RoutedEvent> = RoutedPayload<E>;

/** A route, handed the delivery's job maker. */
const withMaker =
  <E extends RoutedEvent>(route: (e: Event<E>, make: Make) => NewJob[]) =>
  (e: Event<E>, target: DeliveryTarget) =>
    route(e, jobMaker(target));

/**
 * The pull request as a `pull_request` event showed it, when the payload has all of it. The test
 * merge commit is left out: GitHub computes it after the push, so the event's may be an older
 * head's.
 */
function viewOf(e: Event<"pull_request">, repository: string): PullRequestView | null {
  const p = e.pull_request;
  const user = p.user;
  if (
    (p.state !== "open" && p.state !== "closed") ||
    p.head.ref === undefined ||
    !user?.type ||
    p.labels === undefined ||
    p.title === undefined ||
    p.created_at === undefined ||
    p.updated_at === undefined ||
    p.commits === undefined ||
    p.additions === undefined ||
    p.deletions === undefined ||
    p.changed_files === undefined
  ) {
    return null;
  }
  const view = pullRequestViewSchema.safeParse({
    snapshot: {
      repository,
      number: p.number,
      state: p.state,
      draft: p.draft ?? false,
      head_sha: p.head.sha,
      head_ref: p.head.ref,
      base_sha: p.base.sha,
      base_ref: p.base.ref,
      author: { login: user.login, type: user.type },
      labels: p.labels.map((label) => label.name),
    },
    detail: {
      title: p.title,
      body: p.body ?? "",
      created_at: p.created_at,
      updated_at: p.updated_at,
      commits: p.commits,
      additions: p.additions,
      deletions: p.deletions,
      changed_files: p.changed_files,
      merge_commit_sha: null,
    },
  });
  return view.success ? view.data : null;
}

/** The events whose view of the pull request may stand in for a read: the pushes. */
const VIEW_ACTIONS = new Set(["opened", "reopened", "synchronize"]);

/** Each routed event's jobs, from its parsed payload. */
const ROUTES: DomainRoutes["events"] = {
  pull_request: withMaker<"pull_request">((e, make) => {
    // A closed pull request needs no pass (the entries linked to it re-derive their priority:
    // app/entries/route.ts). Whatever a pass changes (its decision, its description's mentions of
    // entries) it queues itself, after storing it (app/gate/entry-priority.ts).
    if (e.action === "closed") return [];
    const labelChange = e.action === "labeled" || e.action === "unlabeled";
    const from = e.changes?.base?.ref?.from;
    return [
      make.pullRequest(e.pull_request.number, {
        head_sha: e.pull_request.head.sha,
        base_sha: e.pull_request.base.sha,
        // Only a push's own event: a burst of label or text edits each shows a view already
        // old when the next lands, and a fresh read answers them all at once.
        seen: VIEW_ACTIONS.has(e.action) ? viewOf(e, make.repository) : null,
        retarget:
          e.action === "edited" && from !== undefined
            ? { from, to: e.pull_request.base.ref }
            : null,
        // agate's own state labels changing is agate's doing; a person's edit is re-evaluated.
        unless_sender:
          labelChange && e.label?.name.startsWith(STATE_LABEL_PREFIX)
            ? (e.sender?.login ?? null)
            : null,
      }),
    ];
  }),
  pull_request_review: withMaker<"pull_request_review">((e, make) => [
    make.pullRequest(e.pull_request.number),
  ]),
  check_run: withMaker<"check_run">((e, make) => {
    const run = e.check_run;
    // Only our own `agate` check is a reason, and only when a person asks (the "Re-run gate"
    // or "Re-run evaluator" button, or "Re-run"); its own changes are our doing and would loop.
    // Whether it is this App's is checked by the handler, which knows the App's slug.
    if (run.name !== GATE_CHECK_NAME) return [];
    if (e.action !== "requested_action" && e.action !== "rerequested") return [];
    const slug = run.app?.slug ?? "";
    if (run.pull_requests.length > 0) {
      const rerun_evaluator = e.requested_action?.identifier === RERUN_EVALUATOR;
      return run.pull_requests.map((p) =>
        make.pullRequest(p.number, { head_sha: run.head_sha, only_if_app: slug, rerun_evaluator }),
      );
    }
    const ref = run.check_suite?.head_branch ?? null;
    if (ref !== null && isMergeQueueRef(ref))
      return [make.mergeGroup(run.head_sha, ref, null, slug)];
    return [make.head(run.head_sha, { only_if_app: slug })];
  }),
  workflow_run: withMaker<"workflow_run">((e, make) => {
    if (e.action !== "completed") return [];
    const run = e.workflow_run;
    const only_if = { workflow: run.path ?? null, job: null };
    const read = { id: run.id, attempt: run.run_attempt ?? 1 };
    if (run.pull_requests.length > 0) {
      return run.pull_requests.map((p) =>
        make.pullRequest(p.number, { head_sha: run.head_sha, only_if, run: read }),
      );
    }
    const ref = run.head_branch ?? null;
    if (ref !== null && isMergeQueueRef(ref)) return [make.mergeGroup(run.head_sha, ref, null)];
    return [make.head(run.head_sha, { only_if, run: read })];
  }),
  workflow_job: withMaker<"workflow_job">((e, make) => {
    if (e.action !== "completed") return [];
    const j = e.workflow_job;
    const ref = j.head_branch ?? null;
    if (ref !== null && isMergeQueueRef(ref)) return [make.mergeGroup(j.head_sha, ref, null)];
    const attempt = j.run_attempt ?? 1;
    return [
      make.head(j.head_sha, {
        only_if: { workflow: null, job: j.name },
        run: { id: j.run_id, attempt, job: completedJob(j, attempt) },
      }),
    ];
  }),
  merge_group: withMaker<"merge_group">((e, make) => {
    // `destroyed` (merged, dequeued, invalidated) needs no answer; the deadline job finds the
    // check completed or concludes it, which GitHub ignores for a group that is gone.
    if (e.action !== "checks_requested") return [];
    const g = e.merge_group;
    return [make.mergeGroup(g.head_sha, g.head_ref, g.base_sha)];
  }),
  issue_comment: withMaker<"issue_comment">((e, make) => {
    // Only a new comment on a pull request can be a command (issues carry no gate; an issue's
    // comment may be an entry's: app/entries/route.ts); an edit would let a later change of
    // words accept a commit nobody looked at again.
    const user = e.comment.user;
    if (e.action !== "created" || e.issue.pull_request === undefined || !user) return [];
    const body = e.comment.body ?? "";
    if (parseOverrideComment(body) === null) return [];
    return [
      jobOf(GATE_JOBS.override, {
        repository: make.repository,
        installation: make.installation,
        number: e.issue.number,
        comment: {
          body,
          html_url: e.comment.html_url ?? null,
          // No type is no person: the maintainer test refuses it (never assumed a User).
          user: { login: user.login, type: user.type ?? null },
        },
        trigger: make.trigger,
      }),
    ];
  }),
};

/**
 * An installation's new repositories get agate's labels, those with agate's config on their
 * default branch (the job reads it first): `installation.created` names them all,
 * `installation_repositories.added` the added ones. (A removal needs nothing: the labels stay
 * for the people who filtered on them.)
 */
const labelsOf = (
  repositories: readonly { full_name: string }[],
  installation: number,
  trigger: Trigger,
): NewJob[] =>
  repositories.map(({ full_name: repository }) =>
    jobOf(GATE_JOBS.repositoryLabels, { repository, installation, trigger }),
  );

const INSTALLATIONS: NonNullable<DomainRoutes["installations"]> = {
  installation: (e: InstallationPayload<"installation">, trigger) =>
    e.action === "created" ? labelsOf(e.repositories ?? [], e.installation.id, trigger) : [],
  installation_repositories: (e: InstallationPayload<"installation_repositories">, trigger) =>
    e.action === "added" ? labelsOf(e.repositories_added, e.installation.id, trigger) : [],
};

/** The gate's routes: its events, and an installation's new repositories. */
export const gateRoutes: DomainRoutes = { events: ROUTES, installations: INSTALLATIONS };

/** The job as its completion event shows it, when the event carries all of it. */
function completedJob(
  j: Event<"workflow_job">["workflow_job"],
  attempt: number,
): EvidenceJob | null {
  if (j.id === undefined || j.status !== "completed" || j.steps === undefined) return null;
  return {
    id: j.id,
    name: j.name,
    run_attempt: attempt,
    status: j.status,
    conclusion: j.conclusion ?? null,
    html_url: j.html_url ?? null,
    steps: j.steps.map((step) => ({
      name: step.name,
      number: step.number,
      status: step.status,
      conclusion: step.conclusion ?? null,
    })),
  };
}
