/**
 * The parts of GitHub's webhook payloads the gate reads, as zod schemas: each delivery is parsed
 * once, when it is routed, into typed jobs. The field names and shapes are GitHub's published
 * webhook types (@octokit/webhooks-types): app/gate/route.test.ts checks at compile time that each
 * published type fits its schema, and parses every published example of each routed event. Unknown fields are dropped, never trusted.
 */
import { z } from "zod";

const repository = z.object({
  full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  id: z.number().int().positive().optional(),
});
const installation = z.object({ id: z.number().int().positive() });
const sha = z.string().regex(/^[0-9a-f]{40}$/);
const account = z.object({ login: z.string(), type: z.string().optional() });
const numbered = z.object({ number: z.number().int().positive() });
/**
 * A pull request as a run or check names it (GitHub's pull-request-minimal): its head and base,
 * and the repository of the base (a pull request of another repository can be listed).
 */
const minimalPull = numbered.extend({
  head: z.object({ sha }).optional(),
  base: z
    .object({ ref: z.string(), repo: z.object({ id: z.number().int().positive() }).optional() })
    .optional(),
});

/** Every routed event names its repository and the installation whose token can read it. */
const envelope = {
  action: z.string().optional(),
  repository,
  installation,
  sender: account.optional(),
};

export const pullRequestEventSchema = z.object({
  ...envelope,
  action: z.string(),
  pull_request: z.object({
    number: z.number().int().positive(),
    head: z.object({ sha, ref: z.string().optional() }),
    base: z.object({ ref: z.string(), sha }),
    // The rest of the pull request as the event showed it: with all of it, a pass can use this
    // view instead of reading the pull request again (app/gate/gather.ts says when).
    state: z.string().optional(),
    draft: z.boolean().optional(),
    user: account.nullable().optional(),
    labels: z.array(z.object({ name: z.string() })).optional(),
    title: z.string().optional(),
    body: z.string().nullable().optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    commits: z.number().int().nonnegative().optional(),
    additions: z.number().int().nonnegative().optional(),
    deletions: z.number().int().nonnegative().optional(),
    changed_files: z.number().int().nonnegative().optional(),
  }),
  changes: z
    .object({ base: z.object({ ref: z.object({ from: z.string() }).optional() }).optional() })
    .optional(),
  label: z.object({ name: z.string() }).optional(),
});

export const pullRequestReviewEventSchema = z.object({
  ...envelope,
  pull_request: z.object({
    number: z.number().int().positive(),
    head: z.object({ sha }),
    base: z.object({ ref: z.string() }).optional(),
  }),
});

export const checkRunEventSchema = z.object({
  ...envelope,
  action: z.string(),
  check_run: z.object({
    name: z.string(),
    head_sha: sha,
    app: z.object({ slug: z.string().optional() }).nullable().optional(),
    pull_requests: z.array(minimalPull),
    check_suite: z.object({ head_branch: z.string().nullable().optional() }).nullable().optional(),
  }),
  requested_action: z.object({ identifier: z.string().optional() }).nullable().optional(),
});

export const workflowRunEventSchema = z.object({
  ...envelope,
  action: z.string(),
  workflow_run: z.object({
    id: z.number().int().positive(),
    run_attempt: z.number().int().positive().optional(),
    head_sha: sha,
    head_branch: z.string().nullable().optional(),
    path: z.string().optional(),
    pull_requests: z.array(minimalPull),
  }),
});

export const workflowJobEventSchema = z.object({
  ...envelope,
  action: z.string(),
  workflow_job: z.object({
    id: z.number().int().positive().optional(),
    run_id: z.number().int().positive(),
    run_attempt: z.number().int().positive().optional(),
    head_sha: sha,
    head_branch: z.string().nullable().optional(),
    name: z.string(),
    status: z.string().optional(),
    conclusion: z.string().nullable().optional(),
    html_url: z.string().nullable().optional(),
    steps: z
      .array(
        z.object({
          name: z.string(),
          number: z.number().int(),
          status: z.string(),
          conclusion: z.string().nullable().optional(),
        }),
      )
      .optional(),
  }),
});

export const mergeGroupEventSchema = z.object({
  ...envelope,
  action: z.string(),
  merge_group: z.object({ head_sha: sha, head_ref: z.string(), base_sha: sha }),
});

export const issueCommentEventSchema = z.object({
  ...envelope,
  action: z.string(),
  issue: z.object({ number: z.number().int().positive(), pull_request: z.unknown().optional() }),
  comment: z.object({
    body: z.string().nullable().optional(),
    html_url: z.string().optional(),
    user: account.nullable(),
  }),
});

/** An issue opened, edited, labelled, closed or reopened: a handoff entry's own event. */
export const issuesEventSchema = z.object({
  ...envelope,
  action: z.string(),
  issue: z.object({
    number: z.number().int().positive(),
    body: z.string().nullable().optional(),
    pull_request: z.unknown().optional(),
  }),
  label: z.object({ name: z.string() }).optional(),
});

const named = z.object({ full_name: repository.shape.full_name });

/**
 * The App installed: GitHub sends it to every App, subscribed or not. It names the installation's
 * repositories (all of them, or those chosen), not one repository.
 */
export const installationEventSchema = z.object({
  action: z.string(),
  installation,
  repositories: z.array(named).optional(),
});

/** Repositories added to (or removed from) an installation; sent to every App too. */
export const installationRepositoriesEventSchema = z.object({
  action: z.string(),
  installation,
  repositories_added: z.array(named),
});

/** The events about an installation rather than one repository, by GitHub's event name. */
export const INSTALLATION_EVENTS = {
  installation: installationEventSchema,
  installation_repositories: installationRepositoriesEventSchema,
} as const;

/** The schema of each event the gate routes, by GitHub's event name. */
export const ROUTED_EVENTS = {
  pull_request: pullRequestEventSchema,
  pull_request_review: pullRequestReviewEventSchema,
  check_run: checkRunEventSchema,
  workflow_run: workflowRunEventSchema,
  workflow_job: workflowJobEventSchema,
  merge_group: mergeGroupEventSchema,
  issue_comment: issueCommentEventSchema,
  issues: issuesEventSchema,
} as const;

export type RoutedEvent = keyof typeof ROUTED_EVENTS;
