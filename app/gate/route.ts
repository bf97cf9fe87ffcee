/**
 * Delivery → jobs, one per target (a pull request, a commit known only by its SHA, a merge-group
 * head). Pure and quick: it runs in the webhook request, so it only parses the payload (once,
 * with the schemas in schemas/webhooks.ts) and names the work. Handlers read everything else
 * live. An event it does not route, or a payload that does not parse, enqueues nothing; the
 * delivery itself is still recorded.
 */
import { isMergeQueueRef } from "../../checks/gate/merge-group.js";
import { parseOverrideComment } from "../../checks/gate/override.js";
import { STATE_LABEL_PREFIX } from "../../checks/gate/plan.js";
import { GATE_CHECK_NAME } from "../../schemas/gate.js";
import {
  headKey,
  JOB_KINDS,
  type JobKind,
  type JobPayloadInput,
  pullRequestKey,
  type Trigger,
} from "../../schemas/jobs.js";
import type { NewJob } from "../../schemas/store.js";
import {
  type CheckRunEvent,
  type IssueCommentEvent,
  type MergeGroupEvent,
  type PullRequestEvent,
  ROUTED_EVENTS,
  type RoutedEvent,
  type WorkflowJobEvent,
  type WorkflowRunEvent,
} from "../../schemas/webhooks.js";
import type { Route } from "../runtime/route.js";

const job = <K extends JobKind>(
  kind: K,
  payload: JobPayloadInput<K>,
  concurrency_key: string | null,
): NewJob => ({ kind, payload: payload as NewJob["payload"], concurrency_key });

export const defaultRoute: Route = (event, payload, deliveryId) => {
  if (!(event in ROUTED_EVENTS)) return [];
  const parsed = ROUTED_EVENTS[event as RoutedEvent].safeParse(payload);
  if (!parsed.success) return [];
  return jobsFor(event as RoutedEvent, parsed.data, deliveryId);
};

function jobsFor(event: RoutedEvent, data: unknown, deliveryId: string): NewJob[] {
  const base = data as {
    action?: string;
    repository: { full_name: string };
    installation: { id: number };
  };
  const repository = base.repository.full_name;
  const installation = base.installation.id;
  const trigger: Trigger = { event, action: base.action ?? null, delivery_id: deliveryId };
  const pullRequest = (number: number, extra: Partial<JobPayloadInput<"gate.pull_request">> = {}) =>
    job(
      JOB_KINDS.pullRequest,
      { repository, installation, number, trigger, ...extra },
      pullRequestKey(repository, number),
    );
  const head = (sha: string, extra: Partial<JobPayloadInput<"gate.head">> = {}) =>
    job(
      JOB_KINDS.head,
      { repository, installation, head_sha: sha, trigger, ...extra },
      headKey(repository, sha),
    );
  const mergeGroup = (
    sha: string,
    ref: string,
    baseSha: string | null,
    onlyIfApp: string | null = null,
  ) =>
    job(
      JOB_KINDS.mergeGroup,
      {
        repository,
        installation,
        head_sha: sha,
        head_ref: ref,
        base_sha: baseSha,
        trigger,
        only_if_app: onlyIfApp,
      },
      headKey(repository, sha),
    );

  switch (event) {
    case "pull_request": {
      const e = data as PullRequestEvent;
      if (e.action === "closed") return [];
      const labelChange = e.action === "labeled" || e.action === "unlabeled";
      const from = e.changes?.base?.ref?.from;
      return [
        pullRequest(e.pull_request.number, {
          head_sha: e.pull_request.head.sha,
          base_sha: e.pull_request.base.sha,
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
    }
    case "pull_request_review": {
      const e = data as { pull_request: { number: number; head: { sha: string } } };
      return [pullRequest(e.pull_request.number)];
    }
    case "check_run": {
      const e = data as CheckRunEvent;
      const run = e.check_run;
      // Only our own `agate` check is a reason, and only when a person asks (the "Re-run gate"
      // or "Re-run evaluator" button, or "Re-run"); its own changes are our doing and would loop.
      if (run.name !== GATE_CHECK_NAME) return [];
      if (e.action !== "requested_action" && e.action !== "rerequested") return [];
      const slug = run.app?.slug ?? "";
      if (run.pull_requests.length > 0) {
        const rerun =
          e.action === "requested_action" && e.requested_action?.identifier === "rerun-evaluator";
        return run.pull_requests.map((p) =>
          pullRequest(p.number, {
            head_sha: run.head_sha,
            only_if_app: slug,
            rerun_evaluator: rerun,
          }),
        );
      }
      const ref = run.check_suite?.head_branch ?? null;
      if (isMergeQueueRef(ref)) return [mergeGroup(run.head_sha, ref ?? "", null, slug)];
      return [head(run.head_sha, { only_if_app: slug })];
    }
    case "workflow_run": {
      const e = data as WorkflowRunEvent;
      if (e.action !== "completed") return [];
      const run = e.workflow_run;
      const only_if = { workflow: run.path ?? null, job: null };
      if (run.pull_requests.length > 0) {
        return run.pull_requests.map((p) =>
          pullRequest(p.number, { head_sha: run.head_sha, only_if }),
        );
      }
      if (isMergeQueueRef(run.head_branch))
        return [mergeGroup(run.head_sha, run.head_branch ?? "", null)];
      return [head(run.head_sha, { only_if })];
    }
    case "workflow_job": {
      const e = data as WorkflowJobEvent;
      if (e.action !== "completed") return [];
      const j = e.workflow_job;
      if (isMergeQueueRef(j.head_branch))
        return [mergeGroup(j.head_sha, j.head_branch ?? "", null)];
      return [head(j.head_sha, { only_if: { workflow: null, job: j.name } })];
    }
    case "merge_group": {
      const e = data as MergeGroupEvent;
      // `destroyed` (merged, dequeued, invalidated) needs no answer; the deadline job finds the
      // check completed or concludes it, which GitHub ignores for a group that is gone.
      if (e.action !== "checks_requested") return [];
      const g = e.merge_group;
      return [mergeGroup(g.head_sha, g.head_ref, g.base_sha)];
    }
    case "issue_comment": {
      const e = data as IssueCommentEvent;
      // Only a new comment on a pull request can be a command (issues carry no gate); an edit
      // would let a later change of words accept a commit nobody looked at again.
      if (e.action !== "created" || e.issue.pull_request === undefined || !e.comment.user)
        return [];
      if (parseOverrideComment(e.comment.body ?? "") === null) return [];
      return [
        job(
          JOB_KINDS.override,
          {
            repository,
            installation,
            number: e.issue.number,
            comment: {
              body: e.comment.body ?? "",
              html_url: e.comment.html_url ?? null,
              user: { login: e.comment.user.login, type: e.comment.user.type ?? "User" },
            },
            trigger,
          },
          pullRequestKey(repository, e.issue.number),
        ),
      ];
    }
  }
}
