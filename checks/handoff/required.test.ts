import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configSchema } from "../../schemas/config.js";
import type { HandoffFacts } from "../../schemas/gate.js";
import { makeRepo } from "../../test/support/git-repo.js";
import { agentSessions, commitTrailers, handoffRequiredBy } from "./required.js";

const rulesFrom = (required_when: Record<string, unknown>) =>
  configSchema.parse({
    version: 1,
    commands: [{ name: "test", run: "npm test" }],
    handoff: { required_when },
  }).handoff.required_when;

const SHA = "a".repeat(40);
const facts = (over: Partial<HandoffFacts> = {}): HandoffFacts => ({
  file: null,
  observed_at: "2026-12-02T18:00:00Z",
  opened_at: "2026-12-02T12:00:00Z",
  commit_count: 1,
  changed_lines: 10,
  commits: [],
  newest_change: null,
  ...over,
});
const commit = (message: string) => ({ sha: SHA, message, committed_at: null });

describe("handoffRequiredBy", () => {
  it("is empty under the defaults for a short, unlabelled, one-session pull request", () => {
    expect(handoffRequiredBy(rulesFrom({}), { labels: ["bug"], facts: facts() })).toEqual([]);
  });

  it("names every rule that applies, with the numbers and the config key", () => {
    const rules = rulesFrom({
      commits_over: 10,
      open_longer_than: "24h",
      changed_lines_over: 500,
      labels: ["long-task", "epic"],
      sessions_over: 1,
    });
    const reasons = handoffRequiredBy(rules, {
      labels: ["Long-Task", "epic", "bug"],
      facts: facts({
        commit_count: 12,
        opened_at: "2026-12-01T12:00:00Z",
        observed_at: "2026-12-02T18:00:00Z",
        changed_lines: 820,
        commits: [
          commit("one\n\nAgent-Session: s-1"),
          commit("two\n\nAgent-Session: s-2"),
          commit("three\n\nAgent-Session: s-3"),
          commit("four\n\nAgent-Session: s-1"),
        ],
      }),
    });
    expect(reasons).toEqual([
      "the label long-task (handoff.required_when.labels)",
      "the label epic (handoff.required_when.labels)",
      "12 commits (more than 10: handoff.required_when.commits_over)",
      "open 30 h (longer than 24 h: handoff.required_when.open_longer_than)",
      "820 changed lines (more than 500: handoff.required_when.changed_lines_over)",
      "3 agent sessions (more than 1: handoff.required_when.sessions_over, counted from Agent-Session: commit trailers)",
    ]);
  });

  it("applies a limit only when it is exceeded, and not at all when it is null", () => {
    const rules = rulesFrom({
      commits_over: 10,
      open_longer_than: "90m",
      changed_lines_over: 500,
      labels: [],
      sessions_over: null,
    });
    const atLimits = facts({
      commit_count: 10,
      changed_lines: 500,
      opened_at: "2026-12-02T12:00:00Z",
      observed_at: "2026-12-02T13:30:00Z",
      commits: [commit("a\n\nAgent-Session: 1"), commit("b\n\nAgent-Session: 2")],
    });
    expect(handoffRequiredBy(rules, { labels: ["long-task"], facts: atLimits })).toEqual([]);
    const justOver = { ...atLimits, observed_at: "2026-12-02T13:31:00Z" };
    expect(handoffRequiredBy(rules, { labels: [], facts: justOver })).toEqual([
      "open 1 h 31 min (longer than 1 h 30 min: handoff.required_when.open_longer_than)",
    ]);
    const off = rulesFrom({ sessions_over: null, labels: [] });
    expect(
      handoffRequiredBy(off, { labels: [], facts: { ...atLimits, commit_count: 999 } }),
    ).toEqual([]);
  });

  it("counts sessions, not commits: one session over many commits stays under sessions_over: 1", () => {
    const commits = [1, 2, 3].map((n) => commit(`step ${n}\n\nAgent-Session: same`));
    expect(handoffRequiredBy(rulesFrom({}), { labels: [], facts: facts({ commits }) })).toEqual([]);
  });
});

describe("commitTrailers and agentSessions", () => {
  it("reads Key: value lines of the last paragraph only", () => {
    expect(commitTrailers("Fix it\n\nAgent-Session: s1\nSigned-off-by: A <a@b>\n")).toEqual([
      { key: "Agent-Session", value: "s1" },
      { key: "Signed-off-by", value: "A <a@b>" },
    ]);
    // In the body, not the last paragraph: text, not a trailer.
    expect(agentSessions(["Fix\n\nAgent-Session: s1\n\nMore words.\n"])).toEqual([]);
  });

  it("never reads the title paragraph as trailers", () => {
    expect(agentSessions(["Agent-Session: s1"])).toEqual([]);
    expect(agentSessions(["title\nAgent-Session: s1\n"])).toEqual([]);
  });

  it("matches the key case-insensitively, allows blanks before the colon, trims the value", () => {
    expect(
      agentSessions([
        "a\n\nagent-session: s1",
        "b\n\nAGENT-SESSION :\t s2  ",
        "c\n\nAgent-Session:s1",
        "d\n\r\nAgent-Session: s3\r\n",
      ]),
    ).toEqual(["s1", "s2", "s3"]);
  });

  it("rejects keys with inner spaces and paragraphs with ordinary text in them", () => {
    expect(agentSessions(["a\n\nAgent Session: s1"])).toEqual([]);
    expect(agentSessions(["a\n\nSee the notes.\nAgent-Session: s1"])).toEqual([]);
    expect(agentSessions(["a\n\n Agent-Session: s1"])).toEqual([]);
    // Values are case-sensitive session ids; an empty value names no session.
    expect(
      agentSessions(["a\n\nAgent-Session: S1", "b\n\nAgent-Session: s1", "c\n\nAgent-Session:"]),
    ).toEqual(["S1", "s1"]);
  });

  it("unfolds continuation lines and accepts a mixed block that git itself signed off", () => {
    expect(commitTrailers("a\n\nAgent-Session: long\n  id\nOther: x")).toEqual([
      { key: "Agent-Session", value: "long id" },
      { key: "Other", value: "x" },
    ]);
    expect(
      agentSessions(["a\n\nnot a trailer\nAgent-Session: s1\nSigned-off-by: A <a@b>"]),
    ).toEqual(["s1"]);
  });

  it("reads the example in docs/handoff.md", () => {
    const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "handoff.md"), "utf8");
    const example = /```text\n([\s\S]*?)```/.exec(docs)?.[1] ?? "";
    expect(agentSessions([example])).toEqual(["2026-12-02-b"]);
  });

  describe("agrees with git log --format=%(trailers) on real commits", () => {
    const repo = makeRepo("agate-trailers-");
    afterAll(() => repo.remove());
    // Each message with the sessions git itself reads from it.
    const messages: [string, string[]][] = [
      ["one\n\nAgent-Session: s1\n", ["s1"]],
      ["two\n\nbody\n\nagent-session : s2\nCo-authored-by: X <x@y>\n", ["s2"]],
      ["three\nAgent-Session: title-only\n", []],
      ["four\n\nAgent-Session: s3\n\nafter\n", []],
      ["five\n\nplain words\nAgent-Session: s4\n", []],
      ["six\n\nplain words\nAgent-Session: s5\nSigned-off-by: A <a@b>\n", ["s5"]],
      ["seven\n\nAgent-Session: folded\n  value\n", ["folded value"]],
      ["eight\n\nAgent Session: spaced\n", []],
      ["nine\n\nAgent-Session: s6\n---\nnotes\n", []],
      ["ten\n\n\nAgent-Session:   s7   \n\n\n", ["s7"]],
    ];
    it.each(messages.map(([message, sessions], index) => [index, message, sessions] as const))(
      "message %i",
      (index, message, sessions) => {
        const file = join(repo.dir, `message-${index}`);
        writeFileSync(file, message);
        repo.git("commit", "--quiet", "--allow-empty", "--cleanup=verbatim", "-F", file);
        const stored = repo.git("log", "-1", "--format=%B");
        const byGit = repo
          .git(
            "log",
            "-1",
            "--format=%(trailers:key=Agent-Session,valueonly,unfold,separator=%x00)",
          )
          .replace(/\n$/, "")
          .split("\0")
          .map((value) => value.trim())
          .filter((value) => value !== "");
        expect(byGit).toEqual(sessions);
        expect(agentSessions([stored])).toEqual(sessions);
      },
    );
  });
});
