/**
 * Which jobs a webhook delivery enqueues. Pure: it looks only at the event name and payload, so
 * the webhook path stays a database write. A job carries only the delivery id; its worker
 * re-reads the stored payload (`store.getDelivery`), which is the evidence, not a copy of it.
 */
import type { NewJob } from "../../schemas/store.js";

/** `deliveryId` is GitHub's X-GitHub-Delivery, which every job of the delivery carries. */
export type Route = (event: string, payload: unknown, deliveryId: string) => NewJob[];

/** The one job kind the default route enqueues; its handler is in app/gate/job-handlers.ts. */
export const GATE_DELIVERY = "gate.delivery";

/**
 * Events that can change a pull request's gate: the pull request itself, reviews, the
 * evidence workflow's runs and jobs, a person asking our check to re-run, the merge queue, and
 * a maintainer's `/agate accept` comment. Anything else is recorded and enqueues nothing: no
 * job kind is ever routed without a handler.
 */
const GATE_EVENTS = new Set([
  "pull_request",
  "pull_request_review",
  "check_run",
  "workflow_run",
  "workflow_job",
  "merge_group",
  "issue_comment",
]);

/** Where workflow and merge-group payloads keep their pull requests and head. */
const SUITE_OBJECT: Record<string, string> = {
  check_run: "check_run",
  workflow_run: "workflow_run",
  workflow_job: "workflow_job",
  merge_group: "merge_group",
};

/** Anything not listed enqueues nothing; the delivery is still recorded. */
export const defaultRoute: Route = (event, payload, deliveryId) => {
  if (!GATE_EVENTS.has(event)) return [];
  // A comment matters only on a pull request (issues carry no gate).
  if (event === "issue_comment" && at(payload, "issue", "pull_request") === undefined) return [];
  return [
    {
      kind: GATE_DELIVERY,
      payload: { delivery_id: deliveryId },
      concurrency_key: gateKey(event, payload),
    },
  ];
};

/**
 * One pull request's jobs run one at a time, in order: `owner/repo#12`. Without a pull request
 * (a check suite of a fork, a merge group), the head commit's: `owner/repo@<sha>`.
 */
export function gateKey(event: string, payload: unknown): string | null {
  const repository = fullName(payload);
  if (repository === null) return null;
  const direct =
    numberAt(payload, "pull_request", "number") ??
    (event === "issue_comment" ? numberAt(payload, "issue", "number") : null);
  if (direct !== null) return `${repository}#${direct}`;
  const objectName = SUITE_OBJECT[event];
  if (objectName === undefined) return null;
  const object = at(payload, objectName);
  const pulls = at(object, "pull_requests");
  const first = Array.isArray(pulls) ? numberAt(pulls[0], "number") : null;
  if (first !== null) return `${repository}#${first}`;
  const head = at(object, "head_sha");
  return typeof head === "string" && head !== "" ? `${repository}@${head}` : null;
}

function fullName(payload: unknown): string | null {
  const name = at(payload, "repository", "full_name");
  return typeof name === "string" && name !== "" ? name : null;
}

function numberAt(value: unknown, ...path: string[]): number | null {
  const found = at(value, ...path);
  return typeof found === "number" && Number.isInteger(found) ? found : null;
}

function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
