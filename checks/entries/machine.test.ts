import { describe, expect, it } from "vitest";
import { escalationSchema } from "../../schemas/config.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import { type EntryCommand, parseEntryCommand } from "./commands.js";
import {
  applyCommand,
  applyDeadline,
  type EntryStep,
  type EscalationRules,
  entryPriority,
  needsMaintainerTest,
  openEntry,
} from "./machine.js";

const MIN = 60_000;
const T0 = new Date("2025-01-01T00:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * MIN);
/** The defaults of `escalation` in the config: 30m, 10m, one follow-up, the second expiry. */
const RULES: EscalationRules = escalationSchema.parse(undefined);
const FIELDS = { project: "p", question: "q?", tried: "t", needed: "n", blocking_pull: null };

/** What the store does with a step: the next version. */
const stored = (s: EntryStep, version: number): HandoffEntry => ({ ...s.entry, version });

function fresh(rules = RULES): HandoffEntry {
  return stored(
    openEntry({
      repository: "o/r",
      issue_number: 3,
      author: "agent-a",
      fields: FIELDS,
      at: T0,
      rules,
    }),
    1,
  );
}

let nextComment = 100;
/** Applies a comment's command as `actor` at minute `m`; returns the step (must not be null). */
/** `maintainers`: the logins the App's maintainer test would pass (it asks GitHub for teams). */
function say(
  entry: HandoffEntry,
  actor: string,
  text: string,
  m: number,
  rules = RULES,
  maintainers: string[] = [],
) {
  const command = parseEntryCommand(text) as EntryCommand;
  const maintainer = needsMaintainerTest(entry, command, actor)
    ? maintainers.includes(actor)
    : undefined;
  const s = applyCommand(
    entry,
    { command, actor, comment_id: ++nextComment, at: at(m), maintainer },
    rules,
  );
  if (!s) throw new Error("expected a step");
  return { step: s, entry: stored(s, entry.version + 1) };
}

describe("openEntry", () => {
  it("is open, unowned, with counters at zero and the unanswered deadline from the config", () => {
    const s = openEntry({
      repository: "o/r",
      issue_number: 3,
      author: "agent-a",
      fields: FIELDS,
      at: T0,
      rules: { ...RULES, unanswered_timeout: 45 * MIN },
    });
    expect(s.entry).toMatchObject({
      state: "open",
      owner: null,
      follow_ups: 0,
      claim_expiries: 0,
      deadline: { kind: "unanswered", at: "2025-01-01T00:45:00.000Z" },
    });
    expect(s.event).toMatchObject({ kind: "opened", actor: "agent-a", comment_id: null });
    expect(s.event.reply).toContain("`/claim`");
  });
});

describe("applyCommand", () => {
  it("open → claimed → resolved: one owner, the claim deadline, the answer by the owner", () => {
    const claim = say(fresh(), "agent-b", "/claim", 1);
    expect(claim.entry).toMatchObject({
      state: "claimed",
      owner: "agent-b",
      deadline: { kind: "claim", at: at(11).toISOString() },
      state_changed_at: at(1).toISOString(),
    });
    expect(claim.step.event).toMatchObject({ kind: "claimed", actor: "agent-b" });
    const answer = say(claim.entry, "agent-b", "/answer 5433", 5);
    expect(answer.entry).toMatchObject({ state: "resolved", owner: "agent-b", deadline: null });
    expect(answer.step.event).toMatchObject({ kind: "answered" });
  });

  it("a second claim is refused naming the owner; the owner claiming again changes nothing", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    const other = say(claimed, "agent-c", "/claim", 2);
    expect(other.entry).toMatchObject({ state: "claimed", owner: "agent-b" });
    expect(other.step.event.kind).toBe("refused");
    expect(other.step.event.reply).toContain("`agent-b` owns this entry");
    const again = say(claimed, "Agent-B", "/claim", 2);
    expect(again.step.event.kind).toBe("refused");
    expect(again.entry.deadline).toEqual(claimed.deadline);
  });

  it("the author cannot claim its own entry", () => {
    const s = say(fresh(), "agent-a", "/claim", 1);
    expect(s.entry.state).toBe("open");
    expect(s.step.event.reply).toContain("cannot claim it");
  });

  it("/answer, /ask and /release are the owner's only", () => {
    const open = fresh();
    for (const text of ["/answer x", "/ask y?", "/release"]) {
      const s = say(open, "agent-b", text, 1);
      expect(s.step.event.kind).toBe("refused");
      expect(s.step.event.reply).toContain("nobody owns this entry");
    }
    const claimed = say(open, "agent-b", "/claim", 1).entry;
    for (const text of ["/answer x", "/ask y?", "/release"]) {
      const s = say(claimed, "agent-c", text, 2);
      expect(s.entry).toMatchObject({ state: "claimed", owner: "agent-b", follow_ups: 0 });
      expect(s.step.event.reply).toContain("only the owner `agent-b`");
    }
  });

  it("one follow-up is allowed, the next blocks the entry (follow_up_limit)", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    const first = say(claimed, "agent-b", "/ask Which environment?", 2);
    expect(first.entry).toMatchObject({ state: "claimed", follow_ups: 1 });
    expect(first.entry.deadline).toEqual(claimed.deadline);
    expect(first.step.event.reply).toContain("`agent-a`: answer it");
    const second = say(first.entry, "agent-b", "/ask And the region?", 3);
    expect(second.entry).toMatchObject({ state: "blocked", follow_ups: 2, deadline: null });
    expect(second.step.event).toMatchObject({ kind: "blocked", mentions: [] });
    const none = say(claimed, "agent-b", "/ask x", 2, { ...RULES, follow_up_limit: 0 });
    expect(none.entry.state).toBe("blocked");
  });

  it("/release gives the entry back, counting as a claim that ended without an answer", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    const released = say(claimed, "agent-b", "/release", 4);
    expect(released.entry).toMatchObject({
      state: "open",
      owner: null,
      claim_expiries: 1,
      deadline: { kind: "unanswered", at: at(34).toISOString() },
    });
    const again = say(released.entry, "agent-c", "/claim", 5).entry;
    expect(say(again, "agent-c", "/release", 6).entry).toMatchObject({
      state: "blocked",
      claim_expiries: 2,
    });
  });

  it("/block by the author, the owner or a maintainer (the App's test); not by a stranger", () => {
    const rules = { ...RULES, maintainers: ["octocat", "@org/team"] };
    const open = fresh(rules);
    expect(say(open, "agent-a", "/block nobody knows", 1, rules).entry).toMatchObject({
      state: "blocked",
      why: "nobody knows",
    });
    expect(say(open, "octocat", "/block no", 1, rules, ["octocat"]).entry.state).toBe("blocked");
    // A team member is a maintainer only by the App's test: the rules alone never say so.
    expect(say(open, "team-member", "/block no", 1, rules, ["team-member"]).entry.state).toBe(
      "blocked",
    );
    expect(say(open, "octocat", "/block no", 1, rules).entry.state).toBe("open");
    const stranger = say(open, "agent-z", "/block no", 1, rules);
    expect(stranger.entry.state).toBe("open");
    expect(stranger.step.event.reply).toContain("cannot block");
    const claimed = say(open, "agent-b", "/claim", 1, rules).entry;
    expect(say(claimed, "agent-b", "/block stuck", 2, rules).entry).toMatchObject({
      state: "blocked",
      owner: null,
    });
  });

  it("any non-terminal state → escalated, mentioning the maintainers once, in that event", () => {
    const rules = { ...RULES, maintainers: ["octocat", "@org/maintainers"] };
    const open = fresh(rules);
    const fromOpen = say(open, "agent-a", "/escalate money needs a paid plan", 1, rules);
    expect(fromOpen.entry).toMatchObject({
      state: "escalated",
      escalation_reason: "money",
      why: "needs a paid plan",
      deadline: null,
    });
    expect(fromOpen.step.event.mentions).toEqual(["@octocat", "@org/maintainers"]);
    expect(fromOpen.step.event.reply).toContain("@octocat @org/maintainers");
    const claimed = say(open, "agent-b", "/claim", 1, rules).entry;
    const fromClaimed = say(claimed, "agent-b", "/escalate scope out of scope", 2, rules);
    expect(fromClaimed.entry.state).toBe("escalated");
    const later = say(fromClaimed.entry, "agent-b", "/escalate money again", 3, rules);
    expect(later.step.event).toMatchObject({ kind: "refused", mentions: [] });
  });

  it("without maintainers an escalation pings nobody and says so", () => {
    const s = say(fresh(), "agent-a", "/escalate credentials the token expired", 1);
    expect(s.step.event.mentions).toEqual([]);
    expect(s.step.event.reply).toContain("nobody was notified");
    expect(s.step.event.reply).not.toMatch(/@\w/);
  });

  it("an escalation with another reason is refused with the list and changes nothing", () => {
    const s = say(fresh(), "agent-a", "/escalate urgent now", 1);
    expect(s.entry.state).toBe("open");
    expect(s.step.event).toMatchObject({ kind: "refused", mentions: [] });
    expect(s.step.event.reply).toContain("`credentials`");
  });

  it("an escalated entry ends only by a maintainer's /answer: resolved, with the decision", () => {
    const escalated = say(fresh(), "agent-a", "/escalate money a paid plan?", 1).entry;
    const byAgent = say(escalated, "agent-a", "/answer do it", 2, RULES, ["boss"]);
    expect(byAgent.entry.state).toBe("escalated");
    expect(byAgent.step.event.reply).toContain("only a maintainer's decision ends it");
    const decided = say(escalated, "boss", "/answer yes, buy it", 3, RULES, ["boss"]);
    expect(decided.entry.state).toBe("resolved");
    expect(decided.step.event).toMatchObject({
      kind: "answered",
      reason: "decided by the maintainer boss",
    });
    expect(needsMaintainerTest(escalated, { kind: "claim" }, "boss")).toBe(false);
    expect(needsMaintainerTest(fresh(), { kind: "block", why: "x" }, "agent-a")).toBe(false);
    expect(needsMaintainerTest(fresh(), { kind: "block", why: "x" }, "boss")).toBe(true);
  });

  it("the entry's own author or owner never decides its escalation, even when they count as maintainers", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    const escalated = say(claimed, "agent-b", "/escalate money a paid plan?", 2).entry;
    expect(escalated.state).toBe("escalated");
    for (const [actor, m] of [
      ["agent-a", 3],
      ["Agent-B", 4],
    ] as const) {
      expect(needsMaintainerTest(escalated, { kind: "answer", text: "yes" }, actor)).toBe(false);
      // Listed as a maintainer, with write access: still the author or the owner.
      const s = say(escalated, actor, "/answer yes, buy it", m, RULES, ["agent-a", "agent-b"]);
      expect(s.entry.state).toBe("escalated");
      expect(s.step.event.kind).toBe("refused");
    }
    expect(say(escalated, "boss", "/answer no", 5, RULES, ["boss"]).entry.state).toBe("resolved");
  });

  it("terminal states refuse every command", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    const resolved = say(claimed, "agent-b", "/answer 42", 2).entry;
    const blocked = say(fresh(), "agent-a", "/block no", 1).entry;
    for (const entry of [resolved, blocked]) {
      for (const text of ["/claim", "/answer x", "/release", "/block x", "/escalate money x"]) {
        const s = say(entry, "agent-c", text, 3);
        expect(s.entry.state).toBe(entry.state);
        expect(s.step.event.kind).toBe("refused");
        expect(s.step.event.reply).toContain("final");
      }
    }
  });

  it("is idempotent by comment id: a comment at or below comments_through is no step", () => {
    const open = fresh();
    const command = { kind: "claim" } as const;
    const first = applyCommand(open, { command, actor: "b", comment_id: 50, at: at(1) }, RULES);
    const entry = stored(first as EntryStep, 2);
    expect(entry.comments_through).toBe(50);
    expect(applyCommand(entry, { command, actor: "c", comment_id: 50, at: at(2) }, RULES)).toBe(
      null,
    );
    expect(applyCommand(entry, { command, actor: "c", comment_id: 49, at: at(2) }, RULES)).toBe(
      null,
    );
  });
});

describe("applyDeadline", () => {
  it("nothing before the deadline, nor without one", () => {
    expect(applyDeadline(fresh(), at(29.99), RULES)).toBeNull();
    const resolved = say(say(fresh(), "b", "/claim", 1).entry, "b", "/answer a", 2).entry;
    expect(applyDeadline(resolved, at(600), RULES)).toBeNull();
  });

  it("open and unclaimed for unanswered_timeout → blocked by agate, nobody notified", () => {
    const s = applyDeadline(fresh(), at(30), RULES);
    expect(s?.entry).toMatchObject({ state: "blocked", why: "unanswered for 30 min" });
    expect(s?.event).toMatchObject({ kind: "blocked", actor: "agate", mentions: [] });
  });

  it("a claim without an answer for claim_timeout → open again (logged); the second expiry → blocked", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    expect(applyDeadline(claimed, at(10.9), RULES)).toBeNull();
    const first = applyDeadline(claimed, at(11), RULES) as EntryStep;
    expect(first.entry).toMatchObject({
      state: "open",
      owner: null,
      claim_expiries: 1,
      deadline: { kind: "unanswered", at: at(41).toISOString() },
    });
    expect(first.event).toMatchObject({ kind: "claim_expired", actor: "agate" });
    expect(first.event.reply).toContain("expired after 10 min");
    const reclaimed = say(stored(first, 3), "agent-c", "/claim", 12).entry;
    const second = applyDeadline(reclaimed, at(22), RULES) as EntryStep;
    expect(second.entry).toMatchObject({ state: "blocked", claim_expiries: 2, deadline: null });
    expect(second.event.mentions).toEqual([]);
  });

  it("never takes a claim from an owner who answered in time", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    const resolved = say(claimed, "agent-b", "/answer in time", 10.5).entry;
    expect(applyDeadline(resolved, at(11), RULES)).toBeNull();
  });

  it("a deadline of another state is stale: an unanswered deadline on a claimed entry does nothing", () => {
    const claimed = say(fresh(), "agent-b", "/claim", 1).entry;
    const stale = {
      ...claimed,
      deadline: { kind: "unanswered" as const, at: at(30).toISOString() },
    };
    expect(applyDeadline(stale, at(31), RULES)).toBeNull();
  });

  it("claim_expiries_before_blocked: 1 blocks at the first expiry", () => {
    const rules = { ...RULES, claim_expiries_before_blocked: 1 };
    const claimed = say(fresh(rules), "agent-b", "/claim", 1, rules).entry;
    expect(applyDeadline(claimed, at(11), rules)?.entry.state).toBe("blocked");
  });
});

describe("entryPriority", () => {
  it("is blocking while an agent waits and the entry is unresolved, background otherwise", () => {
    expect(entryPriority("open", true)).toBe("blocking");
    expect(entryPriority("blocked", true)).toBe("blocking");
    expect(entryPriority("escalated", true)).toBe("blocking");
    expect(entryPriority("resolved", true)).toBe("background");
    expect(entryPriority("open", false)).toBe("background");
  });
});
