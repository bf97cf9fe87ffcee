/**
 * Which jobs a webhook delivery enqueues. Pure: it looks only at the event name and payload, so
 * the webhook path stays a database write. A job carries only the delivery id; its worker
 * re-reads the stored payload (`store.getDelivery`), which is the evidence, not a copy of it.
 */
import type { NewJob } from "../../schemas/store.js";

/** `deliveryId` is GitHub's X-GitHub-Delivery, which every job of the delivery carries. */
export type Route = (event: string, payload: unknown, deliveryId: string) => NewJob[];

/** Job kinds the default route enqueues. */
export const GATE_DELIVERY = "gate.delivery";
export const ENTRY_DELIVERY = "entry.delivery";

/** Events that can change a pull request's gate. */
const GATE_EVENTS = new Set([
  "pull_request",
  "pull_request_review",
  "check_run",
  "check_suite",
  "workflow_run",
  "merge_group",
]);

/** Events that can change a handoff entry (an issue). */
const ENTRY_EVENTS = new Set(["issues", "issue_comment"]);

/** Where check_run / check_suite / workflow_run payloads keep their pull requests and head. */
const SUITE_OBJECT: Record<string, string> = {
  check_run: "check_run",
  check_suite: "check_suite",
  workflow_run: "workflow_run",
  merge_group: "merge_group",
};

/** Anything not listed enqueues nothing; the delivery is still recorded. */
export const defaultRoute: Route = (event, payload, deliveryId) => {
  const jobPayload = { delivery_id: deliveryId };
  if (GATE_EVENTS.has(event)) {
    return [{ kind: GATE_DELIVERY, payload: jobPayload, concurrency_key: gateKey(event, payload) }];
  }
  if (ENTRY_EVENTS.has(event)) {
    return [{ kind: ENTRY_DELIVERY, payload: jobPayload, concurrency_key: entryKey(payload) }];
  }
  return [];
};

/**
 * One pull request's jobs run one at a time, in order: `owner/repo#12`. Without a pull request
 * (a check suite of a fork, a merge group), the head commit's: `owner/repo@<sha>`.
 */
export function gateKey(event: string, payload: unknown): string | null {
  const repository = fullName(payload);
  if (repository === null) return null;
  const direct = numberAt(payload, "pull_request", "number");
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

/** One issue's jobs run one at a time: `owner/repo!7`. */
export function entryKey(payload: unknown): string | null {
  const repository = fullName(payload);
  const number = numberAt(payload, "issue", "number");
  return repository !== null && number !== null ? `${repository}!${number}` : null;
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
