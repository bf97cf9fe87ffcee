/**
 * Tests only: what GitHub shows of one simulated repository, as plain data two runs of the same
 * story can be compared by: its labels with their looks, every issue and pull request (title,
 * body, state, labels, every comment with its author and body) and every check run (its head,
 * status, conclusion and output), in GitHub's order. What two runs number differently is named
 * by its role: commits (`<sha 1>`, also in the 7 characters a title shows), comment ids (`<comment
 * 2 on #3>`), delivery ids, a write-once marker's random token; timestamps (and a summary's minutes) are blanked.
 */
import type { GitHubSimulator } from "../github/index.js";

export interface GitHubState {
  labels: { name: string; color: string; description: string | null }[];
  issues: {
    number: number;
    pull: boolean;
    title: string;
    body: string | null;
    user: string;
    state: string;
    stateReason: string | null;
    labels: string[];
    comments: { user: string; app: boolean; body: string }[];
  }[];
  checkRuns: {
    name: string;
    head: string;
    app: string;
    status: string;
    conclusion: string | null;
    title: string | null;
    summary: string | null;
    text: string | null;
    externalId: string | null;
  }[];
}

// Also the minute a summary shows people ("Waiting since 2026-12-04 21:28 UTC").
export const ISO_TIME = /\d{4}-\d\d-\d\d(?:T\d\d:\d\d:\d\d(?:\.\d+)?Z| \d\d:\d\d UTC)/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const ONCE_MARKER = /<!-- agate:once [0-9a-f]+ -->/g;

export function githubState(sim: GitHubSimulator, repo: string): GitHubState {
  const repository = sim.repository({ repo });
  const issues = [...repository.issues.values()].sort((a, b) => a.number - b.number);
  const checks = [...repository.checkRuns.values()].sort((a, b) => a.id - b.id);
  const roles = new Map<string, string>();
  const shaRole = (sha: string) => {
    if (!roles.has(sha)) {
      const role = `<sha ${roles.size}>`;
      roles.set(sha, role);
      roles.set(sha.slice(0, 7), role);
    }
    return roles.get(sha) as string;
  };
  // Commits in a fixed order: the default branch, each pull request's heads and test merges,
  // then the check runs' heads.
  const base = sim.branchSha({ repo, branch: repository.defaultBranch });
  if (base) shaRole(base);
  for (const issue of issues) {
    if (!issue.pull) continue;
    for (const merge of sim.pull({ repo, number: issue.number }).mergeCommits) {
      shaRole(merge.head);
      shaRole(merge.base);
      shaRole(merge.sha);
    }
  }
  for (const check of checks) shaRole(check.headSha);
  const order = (sha: string) => Number(/\d+/.exec(shaRole(sha))?.[0]);
  const commentRoles = new Map<string, string>();
  for (const issue of issues) {
    for (const [j, comment] of issue.comments.entries()) {
      commentRoles.set(String(comment.id), `<comment ${j} on #${issue.number}>`);
    }
  }
  const deliveries = new Map<string, string>();
  const text = (value: string | null): string | null =>
    value === null
      ? null
      : value
          .replace(/\b[0-9a-f]{40}\b|\b[0-9a-f]{7}\b/g, (sha) => roles.get(sha) ?? sha)
          .replace(/\bcomment=(\d+)\b/g, (whole, id: string) => {
            const role = commentRoles.get(id);
            return role ? `comment=${role}` : whole;
          })
          .replace(UUID, (id) => {
            if (!deliveries.has(id)) deliveries.set(id, `<uuid ${deliveries.size}>`);
            return deliveries.get(id) as string;
          })
          .replace(ONCE_MARKER, "<!-- agate:once <token> -->")
          .replace(ISO_TIME, "<time>");
  return {
    labels: [...repository.labels.values()]
      .map((l) => ({ name: l.name, color: l.color, description: l.description }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    issues: issues.map((issue) => ({
      number: issue.number,
      pull: issue.pull !== undefined,
      title: issue.title,
      body: text(issue.body),
      user: issue.user.login,
      state: issue.state,
      stateReason: issue.stateReason,
      labels: [...issue.labels].sort(),
      comments: issue.comments.map((c) => ({
        user: c.user.login,
        app: c.app !== undefined,
        body: text(c.body) ?? "",
      })),
    })),
    // By head, then as created: replicas create the checks of several heads in any order.
    checkRuns: [...checks]
      .sort((a, b) => order(a.headSha) - order(b.headSha) || a.id - b.id)
      .map((check) => ({
        name: check.name,
        head: shaRole(check.headSha),
        app: check.app.slug,
        status: check.status,
        conclusion: check.conclusion,
        title: text(check.output.title),
        summary: text(check.output.summary),
        text: text(check.output.text),
        externalId: text(check.externalId),
      })),
  };
}
