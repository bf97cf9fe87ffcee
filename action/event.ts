import { readFileSync } from "node:fs";
import type { z } from "zod";
import {
  anyEventSchema,
  type MergeGroupEvent,
  mergeGroupEventSchema,
  type PullRequestEvent,
  pullRequestEventSchema,
} from "../schemas/action.js";

/** What the triggering event says about the commit under test and where its config comes from. */
export type EventContext =
  | { kind: "pull_request"; name: string; event: PullRequestEvent; baseSha: string }
  | { kind: "merge_group"; name: string; event: MergeGroupEvent; baseSha: string }
  | { kind: "other"; name: string; defaultBranch: string | null; repository: string | null };

const PULL_REQUEST_EVENTS = new Set(["pull_request", "pull_request_target"]);

/** Reads GITHUB_EVENT_NAME and GITHUB_EVENT_PATH; a payload that lacks what agate needs is an error. */
export function readEventContext(env: NodeJS.ProcessEnv): EventContext {
  const name = env.GITHUB_EVENT_NAME ?? "";
  const path = env.GITHUB_EVENT_PATH;
  const payload: unknown = path ? JSON.parse(readFileSync(path, "utf8")) : {};
  if (PULL_REQUEST_EVENTS.has(name)) {
    const event = parse(pullRequestEventSchema, payload, name);
    return { kind: "pull_request", name, event, baseSha: event.pull_request.base.sha };
  }
  if (name === "merge_group") {
    const event = parse(mergeGroupEventSchema, payload, name);
    return { kind: "merge_group", name, event, baseSha: event.merge_group.base_sha };
  }
  const repository = parse(anyEventSchema, payload, name || "unknown").repository;
  return {
    kind: "other",
    name,
    defaultBranch: repository?.default_branch ?? null,
    repository: repository?.full_name ?? null,
  };
}

function parse<T extends z.ZodType>(schema: T, payload: unknown, name: string): z.output<T> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => issue.path.join(".")).join(", ");
  throw new Error(
    `the ${name} event payload lacks what agate needs (${fields}); is GITHUB_EVENT_PATH the runner's event file?`,
  );
}
