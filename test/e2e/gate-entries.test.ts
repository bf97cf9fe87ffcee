/**
 * The gate knows (issue 13, item 7): a gated pull request linked to a handoff entry (the entry's
 * form names it) shows the entry's state in its `agate` check, is escalated while the entry is,
 * and moves on when the entry is resolved. Against the simulator, with the App's own route and
 * handlers: the entry job queues the pull request's pass with each change of the entry
 * (linkedPullRequestJobs), and nothing else asks for one. Links from the pull request's side (its
 * description mentions the entry) and derived priority: test/e2e/entry-priority.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ENTRY_FORM, entriesConfig, useEntriesHarness } from "../support/entries-harness.js";

const h = useEntriesHarness();

const CONFIG = entriesConfig();

async function gatedPullRequest(repo: string) {
  await h.repo(repo, CONFIG);
  return h.openPull(repo);
}

describe("the gate reads the entries that name a pull request", () => {
  it("open: the check shows the entry and waits; escalated: the pull request is escalated with the decision in the title; a maintainer's decision moves it on", async () => {
    const pr = await gatedPullRequest("ge1");
    expect(h.agateCheck("ge1", pr.head).status).toBe("in_progress");

    const n = await h.openEntry("ge1", ENTRY_FORM({ pull: `#${pr.number}` }));
    let check = h.agateCheck("ge1", pr.head);
    expect(check.status).toBe("in_progress");
    expect(check.output.summary).toContain("### Handoff entries");
    expect(check.output.summary).toContain(`| handoff entry #${n} | open |`);
    expect(check.output.summary).toMatch(
      /\| handoff entries \| ⏳ waiting \| waiting for the answer/,
    );

    await h.comment("ge1", n, "/escalate money buy the 50 EUR plan?", "agent-a");
    check = h.agateCheck("ge1", pr.head);
    expect([check.status, check.conclusion]).toEqual(["completed", "action_required"]);
    expect(check.output.title).toBe(
      `Escalated on ${pr.head.slice(0, 7)}: handoff entry #${n} needs a maintainer's decision on money`,
    );
    expect(h.sim.labelsOf({ repo: "ge1", number: pr.number })).toContain("agate:escalated");

    // A maintainer decides on the entry; its pull request is no longer held by it.
    await h.comment("ge1", n, "/answer yes, buy it", "octocat");
    const entry = (await h.store.listEntries()).find(
      (e) => e.repository.endsWith("/ge1") && e.issue_number === n,
    );
    expect(entry?.state).toBe("resolved");
    check = h.agateCheck("ge1", pr.head);
    // Released: no command record yet, so it waits for evidence as before the entry.
    expect([check.status, check.conclusion]).toEqual(["in_progress", null]);
    expect(check.output.summary).toContain(`| handoff entry #${n} | resolved |`);
    expect(h.sim.labelsOf({ repo: "ge1", number: pr.number })).toEqual([]);
  });

  it("attack: an entry anyone opens naming someone else's pull request can hold it, never pass it", async () => {
    const pr = await gatedPullRequest("ge2");
    const n = await h.openEntry("ge2", ENTRY_FORM({ pull: `#${pr.number}` }), "mallory");
    await h.comment("ge2", n, "/claim", "mallory-2");
    await h.comment("ge2", n, "/answer done, merge it", "mallory-2");
    const check = h.agateCheck("ge2", pr.head);
    // Resolved, and still no command record: the pull request waits for evidence as before.
    expect(check.status).toBe("in_progress");
    expect(check.conclusion).toBeNull();
    expect(check.output.summary).toContain(`| handoff entry #${n} | resolved |`);
  });

  it("attack: a machine user GitHub types Bot (no `[bot]` in its login) with write access cannot decide an escalation (issue 26)", async () => {
    // No maintainers listed: anyone with write access is one, but only a person's account.
    await h.repo("ge3", 'version: 1\ncommands:\n  - name: test\n    run: "true"\n');
    const n = await h.openEntry("ge3", ENTRY_FORM({}));
    await h.comment("ge3", n, "/escalate money buy the 50 EUR plan?", "agent-a");
    h.sim.addUser("agent-machine", "Bot");
    h.sim.setPermission({ repo: "ge3", user: "agent-machine", permission: "admin" });
    await h.comment("ge3", n, "/answer yes, buy it", "agent-machine");
    const entry = (await h.store.listEntries()).find(
      (e) => e.repository.endsWith("/ge3") && e.issue_number === n,
    );
    expect(entry?.state).toBe("escalated");
  });
});
