/**
 * Delivery → jobs, one per target (a pull request, a commit known only by its SHA, a merge-group
 * head). Pure and quick: it runs in the webhook request, so it only parses the payload (once,
 * with the schemas in schemas/webhooks.ts) and names the work. Handlers read everything else
 * live. An event it does not route, or a payload that does not parse, enqueues nothing; the
 * delivery itself is still recorded.
 */
import type { z } from "zod";
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
import { ROUTED_EVENTS, type RoutedEvent } from "../../schemas/webhooks.js";
import { RERUN_EVALUATOR } from "../github/adapter.js";
import type { Route } from "../runtime/route.js";

const job = <K extends JobKind>(
  kind: K,
  payload: JobPayloadInput<K>,
  concurrency_key: string | null,
): NewJob => ({ kind, payload: payload as NewJob["payload"], concurrency_key });

/** Makes jobs for one delivery: its repository, installation and trigger go on every one. */
function jobMaker(
  envelope: {
    action?: string | undefined;
    repository: { full_name: string };
    installation: { id: number };
  },
  event: RoutedEvent,
  deliveryId: string,
) {
  const repository = envelope.repository.full_name;
  const installation = envelope.installation.id;
  const trigger: Trigger = { event, action: envelope.action ?? null, delivery_id: deliveryId };
  return {
    repository,
    installation,
    trigger,
    pullRequest: (number: number, extra: Partial<JobPayloadInput<"gate.pull_request">> = {}) =>
      job(
        JOB_KINDS.pullRequest,
        { repository, installation, number, trigger, ...extra },
        pullRequestKey(repository, number),
      ),
    head: (sha: string, extra: Partial<JobPayloadInput<"gate.head">> = {}) =>
      job(
        JOB_KINDS.head,
        { repository, installation, head_sha: sha, trigger, ...extra },
        headKey(repository, sha),
      ),
    mergeGroup: (
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
      ),
  };
}

type Make = ReturnType<typeof jobMaker>;
type Event<E extends RoutedEvent> = z.output<(typeof ROUTED_EVENTS)[E]>;

/** Each routed event's jobs, from its parsed payload. */
const ROUTES: { [E in RoutedEvent]: (e: Event<E>, make: Make) => NewJob[] } = {
  pull_request: (e, make) => {
    if (e.action === "closed") return [];
    const labelChange = e.action === "labeled" || e.action === "unlabeled";
    const from = e.changes?.base?.ref?.from;
    return [
      make.pullRequest(e.pull_request.number, {
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
  },
  pull_request_review: (e, make) => [make.pullRequest(e.pull_request.number)],
  check_run: (e, make) => {
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
  },
  workflow_run: (e, make) => {
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
  },
  workflow_job: (e, make) => {
    if (e.action !== "completed") return [];
    const j = e.workflow_job;
    const ref = j.head_branch ?? null;
    if (ref !== null && isMergeQueueRef(ref)) return [make.mergeGroup(j.head_sha, ref, null)];
    return [
      make.head(j.head_sha, {
        only_if: { workflow: null, job: j.name },
        run: { id: j.run_id, attempt: j.run_attempt ?? 1 },
      }),
    ];
  },
  merge_group: (e, make) => {
    // `destroyed` (merged, dequeued, invalidated) needs no answer; the deadline job finds the
    // check completed or concludes it, which GitHub ignores for a group that is gone.
    if (e.action !== "checks_requested") return [];
    const g = e.merge_group;
    return [make.mergeGroup(g.head_sha, g.head_ref, g.base_sha)];
  },
  issue_comment: (e, make) => {
    // Only a new comment on a pull request can be a command (issues carry no gate); an edit
    // would let a later change of words accept a commit nobody looked at again.
    const user = e.comment.user;
    if (e.action !== "created" || e.issue.pull_request === undefined || !user) return [];
    const body = e.comment.body ?? "";
    if (parseOverrideComment(body) === null) return [];
    return [
      job(
        JOB_KINDS.override,
        {
          repository: make.repository,
          installation: make.installation,
          number: e.issue.number,
          comment: {
            body,
            html_url: e.comment.html_url ?? null,
            user: { login: user.login, type: user.type ?? "User" },
          },
          trigger: make.trigger,
        },
        pullRequestKey(make.repository, e.issue.number),
      ),
    ];
  },
};

export const defaultRoute: Route = (event, payload, deliveryId) => {
  if (!Object.hasOwn(ROUTED_EVENTS, event)) return [];
  const name = event as RoutedEvent;
  const parsed = ROUTED_EVENTS[name].safeParse(payload);
  if (!parsed.success) return [];
  const route = ROUTES[name] as (e: unknown, make: Make) => NewJob[];
  return route(parsed.data, jobMaker(parsed.data, name, deliveryId));
};
