// Turns simulator state into the JSON objects GitHub sends, in the REST API and in webhooks alike.
// Every response built here passes through the OpenAPI response validator, so a missing required
// field shows up as a 502 in a test rather than as a surprise in production.
import type { GitCommit, GitDiffEntry, GitTreeEntry } from "./git.js";
import type {
  Account,
  AppIdentity,
  Artifact,
  CheckRun,
  CheckSuite,
  Comment,
  Installation,
  Issue,
  Label,
  Repository,
  Review,
  WorkflowJob,
  WorkflowRun,
} from "./state.js";
import { fullName } from "./state.js";

export interface Urls {
  /** REST API root, e.g. http://127.0.0.1:PORT/api/v3 */
  api: string;
  /** Web root, e.g. http://127.0.0.1:PORT */
  html: string;
}

type Json = Record<string, unknown>;

function nodeId(kind: string, id: number | string): string {
  return Buffer.from(`0${kind}${id}`).toString("base64").replace(/=+$/, "");
}

export function user(urls: Urls, account: Account): Json {
  // GitHub percent-encodes the brackets of bot logins in URLs (users/github-actions%5Bbot%5D).
  const login = encodeURIComponent(account.login);
  const api = `${urls.api}/users/${login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId(account.type === "Organization" ? "12:Organization" : "4:User", account.id),
    avatar_url: `${urls.html}/avatars/u/${account.id}?v=4`,
    gravatar_id: "",
    url: api,
    html_url:
      account.type === "Bot"
        ? `${urls.html}/apps/${encodeURIComponent(account.login.replace(/\[bot\]$/, ""))}`
        : `${urls.html}/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: account.type,
    user_view_type: "public",
    site_admin: false,
  };
}

export function repository(urls: Urls, repo: Repository, pushedAt: string): Json {
  const name = fullName(repo);
  const api = `${urls.api}/repos/${name}`;
  const openIssues = [...repo.issues.values()].filter((issue) => issue.state === "open").length;
  return {
    id: repo.id,
    node_id: nodeId("10:Repository", repo.id),
    name: repo.name,
    full_name: name,
    private: repo.private,
    owner: user(urls, repo.owner),
    html_url: `${urls.html}/${name}`,
    description: null,
    fork: repo.parent !== undefined,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: repo.createdAt,
    updated_at: pushedAt,
    pushed_at: pushedAt,
    git_url: `git://${new URL(urls.html).host}/${name}.git`,
    ssh_url: `git@${new URL(urls.html).hostname}:${name}.git`,
    // GitHub's clone URL; the simulator's repositories are cloned by path (see gitDir).
    clone_url: `${urls.html}/${name}.git`,
    svn_url: `${urls.html}/${name}`,
    homepage: null,
    size: 0,
    stargazers_count: 0,
    watchers_count: 0,
    language: null,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: repo.forkCount,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: openIssues,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: repo.private ? "private" : "public",
    forks: repo.forkCount,
    open_issues: openIssues,
    watchers: 0,
    default_branch: repo.defaultBranch,
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_rebase_merge: true,
    delete_branch_on_merge: false,
    custom_properties: {},
  };
}

/** `repos/get` answers with the full repository, which adds counts and merge settings. */
export function fullRepository(urls: Urls, repo: Repository, pushedAt: string): Json {
  let source = repo.parent;
  while (source?.parent) source = source.parent;
  return {
    ...repository(urls, repo, pushedAt),
    // A fork names the repository it was forked from and the root of its network.
    ...(repo.parent ? { parent: repository(urls, repo.parent, pushedAt) } : {}),
    ...(source ? { source: repository(urls, source, pushedAt) } : {}),
    network_count: 0,
    subscribers_count: 0,
    allow_auto_merge: false,
    allow_update_branch: false,
    ...(repo.owner.type === "Organization" ? { organization: user(urls, repo.owner) } : {}),
  };
}

export function label(urls: Urls, repo: Repository, item: Label): Json {
  return {
    id: item.id,
    node_id: nodeId("5:Label", item.id),
    url: `${urls.api}/repos/${fullName(repo)}/labels/${encodeURIComponent(item.name)}`,
    name: item.name,
    color: item.color,
    default: item.default,
    description: item.description,
  };
}

function labelsOf(urls: Urls, repo: Repository, issue: Issue): Json[] {
  return issue.labels.flatMap((name) => {
    const found = repo.labels.get(name.toLowerCase());
    return found ? [label(urls, repo, found)] : [];
  });
}

export function authorAssociation(repo: Repository, account: Account): string {
  if (account.login.toLowerCase() === repo.owner.login.toLowerCase()) return "OWNER";
  const level = repo.collaborators.get(account.login.toLowerCase());
  if (level && level !== "none") {
    return repo.owner.type === "Organization" ? "MEMBER" : "COLLABORATOR";
  }
  return "NONE";
}

export function issue(urls: Urls, repo: Repository, item: Issue): Json {
  const api = `${urls.api}/repos/${fullName(repo)}/issues/${item.number}`;
  return {
    url: api,
    repository_url: `${urls.api}/repos/${fullName(repo)}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: `${urls.html}/${fullName(repo)}/${item.pull ? "pull" : "issues"}/${item.number}`,
    id: item.id,
    node_id: nodeId("5:Issue", item.id),
    number: item.number,
    title: item.title,
    user: user(urls, item.user),
    labels: labelsOf(urls, repo, item),
    state: item.state,
    state_reason: item.stateReason,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: item.comments.length,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    closed_at: item.closedAt,
    author_association: authorAssociation(repo, item.user),
    active_lock_reason: null,
    body: item.body,
    timeline_url: `${api}/timeline`,
    performed_via_github_app: null,
    reactions: reactions(`${api}/reactions`),
    // GitHub sends `draft` on plain issues too (false), as the webhook examples show.
    draft: item.pull?.draft ?? false,
    ...(item.pull
      ? {
          pull_request: {
            url: `${urls.api}/repos/${fullName(repo)}/pulls/${item.number}`,
            html_url: `${urls.html}/${fullName(repo)}/pull/${item.number}`,
            diff_url: `${urls.html}/${fullName(repo)}/pull/${item.number}.diff`,
            patch_url: `${urls.html}/${fullName(repo)}/pull/${item.number}.patch`,
            merged_at: item.pull.mergedAt,
          },
        }
      : {}),
  };
}

function reactions(url: string): Json {
  return {
    url,
    total_count: 0,
    "+1": 0,
    "-1": 0,
    laugh: 0,
    hooray: 0,
    confused: 0,
    heart: 0,
    rocket: 0,
    eyes: 0,
  };
}

export function comment(urls: Urls, repo: Repository, item: Issue, entry: Comment): Json {
  const repoApi = `${urls.api}/repos/${fullName(repo)}`;
  return {
    id: entry.id,
    node_id: nodeId("12:IssueComment", entry.id),
    url: `${repoApi}/issues/comments/${entry.id}`,
    html_url: `${urls.html}/${fullName(repo)}/${item.pull ? "pull" : "issues"}/${item.number}#issuecomment-${entry.id}`,
    issue_url: `${repoApi}/issues/${item.number}`,
    body: entry.body,
    user: user(urls, entry.user),
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
    author_association: authorAssociation(repo, entry.user),
    performed_via_github_app: entry.app ? integration(urls, entry.app) : null,
    reactions: reactions(`${repoApi}/issues/comments/${entry.id}/reactions`),
  };
}

export interface PullFacts {
  headSha: string;
  baseSha: string;
  /** The head repository's `pushed_at` (a fork has its own). */
  headPushedAt: string;
  /** Diff and commit counts; only the single-pull-request endpoints and webhooks carry them. */
  stats?: { additions: number; deletions: number; changedFiles: number; commits: number };
  pushedAt: string;
}

export function pullRequest(urls: Urls, repo: Repository, item: Issue, facts: PullFacts): Json {
  const pull = item.pull;
  if (!pull) throw new Error(`#${item.number} is not a pull request`);
  const name = fullName(repo);
  const api = `${urls.api}/repos/${name}/pulls/${item.number}`;
  const issueApi = `${urls.api}/repos/${name}/issues/${item.number}`;
  const html = `${urls.html}/${name}/pull/${item.number}`;
  const side = (of: Repository, ref: string, sha: string, pushedAt: string) => ({
    label: `${of.owner.login}:${ref}`,
    ref,
    sha,
    user: user(urls, of.owner),
    repo: repository(urls, of, pushedAt),
  });
  const base: Json = {
    url: api,
    id: item.pullId,
    node_id: nodeId("11:PullRequest", item.pullId ?? 0),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueApi,
    number: item.number,
    state: item.state,
    locked: false,
    title: item.title,
    user: user(urls, item.user),
    body: item.body,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    closed_at: item.closedAt,
    merged_at: pull.mergedAt,
    // Stale while GitHub recomputes it after a push: webhooks carry the previous test merge.
    merge_commit_sha: pull.merge.sha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    labels: labelsOf(urls, repo, item),
    milestone: null,
    draft: pull.draft,
    commits_url: `${api}/commits`,
    review_comments_url: `${api}/comments`,
    review_comment_url: `${urls.api}/repos/${name}/pulls/comments{/number}`,
    comments_url: `${issueApi}/comments`,
    statuses_url: `${urls.api}/repos/${name}/statuses/${facts.headSha}`,
    head: side(pull.headRepo, pull.headRef, facts.headSha, facts.headPushedAt),
    base: side(repo, pull.baseRef, facts.baseSha, facts.pushedAt),
    _links: {
      self: { href: api },
      html: { href: html },
      issue: { href: issueApi },
      comments: { href: `${issueApi}/comments` },
      review_comments: { href: `${api}/comments` },
      review_comment: { href: `${urls.api}/repos/${name}/pulls/comments{/number}` },
      commits: { href: `${api}/commits` },
      statuses: { href: `${urls.api}/repos/${name}/statuses/${facts.headSha}` },
    },
    author_association: authorAssociation(repo, item.user),
    auto_merge: null,
    active_lock_reason: null,
  };
  if (!facts.stats) return base;
  const mergeable = pull.merge.pending ? null : pull.merge.mergeable;
  return {
    ...base,
    merged: pull.merged,
    mergeable: mergeable,
    rebaseable: mergeable,
    mergeable_state: mergeable === null ? "unknown" : mergeable ? "clean" : "dirty",
    merged_by: null,
    comments: item.comments.length,
    review_comments: 0,
    maintainer_can_modify: pull.maintainerCanModify,
    commits: facts.stats.commits,
    additions: facts.stats.additions,
    deletions: facts.stats.deletions,
    changed_files: facts.stats.changedFiles,
  };
}

export function review(urls: Urls, repo: Repository, item: Issue, entry: Review): Json {
  const name = fullName(repo);
  const html = `${urls.html}/${name}/pull/${item.number}#pullrequestreview-${entry.id}`;
  const pullApi = `${urls.api}/repos/${name}/pulls/${item.number}`;
  return {
    id: entry.id,
    node_id: nodeId("17:PullRequestReview", entry.id),
    user: user(urls, entry.user),
    body: entry.body,
    state: entry.state,
    html_url: html,
    pull_request_url: pullApi,
    _links: { html: { href: html }, pull_request: { href: pullApi } },
    submitted_at: entry.submittedAt,
    commit_id: entry.commitId,
    author_association: authorAssociation(repo, entry.user),
  };
}

export function integration(urls: Urls, app: AppIdentity): Json {
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId("3:App", app.id),
    client_id: `Iv1.${app.id.toString(16).padStart(16, "0")}`,
    owner: user(urls, app.owner),
    name: app.name,
    description: null,
    external_url: `${urls.html}/apps/${app.slug}`,
    html_url: `${urls.html}/apps/${app.slug}`,
    created_at: "2024-01-01T00:00:00Z",
    updated_at: "2024-01-01T00:00:00Z",
    permissions: app.permissions,
    events: app.events,
  };
}

export function installation(urls: Urls, item: Installation, app: AppIdentity): Json {
  return {
    id: item.id,
    account: user(urls, item.account),
    repository_selection: "all",
    access_tokens_url: `${urls.api}/app/installations/${item.id}/access_tokens`,
    repositories_url: `${urls.api}/installation/repositories`,
    html_url: `${urls.html}/organizations/${item.account.login}/settings/installations/${item.id}`,
    app_id: item.appId,
    app_slug: app.slug,
    client_id: `Iv1.${app.id.toString(16).padStart(16, "0")}`,
    target_id: item.account.id,
    target_type: item.account.type === "Organization" ? "Organization" : "User",
    permissions: item.permissions,
    events: item.events,
    created_at: item.createdAt,
    updated_at: item.createdAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: null,
  };
}

export function pullRequestMinimal(
  urls: Urls,
  repo: Repository,
  item: Issue,
  headSha: string,
  baseSha: string,
): Json {
  const repoRef = (of: Repository) => ({
    id: of.id,
    url: `${urls.api}/repos/${fullName(of)}`,
    name: of.name,
  });
  return {
    id: item.pullId,
    number: item.number,
    url: `${urls.api}/repos/${fullName(repo)}/pulls/${item.number}`,
    head: { ref: item.pull?.headRef, sha: headSha, repo: repoRef(item.pull?.headRepo ?? repo) },
    base: { ref: item.pull?.baseRef, sha: baseSha, repo: repoRef(repo) },
  };
}

export function simpleCommit(commit: GitCommit): Json {
  const when = (time: number) => new Date(time * 1000).toISOString().replace(".000Z", "Z");
  return {
    id: commit.sha,
    tree_id: commit.tree,
    message: commit.message.replace(/\n$/, ""),
    timestamp: when(commit.committer.time),
    author: { name: commit.author.name, email: commit.author.email },
    committer: { name: commit.committer.name, email: commit.committer.email },
  };
}

export function checkSuite(
  urls: Urls,
  repo: Repository,
  suite: CheckSuite,
  runs: CheckRun[],
  headCommit: GitCommit,
  pulls: Json[],
  pushedAt: string,
): Json {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  const done = runs.length > 0 && runs.every((run) => run.status === "completed");
  return {
    id: suite.id,
    node_id: nodeId("10:CheckSuite", suite.id),
    head_branch: suite.headBranch,
    head_sha: suite.headSha,
    status: runs.length === 0 ? "queued" : done ? "completed" : "in_progress",
    conclusion: done ? suiteConclusion(runs) : null,
    url: `${api}/check-suites/${suite.id}`,
    before: headCommit.parents[0] ?? "0".repeat(40),
    after: suite.headSha,
    pull_requests: pulls,
    app: integration(urls, suite.app),
    repository: repository(urls, repo, pushedAt),
    created_at: suite.createdAt,
    updated_at: suite.updatedAt,
    head_commit: simpleCommit(headCommit),
    latest_check_runs_count: runs.length,
    check_runs_url: `${api}/check-suites/${suite.id}/check-runs`,
    rerequestable: true,
    runs_rerequestable: true,
  };
}

/** GitHub's roll-up: any failure-like conclusion wins over success. */
function suiteConclusion(runs: CheckRun[]): string {
  const order = [
    "action_required",
    "cancelled",
    "timed_out",
    "failure",
    "stale",
    "neutral",
    "skipped",
    "success",
  ];
  let best = "success";
  for (const run of runs) {
    const conclusion = run.conclusion ?? "success";
    if (order.indexOf(conclusion) < order.indexOf(best)) best = conclusion;
  }
  return best;
}

export function checkRun(
  urls: Urls,
  repo: Repository,
  run: CheckRun,
  pulls: Json[],
  suite?: Json,
): Json {
  const api = `${urls.api}/repos/${fullName(repo)}/check-runs/${run.id}`;
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: nodeId("8:CheckRun", run.id),
    external_id: run.externalId,
    url: api,
    html_url: `${urls.html}/${fullName(repo)}/runs/${run.id}`,
    details_url: run.detailsUrl,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.output.annotationsCount,
      annotations_url: `${api}/annotations`,
    },
    name: run.name,
    check_suite: suite ?? { id: run.suiteId },
    app: integration(urls, run.app),
    pull_requests: pulls,
  };
}

export function workflowRun(
  urls: Urls,
  repo: Repository,
  run: WorkflowRun,
  attemptNumber: number,
  headCommit: GitCommit,
  pulls: Json[],
  pushedAt: string,
): Json {
  const api = `${urls.api}/repos/${fullName(repo)}/actions/runs/${run.id}`;
  const attempt = run.attempts.find((entry) => entry.number === attemptNumber);
  if (!attempt) throw new Error(`run ${run.id} has no attempt ${attemptNumber}`);
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId("11:WorkflowRun", run.id),
    check_suite_id: run.checkSuiteId,
    check_suite_node_id: nodeId("10:CheckSuite", run.checkSuiteId),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: run.displayTitle,
    run_number: run.runNumber,
    run_attempt: attempt.number,
    event: run.event,
    status: attempt.status,
    conclusion: attempt.conclusion,
    workflow_id: run.workflowId,
    url: api,
    html_url: `${urls.html}/${fullName(repo)}/actions/runs/${run.id}`,
    pull_requests: pulls,
    created_at: run.createdAt,
    updated_at: attempt.updatedAt,
    run_started_at: attempt.runStartedAt,
    actor: user(urls, run.actor),
    triggering_actor: user(urls, attempt.triggeringActor),
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    check_suite_url: `${urls.api}/repos/${fullName(repo)}/check-suites/${run.checkSuiteId}`,
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    previous_attempt_url: attempt.number > 1 ? `${api}/attempts/${attempt.number - 1}` : null,
    workflow_url: `${urls.api}/repos/${fullName(repo)}/actions/workflows/${run.workflowId}`,
    head_commit: simpleCommit(headCommit),
    repository: repository(urls, repo, pushedAt),
    head_repository: repository(urls, run.headRepo, pushedAt),
    head_repository_id: run.headRepo.id,
  };
}

export function job(urls: Urls, repo: Repository, run: WorkflowRun, entry: WorkflowJob): Json {
  const api = `${urls.api}/repos/${fullName(repo)}/actions`;
  return {
    id: entry.id,
    run_id: run.id,
    run_url: `${api}/runs/${run.id}`,
    run_attempt: entry.runAttempt,
    node_id: nodeId("8:CheckRun", entry.id),
    head_sha: run.headSha,
    head_branch: run.headBranch,
    url: `${api}/jobs/${entry.id}`,
    html_url: `${urls.html}/${fullName(repo)}/actions/runs/${run.id}/job/${entry.id}`,
    status: entry.status,
    conclusion: entry.conclusion,
    created_at: entry.createdAt,
    started_at: entry.startedAt,
    completed_at: entry.completedAt,
    name: entry.name,
    steps: entry.steps.map((step) => ({
      name: step.name,
      status: step.status,
      conclusion: step.conclusion,
      number: step.number,
      started_at: step.startedAt,
      completed_at: step.completedAt,
    })),
    check_run_url: `${urls.api}/repos/${fullName(repo)}/check-runs/${entry.id}`,
    labels: entry.labels,
    runner_id: entry.runner?.id ?? null,
    runner_name: entry.runner?.name ?? null,
    runner_group_id: entry.runner ? 2 : null,
    runner_group_name: entry.runner ? "GitHub Actions" : null,
    workflow_name: run.name,
  };
}

export function artifact(urls: Urls, repo: Repository, run: WorkflowRun, item: Artifact): Json {
  const api = `${urls.api}/repos/${fullName(repo)}/actions/artifacts/${item.id}`;
  return {
    id: item.id,
    node_id: nodeId("8:Artifact", item.id),
    name: item.name,
    size_in_bytes: item.size,
    url: api,
    archive_download_url: `${api}/zip`,
    expired: item.expired,
    digest: item.digest,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    expires_at: item.expiresAt,
    workflow_run: {
      id: run.id,
      repository_id: repo.id,
      head_repository_id: run.headRepo.id,
      head_branch: run.headBranch ?? "",
      head_sha: run.headSha,
    },
  };
}

function gitDate(time: number): string {
  return new Date(time * 1000).toISOString().replace(".000Z", "Z");
}

const UNSIGNED = {
  verified: false,
  reason: "unsigned",
  signature: null,
  payload: null,
  verified_at: null,
};

export function gitCommit(urls: Urls, repo: Repository, commit: GitCommit): Json {
  const api = `${urls.api}/repos/${fullName(repo)}/git`;
  return {
    sha: commit.sha,
    node_id: nodeId("6:Commit", commit.sha),
    url: `${api}/commits/${commit.sha}`,
    html_url: `${urls.html}/${fullName(repo)}/commit/${commit.sha}`,
    author: {
      name: commit.author.name,
      email: commit.author.email,
      date: gitDate(commit.author.time),
    },
    committer: {
      name: commit.committer.name,
      email: commit.committer.email,
      date: gitDate(commit.committer.time),
    },
    tree: { sha: commit.tree, url: `${api}/trees/${commit.tree}` },
    message: commit.message.replace(/\n$/, ""),
    parents: commit.parents.map((parent) => ({
      sha: parent,
      url: `${api}/commits/${parent}`,
      html_url: `${urls.html}/${fullName(repo)}/commit/${parent}`,
    })),
    verification: UNSIGNED,
  };
}

/** The `commit` object of `repos/get-commit`, `repos/list-commits` and `pulls/list-commits`. */
export function commit(
  urls: Urls,
  repo: Repository,
  entry: GitCommit,
  accountFor: (email: string) => Account | undefined,
  files?: GitDiffEntry[],
): Json {
  const api = `${urls.api}/repos/${fullName(repo)}`;
  const author = accountFor(entry.author.email);
  const committer = accountFor(entry.committer.email);
  const result: Json = {
    url: `${api}/commits/${entry.sha}`,
    sha: entry.sha,
    node_id: nodeId("6:Commit", entry.sha),
    html_url: `${urls.html}/${fullName(repo)}/commit/${entry.sha}`,
    comments_url: `${api}/commits/${entry.sha}/comments`,
    commit: {
      url: `${api}/git/commits/${entry.sha}`,
      author: {
        name: entry.author.name,
        email: entry.author.email,
        date: gitDate(entry.author.time),
      },
      committer: {
        name: entry.committer.name,
        email: entry.committer.email,
        date: gitDate(entry.committer.time),
      },
      message: entry.message.replace(/\n$/, ""),
      tree: { sha: entry.tree, url: `${api}/git/trees/${entry.tree}` },
      comment_count: 0,
      verification: UNSIGNED,
    },
    author: author ? user(urls, author) : null,
    committer: committer ? user(urls, committer) : null,
    parents: entry.parents.map((parent) => ({
      sha: parent,
      url: `${api}/commits/${parent}`,
      html_url: `${urls.html}/${fullName(repo)}/commit/${parent}`,
    })),
  };
  if (files) {
    const additions = files.reduce((sum, file) => sum + file.additions, 0);
    const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
    result.stats = { total: additions + deletions, additions, deletions };
    result.files = files.map((file) => diffEntry(urls, repo, file, entry.sha));
  }
  return result;
}

export function diffEntry(urls: Urls, repo: Repository, file: GitDiffEntry, ref: string): Json {
  const name = fullName(repo);
  const path = file.filename.split("/").map(encodeURIComponent).join("/");
  return {
    sha: file.sha,
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    blob_url: `${urls.html}/${name}/blob/${ref}/${path}`,
    raw_url: `${urls.html}/${name}/raw/${ref}/${path}`,
    contents_url: `${urls.api}/repos/${name}/contents/${path}?ref=${ref}`,
    ...(file.patch === undefined ? {} : { patch: file.patch }),
    ...(file.previousFilename === undefined ? {} : { previous_filename: file.previousFilename }),
  };
}

export function treeEntry(urls: Urls, repo: Repository, entry: GitTreeEntry): Json {
  const api = `${urls.api}/repos/${fullName(repo)}/git`;
  return {
    path: entry.path,
    mode: entry.mode,
    type: entry.type,
    sha: entry.sha,
    ...(entry.size === undefined ? {} : { size: entry.size }),
    ...(entry.type === "commit"
      ? {}
      : { url: `${api}/${entry.type === "tree" ? "trees" : "blobs"}/${entry.sha}` }),
  };
}

export function contentItem(
  urls: Urls,
  repo: Repository,
  entry: GitTreeEntry,
  ref: string,
  content?: Buffer,
): Json {
  const name = fullName(repo);
  const path = entry.path.split("/").map(encodeURIComponent).join("/");
  const self = `${urls.api}/repos/${name}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const kind = entry.type === "tree" ? "dir" : entry.type === "commit" ? "submodule" : "file";
  const gitUrl =
    kind === "dir"
      ? `${urls.api}/repos/${name}/git/trees/${entry.sha}`
      : kind === "file"
        ? `${urls.api}/repos/${name}/git/blobs/${entry.sha}`
        : null;
  const html = `${urls.html}/${name}/${kind === "dir" ? "tree" : "blob"}/${ref}/${path}`;
  const result: Json = {
    type: kind,
    encoding: content ? "base64" : undefined,
    size: entry.size ?? 0,
    name: entry.path.split("/").pop() ?? entry.path,
    path: entry.path,
    sha: entry.sha,
    url: self,
    git_url: gitUrl,
    html_url: html,
    download_url: kind === "file" ? `${urls.html}/${name}/raw/${ref}/${path}` : null,
    _links: { self, git: gitUrl, html },
  };
  if (content) {
    // GitHub wraps base64 content at 60 characters with newlines.
    result.content = (content.toString("base64").match(/.{1,60}/g) ?? [""]).join("\n");
  } else {
    delete result.encoding;
  }
  return result;
}
