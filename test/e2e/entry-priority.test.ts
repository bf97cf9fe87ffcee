/**
 * Derived priority (issue 13, item 5): an entry is `agate:blocking` while an agent waits on it,
 * that is while a linked pull request (named by the entry's form, or mentioning the entry in its
 * own description) is open and held by the gate by agate's stored decisions; `agate:background`
 * otherwise. Against the simulator, with the App's own route and handlers: every change reaches
 * the entry's label through the jobs the gate pass and the entry pass queue, nothing else.
 */
import { describe, expect, it } from "vitest";
import { entryMain } from "../../action/cli/entry.js";
import { tokenClient } from "../github/index.js";
import { agentEnv } from "../support/entries-app.js";
import { ENTRY_FORM, entriesConfig, useEntriesHarness } from "../support/entries-harness.js";

const h = useEntriesHarness();

const CONFIG = entriesConfig();

const labels = (repo: string, n: number) => [...h.issue(repo, n).labels].sort();
const priority = (repo: string, n: number) =>
  labels(repo, n).filter((l) => l === "agate:blocking" || l === "agate:background");

/** A pull request on an agent's branch (gated by the default `gate`), in a new repository unless `existing`. */
async function gatedPullRequest(repo: string, body?: string, existing = false) {
  if (!existing) await h.repo(repo, CONFIG);
  return (await h.openPull(repo, body === undefined ? {} : { body })).number;
}

const head = (repo: string) => {
  const sha = h.sim.branchSha({ repo, branch: "codex/x" });
  if (!sha) throw new Error("no head");
  return sha;
};

/** The pull request's description changed by its author, as through the API. */
async function editBody(repo: string, number: number, body: string) {
  const writer = tokenClient(h.sim, h.sim.createToken({ permissions: { pull_requests: "write" } }));
  await writer.rest.pulls.update({ owner: h.sim.owner, repo, pull_number: number, body });
  await h.work();
}

describe("an entry's priority follows the gate of the pull requests linked to it", () => {
  it("named by the entry: blocking while its gate holds it, background once accepted, blocking again after a push", async () => {
    const pull = await gatedPullRequest("pr1");
    const n = await h.openEntry("pr1", ENTRY_FORM({ pull: `#${pull}` }));
    expect(h.agateCheck("pr1", head("pr1")).status).toBe("in_progress");
    expect(labels("pr1", n)).toEqual(["agate:blocking", "agate:open"]);

    // A maintainer (listed in escalation.maintainers) accepts the exact head: nobody waits on an
    // accepted pull request.
    await h.comment("pr1", pull, `/agate accept ${head("pr1")} checked by hand`, "octocat");
    expect(h.agateCheck("pr1", head("pr1")).conclusion).toBe("success");
    expect(labels("pr1", n)).toEqual(["agate:background", "agate:open"]);

    // A push voids the acceptance: the gate holds the new head, and the entry blocks again.
    await h.sim.pushCommit({ repo: "pr1", branch: "codex/x", files: { "b.txt": "b\n" } });
    await h.work();
    expect(h.agateCheck("pr1", head("pr1")).status).toBe("in_progress");
    expect(labels("pr1", n)).toEqual(["agate:blocking", "agate:open"]);
  });

  it("a pull request the gate does not hold (not gated) leaves the entry in the background", async () => {
    await h.repo("pr2", `${CONFIG}gate:\n  all: false\n`);
    // Not an agent's branch, author or label: this config's gate selects none of it.
    const pull = await h.openPull("pr2", {
      branch: "people/x",
      title: "A person's",
      user: "someone",
    });
    const records = await h.store.listRecords({
      repository: `${h.sim.owner}/pr2`,
      pullNumber: pull.number,
    });
    expect(records.at(-1)?.decision.state).toBe("not_gated");
    const n = await h.openEntry("pr2", ENTRY_FORM({ pull: `#${pull.number}` }));
    expect(labels("pr2", n)).toEqual(["agate:background", "agate:open"]);
  });

  it("mentioned in a pull request's description: the entry blocks, the check shows it, its escalation escalates the pull request; the mention dropped, it is background again", async () => {
    await h.repo("pr3", CONFIG);
    const n = await h.openEntry("pr3", ENTRY_FORM({}));
    expect(priority("pr3", n)).toEqual(["agate:background"]);
    const other = await h.openEntry("pr3", ENTRY_FORM({ question: "Which region?" }));

    // Another repository's reference and one in code are no links.
    const pull = await gatedPullRequest(
      "pr3",
      `Part one. Not this: elsewhere/repo#${n}, nor \`#${other}\`.`,
      true,
    );
    expect(priority("pr3", n)).toEqual(["agate:background"]);
    expect(priority("pr3", other)).toEqual(["agate:background"]);
    expect(h.agateCheck("pr3", head("pr3")).output.summary).not.toContain("Handoff entries");

    await editBody("pr3", pull, `Part one. Waits on ${h.sim.owner}/pr3#${n} (see #${n}).`);
    expect(priority("pr3", n)).toEqual(["agate:blocking"]);
    expect(priority("pr3", other)).toEqual(["agate:background"]);
    let check = h.agateCheck("pr3", head("pr3"));
    expect(check.status).toBe("in_progress");
    expect(check.output.summary).toContain(`| handoff entry #${n} | open |`);
    expect(check.output.summary).toMatch(
      /\| handoff entries \| ⏳ waiting \| waiting for the answer/,
    );

    // The entry's escalation reaches the pull request that mentions it, with no event on it.
    await h.comment("pr3", n, "/escalate money buy the 50 EUR plan?", "agent-a");
    check = h.agateCheck("pr3", head("pr3"));
    expect([check.status, check.conclusion]).toEqual(["completed", "action_required"]);
    expect(check.output.title).toContain(
      `handoff entry #${n} needs a maintainer's decision on money`,
    );
    expect(h.sim.labelsOf({ repo: "pr3", number: pull })).toContain("agate:escalated");
    expect(priority("pr3", n)).toEqual(["agate:blocking"]);

    // The mention dropped: nothing links the entry, and the pull request is no longer held by it.
    await editBody("pr3", pull, "Part one.");
    expect(priority("pr3", n)).toEqual(["agate:background"]);
    check = h.agateCheck("pr3", head("pr3"));
    expect([check.status, check.conclusion]).toEqual(["in_progress", null]);
    expect(check.output.summary).not.toContain("Handoff entries");
    expect(h.sim.labelsOf({ repo: "pr3", number: pull })).toEqual([]);
  });

  it("an issue that becomes an entry after a pull request mentions it is linked by that mention; the pull request closed and reopened takes the entry with it", async () => {
    await h.repo("pr4", CONFIG);
    // Issues and pull requests share numbers: after this issue, the pull request takes the next
    // number and the entry opened after it the one after that, which the description names first.
    const first = await h.openEntry("pr4", ENTRY_FORM({}));
    const pull = await gatedPullRequest("pr4", `Waits on #${first + 2}.`, true);
    expect(pull).toBe(first + 1);
    const n = await h.openEntry("pr4", ENTRY_FORM({ question: "Which bucket?" }));
    expect(n).toBe(first + 2);
    expect(priority("pr4", n)).toEqual(["agate:blocking"]);
    expect(priority("pr4", first)).toEqual(["agate:background"]);
    // The entry's opening queued the pass of the pull request that mentions it.
    expect(h.agateCheck("pr4", head("pr4")).output.summary).toContain(
      `| handoff entry #${n} | open |`,
    );

    await h.sim.setPullRequestState({ repo: "pr4", number: pull, state: "closed" });
    await h.work();
    expect(priority("pr4", n)).toEqual(["agate:background"]);
    await h.sim.setPullRequestState({ repo: "pr4", number: pull, state: "open" });
    await h.work();
    expect(priority("pr4", n)).toEqual(["agate:blocking"]);
  });

  it("an agent cannot set priority by hand: a removed agate:blocking is put back, naming the rule", async () => {
    const pull = await gatedPullRequest("pr5");
    const n = await h.openEntry("pr5", ENTRY_FORM({ pull: `#${pull}` }));
    expect(priority("pr5", n)).toEqual(["agate:blocking"]);
    await h.sim.removeLabel({ repo: "pr5", number: n, label: "agate:blocking", user: "agent-a" });
    await h.sim.addLabels({
      repo: "pr5",
      number: n,
      labels: ["agate:background"],
      user: "agent-a",
    });
    await h.work();
    expect(priority("pr5", n)).toEqual(["agate:blocking"]);
    const last = h.agateComments("pr5", n).at(-1)?.body ?? "";
    expect(last).toContain("Priority is derived");
  });

  it("the dashboard knows a held pull request is open from its one list of open pull requests, no read per pull request", async () => {
    const pull = await gatedPullRequest("w4");
    const n = await h.openEntry("w4", ENTRY_FORM({ pull: `#${pull}` }));
    h.log.length = 0;
    await h.comment("w4", n, "/escalate money buy the 50 EUR plan?", "agent-a");
    const board = () =>
      [...h.sim.repository({ repo: "w4" }).issues.values()].find(
        (i) => i.user.login === `${h.sim.appSlug}[bot]`,
      )?.body ?? "";
    expect(board()).toMatch(new RegExp(`- #${n} .* · \\*\\*an agent waits on it\\*\\*`));
    const refreshes = h.log.filter((line) => line.includes("dashboard"));
    expect(refreshes.length).toBeGreaterThan(0);
    for (const line of refreshes) expect(line).not.toContain("pulls/get");

    await h.sim.setPullRequestState({ repo: "w4", number: pull, state: "closed" });
    await h.work();
    expect(priority("w4", n)).toEqual(["agate:background"]);
    expect(board()).toContain(`- #${n} `);
    expect(board()).not.toContain("an agent waits on it");
  });
});

describe("an entry is blocking while its author declares it waits on it (/wait), until the declaration runs out", () => {
  it("declared on the entry: blocking at once, renewed by an edit, background when the lease runs out; nobody else's /wait counts", async () => {
    await h.repo("w1", CONFIG);
    const n = await h.openEntry("w1", ENTRY_FORM({}));
    expect(priority("w1", n)).toEqual(["agate:background"]);

    // Someone else's declaration makes nothing urgent.
    await h.comment("w1", n, "/wait 10m", "mallory");
    expect(priority("w1", n)).toEqual(["agate:background"]);

    const id = await h.comment("w1", n, "/wait 10m", "agent-a");
    expect(priority("w1", n)).toEqual(["agate:blocking"]);
    expect(h.agateComments("w1", n).map((c) => c.body)).not.toContainEqual(
      expect.stringContaining("/wait"),
    );

    // Renewed by its author after 8 minutes (an edit: GitHub's time of it counts).
    await h.advance(8 * 60_000);
    const author = tokenClient(
      h.sim,
      h.sim.createToken({ actor: "agent-a", permissions: { issues: "write" } }),
    );
    await author.rest.issues.updateComment({
      owner: h.sim.owner,
      repo: "w1",
      comment_id: id,
      body: "/wait 10m (renewed)",
    });
    await h.work();
    // The first lease's timer finds the renewal: still blocking.
    await h.advance(3 * 60_000);
    expect(priority("w1", n)).toEqual(["agate:blocking"]);
    // Ten minutes after the renewal, with no other: the agent counts no more.
    await h.advance(7 * 60_000 + 1_000);
    expect(priority("w1", n)).toEqual(["agate:background"]);
  });

  it("waiting through the CLI: entry status --wait declares it and renews it; the entry is blocking until it resolves", async () => {
    await h.repo("w2", CONFIG);
    const n = await h.openEntry("w2", ENTRY_FORM({}));
    let stdout = "";
    const waiting = entryMain(
      ["status", String(n), "--wait", "1m", "--json"],
      {
        ...agentEnv(h.sim, "agent-a", "w2"),
        AGATE_ENTRY_POLL_MS: "50",
        AGATE_ENTRY_WAIT_LEASE: "400ms",
      },
      {
        log: (line) => {
          stdout += line;
        },
        error: () => {},
      },
    );
    // While the agent waits: its /wait on the entry, renewed, and the entry blocking.
    const until = Date.now() + 20_000;
    while (priority("w2", n)[0] !== "agate:blocking" && Date.now() < until) await h.work();
    expect(priority("w2", n)).toEqual(["agate:blocking"]);
    const mine = () => h.issue("w2", n).comments.filter((c) => c.user.login === "agent-a");
    expect(mine()[0]?.body).toMatch(/^\/wait 1s\n/);
    while (!/renewed/.test(mine()[0]?.body ?? "") && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(mine()[0]?.body).toMatch(
      /^\/wait 1s\n\nThe author waits on this entry .*renewed \d+ times/,
    );
    // Answered: the wait ends, the declaration becomes plain words.
    await h.comment("w2", n, "/claim", "agent-b");
    await h.comment("w2", n, "/answer 5433", "agent-b");
    expect(await waiting).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ state: "resolved", answer: "5433" });
    expect(mine()[0]?.body).toMatch(/^The author waited on this entry .* until it was resolved\.$/);
    expect(labels("w2", n)).toEqual(["agate:background", "agate:resolved"]);
  });

  it("the dashboard says which escalated entry an agent waits on", async () => {
    await h.repo("w3", CONFIG);
    const n = await h.openEntry("w3", ENTRY_FORM({}));
    await h.comment("w3", n, "/escalate money buy the 50 EUR plan?", "agent-a");
    const board = () =>
      [...h.sim.repository({ repo: "w3" }).issues.values()].find(
        (i) => i.user.login === `${h.sim.appSlug}[bot]`,
      )?.body ?? "";
    expect(board()).toContain(`- #${n} `);
    expect(board()).not.toContain("an agent waits on it");
    await h.comment("w3", n, "/wait 10m", "agent-a");
    expect(priority("w3", n)).toEqual(["agate:blocking"]);
    expect(board()).toMatch(new RegExp(`- #${n} .* · \\*\\*an agent waits on it\\*\\*`));
    await h.advance(10 * 60_000 + 1_000);
    expect(priority("w3", n)).toEqual(["agate:background"]);
    expect(board()).not.toContain("an agent waits on it");
  });
});
