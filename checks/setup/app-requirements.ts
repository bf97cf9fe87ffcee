/**
 * What the agate App must be granted and subscribed to: app.yml's `default_permissions` and
 * `default_events` (app-requirements.test.ts holds the two together). The doctor compares an
 * App's registration and its installation with these; the CLI bundle has no app.yml to read.
 */
export const AGATE_APP_PERMISSIONS: Readonly<Record<string, PermissionLevel>> = {
  actions: "read",
  checks: "write",
  contents: "read",
  issues: "write",
  members: "read",
  metadata: "read",
  pull_requests: "write",
};

export const AGATE_APP_EVENTS: readonly string[] = [
  "check_run",
  "issue_comment",
  "issues",
  "merge_group",
  "pull_request",
  "pull_request_review",
  "workflow_job",
  "workflow_run",
];

export type PermissionLevel = "read" | "write" | "admin";

const RANK: Record<string, number> = { none: 0, read: 1, write: 2, admin: 3 };

/** Whether `granted` (a level GitHub reports, or nothing) allows what `needed` asks. */
export function covers(granted: string | undefined, needed: string): boolean {
  return (RANK[granted ?? "none"] ?? 0) >= (RANK[needed] ?? Number.POSITIVE_INFINITY);
}
