/**
 * A repository's dashboard refresh: read what it lists (entries and acceptance records from the
 * store, open pull requests from GitHub), render it (checks/dashboard/), find the App's own
 * dashboard issue by its marker, and write only when the text differs. Read before write and a
 * deterministic rendering make a replayed transition write nothing.
 */
import { type DashboardPull, dashboardPull } from "../../checks/dashboard/pulls.js";
import {
  DASHBOARD_MARKER,
  DASHBOARD_TITLE,
  dashboardHasItems,
  LISTED_ENTRY_STATES,
  renderDashboard,
} from "../../checks/dashboard/render.js";
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import { DASHBOARD_JOBS, type DashboardJob, dashboardKey } from "../../schemas/jobs/dashboard.js";
import type { GitHubAdapter } from "../github/adapter.js";
import type { EntryMentionStore } from "../store/ports/entry-mention-store.js";
import type { EntryStore } from "../store/ports/entry-store.js";
import type { JobQueue } from "../store/ports/job-queue.js";
import type { RecordStore } from "../store/ports/record-store.js";

export type DashboardGitHub = Pick<
  GitHubAdapter,
  "issuesBy" | "createIssue" | "setIssueBody" | "openPullRequests" | "issueComments"
>;

export interface DashboardDeps {
  github: DashboardGitHub;
  store: EntryStore & RecordStore & JobQueue & EntryMentionStore;
  /** The App's bot login: only an issue it opened is the dashboard. */
  appLogin: string;
  now: () => Date;
  /**
   * Whether an agent waits on an entry: the entries' rule (app/entries/waiting.ts), handed in by
   * app/compose.ts so the dashboard imports no other domain.
   */
  agentWaits: AgentWaits;
}

/**
 * Truthy when an agent waits on the entry; `isOpen` answers for the pull requests it asks about,
 * `records` gives each one's records (every head's).
 */
export type AgentWaits = (
  read: Pick<DashboardDeps, "github" | "store" | "now">,
  entry: HandoffEntry,
  reads: {
    isOpen: (number: number) => Promise<boolean>;
    records: (pullNumber: number) => Promise<readonly AcceptanceRecord[]>;
  },
) => Promise<unknown>;

/** GitHub hands back a body edited in its web editor with CRLF line ends. */
const sameText = (a: string, b: string) => a.replace(/\r\n/g, "\n") === b.replace(/\r\n/g, "\n");

export async function runDashboardJob(job: DashboardJob, deps: DashboardDeps): Promise<string> {
  const { github, store } = deps;
  const where = `${job.repository} dashboard`;
  // Refreshes of a repository run in order: one queued behind this one reads everything later
  // than this one could, so this one gives way (concurrent transitions coalesce into it).
  const newer = await store.countJobs({
    status: "queued",
    kind: DASHBOARD_JOBS.refresh.kind,
    concurrencyKey: dashboardKey(job.repository),
  });
  if (newer > 0) return `${where}: a newer refresh is queued, this one gives way`;

  const entries = await store.listEntries({
    repository: job.repository,
    states: LISTED_ENTRY_STATES,
  });
  const open = await github.openPullRequests();
  // Whether an agent waits on an escalated entry (app/entries/waiting.ts): a maintainer's
  // decision that holds an agent up comes first to mind. Blocked entries are parked. Whether a
  // pull request is open comes from the list just read: GitHub's own answer, as a read of the
  // pull request would be, and no call per pull request. Each pull request's records are read
  // once per refresh, whichever entry (or the open pull request's line below) asks.
  const openNumbers = new Set(open.map((p) => p.number));
  const read = new Map<number, Promise<AcceptanceRecord[]>>();
  const records = (pullNumber: number) => {
    let all = read.get(pullNumber);
    if (!all) {
      all = store.listRecords({ repository: job.repository, pullNumber });
      read.set(pullNumber, all);
    }
    return all;
  };
  const reads = { isOpen: async (number: number) => openNumbers.has(number), records };
  const waiting = new Set<number>();
  for (const entry of entries.filter((e) => e.state === "escalated")) {
    if (await deps.agentWaits({ github, store, now: deps.now }, entry, reads))
      waiting.add(entry.issue_number);
  }
  const pulls: DashboardPull[] = [];
  for (const pull of open) {
    // Every head's when an entry's look read them (dashboardPull keeps the head's), else the head's.
    const all = read.get(pull.number);
    const head = all
      ? await all
      : await store.listRecords({
          repository: job.repository,
          pullNumber: pull.number,
          headSha: pull.head_sha,
        });
    const line = dashboardPull(pull, head);
    if (line) pulls.push(line);
  }
  const input = { entries, pulls, waiting };
  const body = renderDashboard(input);
  const counts = `${entries.length} entries, ${pulls.length} pull requests`;

  // Anyone can open an issue with the marker in it: only the App's own counts. The oldest wins,
  // so a second one (never made by this job, which runs one at a time per repository) is ignored.
  const login = deps.appLogin.toLowerCase();
  const issues = await github.issuesBy(deps.appLogin);
  // GitHub answers 410 when the repository has issues turned off: nothing to keep, no retry.
  if (issues === "disabled") return `${where}: issues are disabled in the repository, no dashboard`;
  const dashboard = issues
    .filter((i) => i.author.toLowerCase() === login && i.body.includes(DASHBOARD_MARKER))
    .sort((a, b) => a.number - b.number)[0];
  if (!dashboard) {
    if (!dashboardHasItems(input)) return `${where}: nothing to list, no issue opened`;
    const number = await github.createIssue(DASHBOARD_TITLE, body);
    return `${where}: opened #${number} (${counts})`;
  }
  if (sameText(dashboard.body, body)) return `${where}: #${dashboard.number} unchanged`;
  await github.setIssueBody(dashboard.number, body);
  return `${where}: #${dashboard.number} updated (${counts})`;
}
