import { createRequire } from "node:module";
import type { EventPayloadMap, WebhookEventName } from "@octokit/webhooks-types";

const require = createRequire(import.meta.url);

interface ExampleGroup {
  name: string;
  examples: Array<{ action?: string }>;
}

const groups = require("@octokit/webhooks-examples") as ExampleGroup[];

/** Every example payload of every event, deep-copied: `[event, payload]`. */
export function allWebhookExamples(): [string, unknown][] {
  return groups.flatMap((g) =>
    g.examples.map((e): [string, unknown] => [g.name, structuredClone(e)]),
  );
}

/**
 * A real webhook payload from @octokit/webhooks-examples, deep-copied so tests may edit it. As a
 * GitHub App receives it: with the installation it was sent for (repository webhooks, which most
 * examples were captured from, carry none).
 */
export function webhookExample<E extends WebhookEventName>(
  event: E,
  action?: string,
): EventPayloadMap[E] {
  const group = groups.find((g) => g.name === event);
  const example = group?.examples.find((e) => action === undefined || e.action === action);
  if (!example) {
    throw new Error(
      `no ${event}${action ? `.${action}` : ""} example in @octokit/webhooks-examples`,
    );
  }
  const copy = structuredClone(example) as Record<string, unknown>;
  copy.installation ??= { id: 1, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
  return copy as EventPayloadMap[E];
}
