import { describe, expect, it } from "vitest";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { entryDraft, openedEvent } from "../../test/support/entry-fixture.js";
import { useSqliteStore } from "../../test/support/sqlite-store.js";
import { recordInput } from "../../test/support/store.js";
import { agentWaits } from "../entries/waiting.js";
import type { SqliteStore } from "../store/sqlite-store.js";
import { type DashboardDeps, type DashboardGitHub, runDashboardJob } from "./job.js";

const REPO = "octo/repo";
const AT = "2026-12-05T10:00:00.000Z";
const HEAD = "a".repeat(40);

/** GitHub as the dashboard reads it: pull request 12 open, no dashboard issue yet. */
const opened: string[] = [];
const github: DashboardGitHub = {
  openPullRequests: async () => [{ number: 12, head_sha: HEAD, author: "agent-a", title: "Fix" }],
  issuesBy: async () => [],
  createIssue: async (_title, body) => {
    opened.push(body);
    return 100;
  },
  setIssueBody: async () => {},
  issueComments: async () => [],
};

describe("runDashboardJob", () => {
  const store = useSqliteStore();

  it("reads a pull request's records once when it is both open and linked to an escalated entry", async () => {
    const entry = entryDraft({
      repository: REPO,
      issue_number: 7,
      state: "escalated",
      opened_at: AT,
      state_changed_at: AT,
    });
    await store().createEntry({ entry, event: openedEvent(AT) });
    await store().replaceEntryMentions({ repository: REPO, pullNumber: 12, issues: [7] });
    await store().appendRecord(
      recordInput({
        repository: REPO,
        pull_number: 12,
        head_sha: HEAD,
        decision: { state: "stalled", reasons: ["no progress in 3 attempts"] },
        decided_at: AT,
      }),
    );
    const reads: number[] = [];
    const counted = new Proxy(store(), {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property !== "listRecords" || typeof value !== "function") {
          return typeof value === "function" ? value.bind(target) : value;
        }
        return (query: { pullNumber: number }) => {
          reads.push(query.pullNumber);
          return value.call(target, query);
        };
      },
    }) as SqliteStore;
    const deps: DashboardDeps = {
      github,
      store: counted,
      appLogin: "agate[bot]",
      now: () => new Date(AT),
      agentWaits,
    };
    const job = {
      repository: REPO,
      installation: 1,
      trigger: { event: "test", action: null, delivery_id: null },
    };
    expect(DASHBOARD_JOBS.refresh.payload.parse(job)).toEqual(job);
    expect(await runDashboardJob(job, deps)).toContain("opened #100");
    expect(reads).toEqual([12]);
    // The head's record from that one read lists the pull request; the entry waits on it.
    expect(opened.at(-1)).toMatch(/### Stalled[^#]*- #12 `Fix`/);
    expect(opened.at(-1)).toContain("#7");
  });
});
