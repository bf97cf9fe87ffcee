/**
 * The triage dashboard end to end: entries driven by comments through the App's route, jobs and
 * handlers against the simulator over HTTP; the dashboard issue as GitHub holds it.
 */
import { describe, expect, it } from "vitest";
import { DASHBOARD_MARKER, DASHBOARD_TITLE } from "../../checks/dashboard/render.js";
import { DASHBOARD_JOBS } from "../../schemas/jobs/dashboard.js";
import { jobOf } from "../../schemas/jobs/index.js";
import type { Issue } from "../github/state.js";
import { ENTRY_FORM, entriesConfig, useEntriesHarness } from "../support/entries-harness.js";
import { recordInput } from "../support/store.js";

const h = useEntriesHarness();
const CONFIG = entriesConfig("boss");

/** The App's own dashboard issues in the repository (there must be one at most). */
function dashboards(repo: string): Issue[] {
  const r = h.sim.repository({ repo });
  return [...r.issues.values()].filter(
    (i) => i.user.login === `${h.sim.appSlug}[bot]` && (i.body ?? "").includes(DASHBOARD_MARKER),
  );
}
function dashboard(repo: string): Issue {
  const [only, ...more] = dashboards(repo);
  if (!only || more.length > 0) throw new Error(`${repo}: ${dashboards(repo).length} dashboards`);
  return only;
}
/** The writes to the dashboard issue's body (issue updates of that number). */
const bodyWrites = (number: number) =>
  h.sim.callLog.filter(
    (c) => c.operationId === "issues/update" && c.path.endsWith(`/issues/${number}`),
  ).length;
const section = (body: string, heading: string) => {
  const start = body.indexOf(`### ${heading}`);
  const end = body.indexOf("###", start + 4);
  return body.slice(start, end === -1 ? undefined : end);
};

describe("the triage dashboard", () => {
  it("an escalated entry is listed; a maintainer's /answer takes it off; a replayed transition writes nothing", async () => {
    await h.repo("d1", CONFIG);
    const n = await h.openEntry("d1", ENTRY_FORM({}));
    // Opening and claiming change nothing the dashboard lists: no refresh, no issue.
    await h.comment("d1", n, "/claim", "agent-b");
    expect(await h.store.listJobs({ kind: "entries.dashboard" })).toEqual([]);
    expect(dashboards("d1")).toEqual([]);

    await h.comment("d1", n, "/escalate money the staging database needs a paid plan", "agent-a");
    const issue = dashboard("d1");
    expect(issue.title).toBe(DASHBOARD_TITLE);
    expect(section(issue.body ?? "", "Escalated entries")).toContain(
      `- #${n} \`Which port does the staging database listen on?\` · money: \`the staging database needs a paid plan\` · claimed by \`agent-b\` · since `,
    );

    // agent-a is no maintainer: the entry stays escalated and listed.
    await h.comment("d1", n, "/answer never mind", "agent-a");
    expect((await h.store.getEntry({ repository: "agate-dev/d1", issueNumber: n }))?.state).toBe(
      "escalated",
    );
    expect(section(dashboard("d1").body ?? "", "Escalated entries")).toContain(`#${n} `);

    h.sim.clearCalls();
    await h.sim.addIssueComment({
      repo: "d1",
      number: n,
      body: "/answer yes, buy it",
      user: "boss",
    });
    const [answer] = await h.takePending();
    if (!answer) throw new Error("no delivery for the answer");
    await h.record(answer);
    await h.runJobs();
    await h.work();
    expect(h.issue("d1", n).state).toBe("closed");
    expect(section(dashboard("d1").body ?? "", "Escalated entries")).not.toContain(`#${n} `);
    expect(bodyWrites(dashboard("d1").number)).toBe(1);

    // The same transition again: redelivered under a new id, and its refresh job run again.
    const before = dashboard("d1").updatedAt;
    expect(await h.record(answer, "redelivered-answer")).toBe("new");
    await h.store.enqueue(
      jobOf(DASHBOARD_JOBS.refresh, {
        repository: "agate-dev/d1",
        installation: h.sim.installationId,
        trigger: { event: "issue_comment", action: "created", delivery_id: "redelivered-answer" },
      }),
    );
    await h.runJobs();
    await h.work();
    expect(bodyWrites(dashboard("d1").number)).toBe(1);
    expect(dashboard("d1").updatedAt).toBe(before);
    expect(h.log.at(-1)).toMatch(/dashboard: #\d+ unchanged/);
  });

  it("closing an escalated entry decides nothing, whoever closes it (a merged pull request's closing keyword would too): it is reopened and stays listed until a maintainer's /answer", async () => {
    await h.repo("d4", CONFIG);
    const n = await h.openEntry("d4", ENTRY_FORM({}));
    await h.comment("d4", n, "/escalate credentials the deploy key expired", "agent-a");
    const close = async (login: string) => {
      const repo = h.sim.repository({ repo: "d4" });
      await h.sim.world.updateIssue(repo, h.issue("d4", n), h.sim.world.account(login), {
        state: "closed",
      });
      await h.work();
    };
    const stateOf = async () =>
      (await h.store.getEntry({ repository: "agate-dev/d4", issueNumber: n }))?.state;
    for (const login of ["agent-a", "boss"]) {
      await close(login);
      expect(await stateOf()).toBe("escalated");
      expect(h.issue("d4", n).state).toBe("open");
      expect(h.agateComments("d4", n).at(-1)?.body).toContain(
        "Closing never decides an escalation",
      );
      expect(section(dashboard("d4").body ?? "", "Escalated entries")).toContain(`#${n} `);
    }
    // The author, even listed as a maintainer, cannot decide it; boss can.
    await h.comment("d4", n, "/answer rotate it yourself", "agent-a");
    expect(await stateOf()).toBe("escalated");
    await h.comment("d4", n, "/answer rotate it; the new key is in the vault", "boss");
    expect(await stateOf()).toBe("resolved");
    expect(section(dashboard("d4").body ?? "", "Escalated entries")).not.toContain(`#${n} `);
  });

  it("only the App's own issue is the dashboard: a marker typed by someone else is ignored", async () => {
    await h.repo("d2", CONFIG);
    const forged = await h.sim.createIssue({
      repo: "d2",
      title: DASHBOARD_TITLE,
      body: `Nothing needs you.\n\n${DASHBOARD_MARKER}`,
      user: "agent-z",
    });
    await h.work();
    const n = await h.openEntry("d2", ENTRY_FORM({}));
    await h.comment("d2", n, "/block nobody here knows the port", "agent-a");
    const own = dashboard("d2");
    expect(own.number).not.toBe(forged);
    expect(section(own.body ?? "", "Blocked entries")).toContain(
      `- #${n} \`Which port does the staging database listen on?\` · \`nobody here knows the port\` · asked by \`agent-a\``,
    );
    expect(h.issue("d2", forged).body).toBe(`Nothing needs you.\n\n${DASHBOARD_MARKER}`);
  });

  it("concurrent transitions coalesce into one write; stalled and capped pull requests are parked", async () => {
    await h.repo("d3", CONFIG);
    const a = await h.openEntry("d3", ENTRY_FORM({ question: "First?" }));
    const b = await h.openEntry("d3", ENTRY_FORM({ question: "Second?" }));
    await h.sim.addIssueComment({
      repo: "d3",
      number: a,
      body: "/escalate scope is this ours?",
      user: "agent-a",
    });
    await h.sim.addIssueComment({
      repo: "d3",
      number: b,
      body: "/block no one can",
      user: "agent-a",
    });
    h.sim.clearCalls();
    await h.work();
    const issue = dashboard("d3");
    expect(section(issue.body ?? "", "Escalated entries")).toContain(`#${a} `);
    expect(section(issue.body ?? "", "Blocked entries")).toContain(`#${b} `);
    expect(h.sim.calls["issues/create"] ?? 0).toBe(1);
    expect(bodyWrites(issue.number)).toBe(0);
    expect(h.log.filter((line) => line.includes("gives way"))).toHaveLength(1);

    // A gate decision stored for a live head: the gate queues the refresh after it.
    const pull = await h.openPull("d3", { title: "Half of it" });
    await h.store.appendRecord(
      recordInput({
        repository: "agate-dev/d3",
        pull_number: pull.number,
        head_sha: pull.head,
        decision: {
          state: "capped",
          reasons: [
            "Capped on 1234567: 5 graded attempts, the limit",
            "progress: capped: 5 graded attempts of 5",
          ],
        },
        decided_at: h.clock.now().toISOString(),
      }),
    );
    await h.store.enqueue(
      jobOf(DASHBOARD_JOBS.refresh, {
        repository: "agate-dev/d3",
        installation: h.sim.installationId,
        trigger: { event: "gate", action: null, delivery_id: null },
      }),
    );
    await h.runJobs();
    expect(section(dashboard("d3").body ?? "", "Capped pull requests")).toContain(
      `- #${pull.number} \`Half of it\` · 5 graded attempts of 5 · author \`agent-a\``,
    );
  });
});
