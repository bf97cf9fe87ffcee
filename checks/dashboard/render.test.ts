import { describe, expect, it } from "vitest";
import type { AcceptanceRecord } from "../../schemas/acceptance-record.js";
import type { HandoffEntry } from "../../schemas/handoff-entry.js";
import { ENTRY_FIELDS, storedEntry } from "../../test/support/entry-fixture.js";
import { recordInput, SHA_A, SHA_B } from "../../test/support/store.js";
import { dashboardPull } from "./pulls.js";
import { agateWords, DASHBOARD_MARKER, dashboardHasItems, renderDashboard } from "./render.js";

let nextId = 1;
const record = (
  state: AcceptanceRecord["decision"]["state"],
  at: string,
  reasons: string[],
  head = SHA_A,
): AcceptanceRecord => ({
  ...recordInput({ head_sha: head, decision: { state, reasons }, decided_at: at }),
  id: nextId++,
  recorded_at: at,
  stale: null,
});

const PULL = { number: 12, author: "agent-a", title: "Add the widget", head_sha: SHA_A };

const entry = (over: Partial<HandoffEntry>): HandoffEntry =>
  storedEntry({
    repository: "o/r",
    issue_number: 3,
    fields: { ...ENTRY_FIELDS, question: "Which port?" },
    ...over,
  });

describe("dashboardPull: a pull request's line from the records of its live head", () => {
  it("escalated by a protected path is an override pending; otherwise an escalation", () => {
    const override = dashboardPull(PULL, [
      record("escalated", "2026-01-01T10:00:00.000Z", [
        "Escalated on aaaaaaa: changes `.github/x.yml`: needs a maintainer's approving review of this commit",
        "protected paths: waiting: changes `.github/x.yml`: needs a maintainer's approving review of this commit",
      ]),
    ]);
    expect(override).toMatchObject({
      category: "override",
      why: "changes `.github/x.yml`: needs a maintainer's approving review of this commit",
      since: "2026-01-01T10:00:00.000Z",
    });
    const other = dashboardPull(PULL, [
      record("escalated", "2026-01-01T10:00:00.000Z", [
        "Escalated on aaaaaaa: entry #3 is escalated (money)",
      ]),
    ]);
    expect(other).toMatchObject({ category: "escalated", why: "entry #3 is escalated (money)" });
    // An escalated entry decides it even when a protected path waits too (the gate's order).
    const both = dashboardPull(PULL, [
      record("escalated", "2026-01-01T10:00:00.000Z", [
        "Escalated on aaaaaaa: handoff entry #3 needs a maintainer's decision on money: `a plan`",
        "protected paths: waiting: changes `.github/x.yml`",
        "handoff entries: waiting: handoff entry #3 needs a maintainer's decision on money: `a plan`",
      ]),
    ]);
    expect(both).toMatchObject({
      category: "escalated",
      why: "handoff entry #3 needs a maintainer's decision on money: `a plan`",
    });
  });

  it("the age is when the head reached the state: a pass deciding the same again keeps it", () => {
    const line = dashboardPull(PULL, [
      record("rejected", "2026-01-01T09:00:00.000Z", ["Rejected on aaaaaaa: test failed"]),
      record("stalled", "2026-01-01T10:00:00.000Z", ["Stalled on aaaaaaa: no progress"]),
      record("stalled", "2026-01-01T11:00:00.000Z", ["Stalled on aaaaaaa: no progress"]),
    ]);
    expect(line).toMatchObject({ category: "stalled", since: "2026-01-01T10:00:00.000Z" });
  });

  it("nothing for accepted, rejected or pending heads, or with records of another head only", () => {
    for (const state of ["accepted", "rejected", "pending", "not_gated"] as const) {
      expect(dashboardPull(PULL, [record(state, "2026-01-01T10:00:00.000Z", ["x"])])).toBeNull();
    }
    const old = record("capped", "2026-01-01T10:00:00.000Z", ["Capped on bbbbbbb: x"], SHA_B);
    expect(dashboardPull(PULL, [old])).toBeNull();
    expect(dashboardPull(PULL, [])).toBeNull();
  });
});

describe("renderDashboard", () => {
  const escalated = entry({
    issue_number: 7,
    state: "escalated",
    owner: "agent-b",
    escalation_reason: "money",
    why: "needs a paid plan @everyone",
    state_changed_at: "2026-01-02T03:04:59.000Z",
  });
  const blocked = entry({ issue_number: 9, state: "blocked", why: "unanswered for 30 min" });
  const capped = dashboardPull({ ...PULL, number: 20, title: "<b>@org/all</b>" }, [
    record("capped", "2026-01-01T10:00:00.000Z", ["Capped on aaaaaaa: 5 graded attempts"]),
  ]);
  const override = dashboardPull({ ...PULL, number: 21 }, [
    record("escalated", "2026-01-01T10:00:00.000Z", [
      "Escalated on aaaaaaa: x",
      "protected paths: waiting: changes `.github/agate.yml`",
    ]),
  ]);
  const input = {
    entries: [entry({ issue_number: 5 }), blocked, escalated],
    pulls: [capped, override].filter((p) => p !== null),
  };

  it("lists what needs a human by category, then what is parked, each with link, age and who holds it (never the author called owner)", () => {
    const body = renderDashboard(input);
    const needs = body.slice(body.indexOf("## Needs a human"), body.indexOf("## Parked"));
    const parked = body.slice(body.indexOf("## Parked"));
    expect(needs).toContain(
      "- #7 `Which port?` · money: `needs a paid plan @everyone` · claimed by `agent-b` · since 2026-01-02 03:04 UTC",
    );
    expect(needs).toContain(
      `- #21 \`Add the widget\` · changes \`.github/agate.yml\` · author \`agent-a\` · since 2026-01-01 10:00 UTC · approve aaaaaaa in a review, or comment \`/agate accept ${SHA_A} <why>\``,
    );
    expect(parked).toContain("- #9 `Which port?` · `unanswered for 30 min` · asked by `agent-a`");
    expect(parked).toContain("- #20 `<b>@org/all</b>` · 5 graded attempts · author `agent-a`");
    expect(body).not.toContain("#5 ");
    expect(body.match(/^None\.$/gm)).toHaveLength(2);
    expect(body.endsWith(DASHBOARD_MARKER)).toBe(true);
  });

  it("agate's reasons keep their code spans; one cut inside a span is fenced whole", () => {
    expect(agateWords("changes `@org/x`:\n needs a review")).toBe(
      "changes `@org/x`: needs a review",
    );
    expect(agateWords("changes `@org/x…")).toBe("``changes `@org/x…``");
    expect(agateWords("a ``b`c`` d")).toBe("a ``b`c`` d");
  });

  it("stays within GitHub's body limit: the oldest of each section, and how many more", () => {
    const many = Array.from({ length: 2_000 }, (_, i) =>
      entry({
        issue_number: 100 + i,
        state: "blocked",
        why: "x".repeat(400),
        fields: { ...entry({}).fields, question: "q".repeat(200) },
        state_changed_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      }),
    );
    const body = renderDashboard({ entries: many, pulls: [] });
    expect(body.length).toBeLessThanOrEqual(65_535);
    expect(body).toContain("- #100 ");
    expect(body).toMatch(/- … and 1950 more, listed by the `agate:blocked` label/);
    const small = renderDashboard({ entries: many, pulls: [] }, 3_000);
    expect(small.length).toBeLessThanOrEqual(3_000);
    expect(small).toContain("- … and 1997 more");
  });

  it("is deterministic: the same facts in any order give the same text", () => {
    const reversed = { entries: [...input.entries].reverse(), pulls: [...input.pulls].reverse() };
    expect(renderDashboard(reversed)).toBe(renderDashboard(input));
  });

  it("never writes a form heading, so the App never reads its dashboard as a handoff entry", () => {
    expect(renderDashboard(input)).not.toMatch(/^###\s+(Project|Question|Tried|Needed)\b/im);
  });

  it("has items only when something is escalated, blocked, stalled, capped or pending override", () => {
    expect(dashboardHasItems({ entries: [entry({})], pulls: [] })).toBe(false);
    expect(dashboardHasItems({ entries: [blocked], pulls: [] })).toBe(true);
    expect(dashboardHasItems(input)).toBe(true);
  });
});
