/**
 * Handoff entries end to end: the App's route, jobs and handlers against the simulator over
 * HTTP, with one controllable clock for GitHub's timestamps, the store and the App.
 */
import { describe, expect, it } from "vitest";
import { ENTRY_FORM, useEntriesHarness } from "../support/entries-harness.js";

const h = useEntriesHarness();
const MIN = 60_000;
const CONFIG = (escalation = "") =>
  `version: 1\ncommands:\n  - name: test\n    run: "true"\n${escalation ? `escalation:\n${escalation}` : ""}`;
const MAINTAINERS = CONFIG('  maintainers: [octocat, "@agate-dev/maintainers"]\n');

const labels = (repo: string, n: number) => [...h.issue(repo, n).labels].sort();
const replies = (repo: string, n: number) => h.agateComments(repo, n).map((c) => c.body);
/** Every agate comment on the issue that mentions someone (an @ outside a code span). */
const mentions = (repo: string, n: number) =>
  replies(repo, n).flatMap((body) =>
    [...body.replace(/`+[^`]*`+/g, "").matchAll(/@[\w-]+(\/[\w-]+)?/g)].map((m) => m[0]),
  );

describe("opening an entry", () => {
  it("a complete form is an open entry: labels, one reply, the unanswered timer queued", async () => {
    await h.repo("w1", CONFIG());
    const n = await h.openEntry("w1", ENTRY_FORM({}));
    expect(await h.store.getEntry({ repository: "agate-dev/w1", issueNumber: n })).toMatchObject({
      state: "open",
      author: "agent-a",
      fields: { project: "widgets", question: "Which port does the staging database listen on?" },
      version: 1,
    });
    expect(labels("w1", n)).toEqual(["agate:background", "agate:open"]);
    expect(replies("w1", n)).toEqual([expect.stringContaining("Handoff entry open")]);
    const timers = await h.store.listJobs({ kind: "entries.deadline", status: "queued" });
    expect(timers).toHaveLength(1);
    expect(Date.parse(timers[0]?.run_at ?? "") - h.clock.now().getTime()).toBe(30 * MIN);
    const label = h.sim.repository({ repo: "w1" }).labels.get("agate:open");
    expect(label).toMatchObject({ color: "0e8a16" });
  });

  it("a form with missing or empty fields is refused naming each one and closed; fixed and reopened, it opens", async () => {
    await h.repo("w2");
    const body = ENTRY_FORM({ tried: "_No response_", needed: "" });
    const n = await h.openEntry("w2", body);
    const issue = h.issue("w2", n);
    expect(issue).toMatchObject({ state: "closed", stateReason: "not_planned" });
    expect(replies("w2", n)).toHaveLength(1);
    expect(replies("w2", n)[0]).toMatch(/\*\*tried\*\*.*\n- \*\*needed\*\*/s);
    expect(replies("w2", n)[0]).not.toContain("**project**");
    expect(await h.store.getEntry({ repository: "agate-dev/w2", issueNumber: n })).toBeNull();

    const repo = h.sim.repository({ repo: "w2" });
    await h.sim.world.updateIssue(repo, issue, h.sim.world.account("agent-a"), {
      body: ENTRY_FORM({}),
    });
    await h.work();
    expect(h.issue("w2", n).state).toBe("closed");
    await h.sim.world.updateIssue(repo, issue, h.sim.world.account("agent-a"), { state: "open" });
    await h.work();
    expect((await h.store.getEntry({ repository: "agate-dev/w2", issueNumber: n }))?.state).toBe(
      "open",
    );
    expect(labels("w2", n)).toEqual(["agate:background", "agate:open"]);
  });

  it("a form reopened still incomplete is closed again without a second refusal", async () => {
    await h.repo("w5");
    const n = await h.openEntry("w5", ENTRY_FORM({ tried: "" }));
    const repo = h.sim.repository({ repo: "w5" });
    await h.sim.world.updateIssue(repo, h.issue("w5", n), h.sim.world.account("agent-a"), {
      state: "open",
    });
    await h.work();
    expect(h.issue("w5", n)).toMatchObject({ state: "closed", stateReason: "not_planned" });
    expect(replies("w5", n)).toHaveLength(1);
  });

  it("a refusal marker typed by someone else does not silence agate's refusal", async () => {
    await h.repo("w4");
    const n = await h.sim.createIssue({
      repo: "w4",
      title: "Handoff: a question",
      body: ENTRY_FORM({ tried: "" }),
      user: "agent-a",
    });
    await h.sim.addIssueComment({
      repo: "w4",
      number: n,
      body: "<!-- agate:entry-refused -->",
      user: "mallory",
    });
    await h.work();
    expect(h.issue("w4", n)).toMatchObject({ state: "closed", stateReason: "not_planned" });
    expect(replies("w4", n)).toHaveLength(1);
    expect(replies("w4", n)[0]).toContain("**tried**");
  });

  it("an ordinary issue is left alone: no job, no call", async () => {
    await h.repo("w3");
    h.sim.clearCalls();
    const n = await h.openEntry("w3", "The build is red on main.");
    expect(h.issue("w3", n).comments).toEqual([]);
    expect(h.log).toEqual([]);
    expect(h.sim.calls["issues/get"] ?? 0).toBe(0);
  });
});

describe("commands", () => {
  it("open → claimed → resolved: one owner, a second claim refused naming it, the answer closes the entry", async () => {
    await h.repo("c1", CONFIG());
    const n = await h.openEntry("c1", ENTRY_FORM({}));
    await h.comment("c1", n, "/claim", "agent-b");
    expect(labels("c1", n)).toEqual(["agate:background", "agate:claimed"]);
    await h.comment("c1", n, "/claim", "agent-c");
    expect(replies("c1", n).at(-1)).toContain("`agent-b` owns this entry");
    await h.comment("c1", n, "/answer agent-c cannot", "agent-c");
    expect(replies("c1", n).at(-1)).toContain("only the owner `agent-b`");
    await h.comment("c1", n, "/answer 5433\n\nFrom the ops runbook.", "agent-b");
    const issue = h.issue("c1", n);
    expect(issue).toMatchObject({ state: "closed", stateReason: "completed" });
    expect(labels("c1", n)).toEqual(["agate:background", "agate:resolved"]);
    const events = await h.store.listEntryEvents({ repository: "agate-dev/c1", issueNumber: n });
    expect(events.map((e) => [e.kind, e.actor, e.to_state])).toEqual([
      ["opened", "agent-a", "open"],
      ["claimed", "agent-b", "claimed"],
      ["refused", "agent-c", "claimed"],
      ["refused", "agent-c", "claimed"],
      ["answered", "agent-b", "resolved"],
    ]);
    expect(events.every((e) => e.posted_at !== null)).toBe(true);
    // One reply per event, in order, and nothing more.
    expect(replies("c1", n)).toHaveLength(5);
    await h.comment("c1", n, "/claim", "agent-c");
    expect(replies("c1", n).at(-1)).toContain("**resolved**, which is final");
  });

  it("one follow-up, then the next blocks the entry: no ping-pong, nobody notified", async () => {
    await h.repo("c2", MAINTAINERS);
    const n = await h.openEntry("c2", ENTRY_FORM({}));
    await h.comment("c2", n, "/claim", "agent-b");
    await h.comment("c2", n, "/ask Which environment, staging-eu or staging-us?", "agent-b");
    expect(replies("c2", n).at(-1)).toContain("Follow-up question 1 of 1");
    await h.comment("c2", n, "I do not know that either.", "agent-a");
    await h.comment("c2", n, "/ask Who would know?", "agent-b");
    expect(h.issue("c2", n)).toMatchObject({ state: "closed", stateReason: "not_planned" });
    expect(labels("c2", n)).toEqual(["agate:background", "agate:blocked"]);
    expect(mentions("c2", n)).toEqual([]);
  });

  it("an escalation mentions the maintainers once; an unknown reason is refused with the list", async () => {
    await h.repo("c3", MAINTAINERS);
    const n = await h.openEntry("c3", ENTRY_FORM({}));
    await h.comment("c3", n, "/escalate urgent please", "agent-a");
    expect(replies("c3", n).at(-1)).toContain("`credentials`");
    await h.comment("c3", n, "/escalate money this needs a paid plan", "agent-a");
    expect(labels("c3", n)).toEqual(["agate:background", "agate:escalated"]);
    expect(h.issue("c3", n).state).toBe("open");
    expect(mentions("c3", n)).toEqual(["@octocat", "@agate-dev/maintainers"]);
    await h.comment("c3", n, "/escalate money again", "agent-a");
    expect(mentions("c3", n)).toEqual(["@octocat", "@agate-dev/maintainers"]);
  });

  it("without escalation.maintainers an escalation pings nobody and says so", async () => {
    await h.repo("c4", CONFIG());
    const n = await h.openEntry("c4", ENTRY_FORM({}));
    await h.comment("c4", n, "/escalate credentials the deploy key expired", "agent-a");
    expect(replies("c4", n).at(-1)).toContain("nobody was notified");
    expect(mentions("c4", n)).toEqual([]);
  });
});

describe("timers, with the clock advanced", () => {
  it("a claim expires after claim_timeout (logged, open again); the second expiry blocks", async () => {
    await h.repo("t1", CONFIG());
    const n = await h.openEntry("t1", ENTRY_FORM({}));
    await h.comment("t1", n, "/claim", "agent-b");
    await h.advance(10 * MIN - 1000);
    expect(labels("t1", n)).toContain("agate:claimed");
    await h.advance(1000);
    expect(labels("t1", n)).toContain("agate:open");
    expect(replies("t1", n).at(-1)).toContain("expired after 10 min without an answer (1 of 2");
    await h.comment("t1", n, "/claim", "agent-c");
    await h.advance(10 * MIN);
    expect(labels("t1", n)).toContain("agate:blocked");
    expect(h.issue("t1", n).state).toBe("closed");
    const kinds = (
      await h.store.listEntryEvents({ repository: "agate-dev/t1", issueNumber: n })
    ).map((e) => `${e.kind}:${e.actor}`);
    expect(kinds).toEqual([
      "opened:agent-a",
      "claimed:agent-b",
      "claim_expired:agate",
      "claimed:agent-c",
      "claim_expired:agate",
    ]);
  });

  it("an entry nobody claims is blocked after unanswered_timeout, notifying nobody", async () => {
    await h.repo("t2", MAINTAINERS);
    const n = await h.openEntry("t2", ENTRY_FORM({}));
    await h.advance(29 * MIN);
    expect(labels("t2", n)).toContain("agate:open");
    await h.advance(MIN);
    expect(labels("t2", n)).toEqual(["agate:background", "agate:blocked"]);
    expect(replies("t2", n).at(-1)).toContain("nobody claimed this entry within 30 min");
    expect(mentions("t2", n)).toEqual([]);
  });

  it("a pass for another event applies a deadline that passed and lists the issue's comments once for it all", async () => {
    await h.repo("t5", CONFIG());
    const n = await h.openEntry("t5", ENTRY_FORM({}));
    h.tick(30 * MIN);
    // The timer's job is taken by another worker that stops (its lease holds it): the next event's
    // pass is the first to see the deadline, so it says so and projects it, with one listing.
    const timer = await h.store.claimJob({ workerId: "elsewhere", leaseMs: 60 * MIN });
    expect(timer?.job.kind).toBe("entries.deadline");
    await h.sim.addLabels({ repo: "t5", number: n, labels: ["agate:resolved"], user: "octocat" });
    h.log.length = 0;
    await h.work();
    expect(labels("t5", n)).toEqual(["agate:background", "agate:blocked"]);
    expect(replies("t5", n).slice(1)).toEqual([
      expect.stringContaining("is put back"),
      expect.stringContaining("nobody claimed this entry within 30 min"),
    ]);
    const pass = h.log.find((line) => line.includes("after issues.labeled"));
    expect(pass).toMatch(/issues\/list-comments[,)]/);
  });

  it("the config's timeouts apply: claim_timeout 2m, unanswered_timeout 5m", async () => {
    await h.repo("t3", CONFIG("  claim_timeout: 2m\n  unanswered_timeout: 5m\n"));
    const n = await h.openEntry("t3", ENTRY_FORM({}));
    await h.comment("t3", n, "/claim", "agent-b");
    await h.advance(2 * MIN);
    expect(labels("t3", n)).toContain("agate:open");
    await h.advance(5 * MIN);
    expect(labels("t3", n)).toContain("agate:blocked");
  });

  it("never takes a claim from an owner who answered in time, even when the answer's webhook comes after the deadline", async () => {
    await h.repo("t4", CONFIG());
    const n = await h.openEntry("t4", ENTRY_FORM({}));
    await h.comment("t4", n, "/claim", "agent-b");
    h.clock.advance(9 * MIN);
    await h.sim.addIssueComment({ repo: "t4", number: n, body: "/answer 5433", user: "agent-b" });
    // The answer's delivery is held back past the claim's deadline: the timer fires first.
    const late = await h.takePending();
    expect(late.map((d) => d.event)).toEqual(["issue_comment"]);
    h.clock.advance(2 * MIN);
    await h.runJobs();
    expect(labels("t4", n)).toContain("agate:resolved");
    for (const d of late) await h.record(d);
    await h.work();
    const events = await h.store.listEntryEvents({ repository: "agate-dev/t4", issueNumber: n });
    expect(events.map((e) => e.kind)).toEqual(["opened", "claimed", "answered"]);
  });
});

describe("deliveries as GitHub makes them", () => {
  it("a redelivered comment (same or new delivery id) changes nothing and says nothing again", async () => {
    await h.repo("d1", CONFIG());
    const n = await h.openEntry("d1", ENTRY_FORM({}));
    await h.sim.addIssueComment({ repo: "d1", number: n, body: "/claim", user: "agent-b" });
    const [claim] = await h.takePending();
    if (!claim) throw new Error("no delivery for the claim");
    expect(await h.record(claim)).toBe("new");
    await h.runJobs();
    await h.work();
    const before = h.issue("d1", n).comments.length;
    expect(await h.record(claim)).toBe("duplicate");
    expect(await h.record(claim, "redelivered-under-a-new-id")).toBe("new");
    await h.runJobs();
    await h.work();
    expect(h.issue("d1", n).comments).toHaveLength(before);
    const events = await h.store.listEntryEvents({ repository: "agate-dev/d1", issueNumber: n });
    expect(events.map((e) => e.kind)).toEqual(["opened", "claimed"]);
  });

  it("an edited comment is never a command: a plain comment changed into /claim before agate read it claims nothing", async () => {
    await h.repo("d2", CONFIG());
    const n = await h.openEntry("d2", ENTRY_FORM({}));
    // Posted, then edited a minute later, both before agate's pass reads the comments.
    const id = await h.sim.addIssueComment({
      repo: "d2",
      number: n,
      body: "Looking at it.",
      user: "agent-b",
    });
    h.tick(MIN);
    const repo = h.sim.repository({ repo: "d2" });
    const issue = h.issue("d2", n);
    const comment = issue.comments.find((c) => c.id === id);
    if (!comment) throw new Error("the comment is gone");
    await h.sim.world.editComment(repo, issue, comment, "/claim", h.sim.world.account("agent-b"));
    await h.work();
    // A later command makes a pass read every comment since the last one handled.
    await h.comment("d2", n, "/claim", "agent-a");
    expect(labels("d2", n)).toEqual(["agate:background", "agate:open"]);
    const events = await h.store.listEntryEvents({ repository: "agate-dev/d2", issueNumber: n });
    expect(events.map((e) => [e.kind, e.actor])).toEqual([
      ["opened", "agent-a"],
      ["refused", "agent-a"],
    ]);
  });

  it("out of order: the later claim's webhook first still makes the earlier commenter the owner", async () => {
    await h.repo("d2", CONFIG());
    const n = await h.openEntry("d2", ENTRY_FORM({}));
    await h.sim.addIssueComment({ repo: "d2", number: n, body: "/claim", user: "agent-b" });
    await h.sim.addIssueComment({ repo: "d2", number: n, body: "/claim", user: "agent-c" });
    const [first, second] = await h.takePending();
    if (!first || !second) throw new Error("two deliveries expected");
    await h.record(second);
    await h.runJobs();
    await h.record(first);
    await h.runJobs();
    await h.work();
    expect((await h.store.getEntry({ repository: "agate-dev/d2", issueNumber: n }))?.owner).toBe(
      "agent-b",
    );
    expect(replies("d2", n).at(-1)).toContain("`agent-b` owns this entry, so `agent-c` cannot");
    expect(replies("d2", n)).toHaveLength(3);
  });
});

describe("labels and open/closed are a projection", () => {
  it("a state label changed by hand is put back, with a comment naming the command", async () => {
    await h.repo("p1", CONFIG());
    const n = await h.openEntry("p1", ENTRY_FORM({}));
    await h.sim.addLabels({ repo: "p1", number: n, labels: ["agate:resolved"], user: "octocat" });
    await h.work();
    expect(labels("p1", n)).toEqual(["agate:background", "agate:open"]);
    expect(replies("p1", n).at(-1)).toMatch(/`agate:resolved` was added by `octocat`.*`\/answer/s);
    await h.sim.removeLabel({ repo: "p1", number: n, label: "agate:open", user: "octocat" });
    await h.work();
    expect(labels("p1", n)).toEqual(["agate:background", "agate:open"]);
    expect(replies("p1", n).at(-1)).toContain("`/release`");
    await h.sim.addLabels({ repo: "p1", number: n, labels: ["agate:blocking"], user: "octocat" });
    await h.work();
    expect(labels("p1", n)).toEqual(["agate:background", "agate:open"]);
    expect(replies("p1", n).at(-1)).toContain("Priority is derived");
  });

  it("a put-back notice is posted once per delivery: its job run again (a retry after a crash) posts none", async () => {
    await h.repo("p4", CONFIG());
    const n = await h.openEntry("p4", ENTRY_FORM({}));
    await h.sim.addLabels({ repo: "p4", number: n, labels: ["agate:resolved"], user: "octocat" });
    const [labeled] = await h.takePending();
    if (!labeled) throw new Error("no delivery for the label");
    await h.record(labeled);
    await h.work();
    const notices = () => replies("p4", n).filter((body) => body.includes("is put back"));
    expect(notices()).toHaveLength(1);
    // The label is back (as if the first run crashed before removing it) and the job runs again.
    h.issue("p4", n).labels.push("agate:resolved");
    const [routed] = await h.store.listJobs({ deliveryId: labeled.id });
    if (!routed) throw new Error("no job for the label delivery");
    await h.store.enqueue({
      kind: routed.kind,
      payload: routed.payload,
      concurrency_key: routed.concurrency_key,
    });
    await h.runJobs();
    await h.work();
    expect(labels("p4", n)).toEqual(["agate:background", "agate:open"]);
    expect(notices()).toHaveLength(1);
  });

  it("an open entry closed by hand is reopened, saying how it ends", async () => {
    await h.repo("p2", CONFIG());
    const n = await h.openEntry("p2", ENTRY_FORM({}));
    const repo = h.sim.repository({ repo: "p2" });
    await h.sim.world.updateIssue(repo, h.issue("p2", n), h.sim.world.account("octocat"), {
      state: "closed",
    });
    await h.work();
    expect(h.issue("p2", n).state).toBe("open");
    expect(replies("p2", n).at(-1)).toContain("it is reopened");
  });

  it("priority is derived: blocking while the entry's pull request is open (following its closing and reopening), background once resolved", async () => {
    await h.repo("p3", CONFIG());
    const pull = await h.openPull("p3", { title: "Half of it" });
    const n = await h.openEntry("p3", ENTRY_FORM({ pull: `#${pull.number}` }));
    expect(labels("p3", n)).toEqual(["agate:blocking", "agate:open"]);
    // Nobody waits on a closed pull request: the entry follows it, both ways.
    await h.sim.setPullRequestState({ repo: "p3", number: pull.number, state: "closed" });
    await h.work();
    expect(labels("p3", n)).toEqual(["agate:background", "agate:open"]);
    await h.sim.setPullRequestState({ repo: "p3", number: pull.number, state: "open" });
    await h.work();
    expect(labels("p3", n)).toEqual(["agate:blocking", "agate:open"]);
    await h.comment("p3", n, "/claim", "agent-b");
    await h.comment("p3", n, "/answer 5433", "agent-b");
    expect(labels("p3", n)).toEqual(["agate:background", "agate:resolved"]);
  });
});
