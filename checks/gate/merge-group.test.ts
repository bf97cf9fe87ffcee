import { describe, expect, it } from "vitest";
import type { CommandRecord } from "../../schemas/command-record.js";
import type { MergeGroupFacts } from "../../schemas/merge-group.js";
import { BASE, commandEvidence, commandRecord, HEAD, TREE } from "../../test/support/gate-facts.js";
import { phaseKinds } from "../../test/support/gate-pass.js";
import { GROUP_REF, mergeGroupFacts } from "../../test/support/merge-group-facts.js";
import {
  decideMergeGroup,
  decideMergeGroupPass,
  groupPullNumber,
  isMergeQueueRef,
  mergeGroupDeadline,
  recordTimeoutReason,
  renderMergeGroupSummary,
  requestedBase,
} from "./merge-group.js";

/** A record as the Action makes it on merge_group: tested = the group head, no pull request. */
function groupRecord(exitCodes: number[] = [0, 0], headSha = HEAD): CommandRecord {
  return commandRecord(exitCodes, {
    tested: { ...commandRecord().tested, sha: headSha, tree_sha: TREE, parents: [BASE] },
    pull_request: null,
    merge_group: { head_ref: GROUP_REF, head_sha: headSha, base_sha: BASE },
  });
}

const believed = (record: CommandRecord) => commandEvidence([], { record });

const facts = (overrides: Partial<MergeGroupFacts> = {}) => mergeGroupFacts(overrides);

function withEvaluator(kind: "llm" | "command" | "review"): MergeGroupFacts {
  const base = facts({ evidence: [believed(groupRecord())] });
  if (base.config.status !== "ok") throw new Error("config");
  const evaluator =
    kind === "llm"
      ? { kind, provider: "openai" as const, model: "m", min_score: 0.7, rubric: [] }
      : kind === "command"
        ? { kind, run: "x", timeout: 1000, min_score: 0.7, rubric: [] }
        : { kind };
  return {
    ...base,
    config: {
      ...base.config,
      config: { ...base.config.config, evaluator } as typeof base.config.config,
    },
  };
}

describe("decideMergeGroup: the queue accepts only on fresh evidence for the group head", () => {
  it("waits, in progress, for the merge group's command record", () => {
    const decision = decideMergeGroup(facts());
    expect(decision).toMatchObject({ state: "pending", conclusion: null });
    expect(decision.title).toBe(
      "Waiting on merge group 1111111 (#7): no merge_group record from .github/workflows/agate.yml yet; it fails after 30 min",
    );
  });

  it("succeeds on a verified passing record for this exact head", () => {
    const decision = decideMergeGroup(facts({ evidence: [believed(groupRecord())] }));
    expect(decision).toMatchObject({ state: "accepted", conclusion: "success" });
    expect(decision.title).toBe(
      `Accepted merge group ${HEAD.slice(0, 7)} (#7): the required commands passed on the group head`,
    );
  });

  it("fails on a verified failing record, naming the failing commands", () => {
    const decision = decideMergeGroup(facts({ evidence: [believed(groupRecord([0, 1]))] }));
    expect(decision).toMatchObject({ state: "rejected", conclusion: "failure" });
    expect(decision.title).toContain("1 of 2 required commands failed (lint)");
  });

  it("a listing GitHub may have cut fails the group with the cause: the queue cannot wait for a person", () => {
    const decision = decideMergeGroup(
      facts({
        evidence: [believed(groupRecord())],
        changed_files_listing: { complete: false, reason: "the compare stops at 300 files" },
      }),
    );
    expect(decision).toMatchObject({ state: "rejected", conclusion: "failure" });
    expect(decision.title).toContain(
      "the compare stops at 300 files; merge these pull requests in smaller groups",
    );
  });

  it("names the pull request a group was built for, from GitHub's ref", () => {
    expect(groupPullNumber(GROUP_REF)).toBe(7);
    expect(groupPullNumber("refs/heads/gh-readonly-queue/release/v2/pr-123-0a1b2c")).toBe(123);
    expect(groupPullNumber("refs/heads/feature/pr-7")).toBeNull();
  });

  it("after record_timeout with no verified record, fails with the reason", () => {
    const decision = decideMergeGroup(facts({ deadline_passed: true }));
    expect(decision).toMatchObject({ state: "rejected", conclusion: "failure" });
    expect(decision.title).toBe(
      "Rejected merge group 1111111 (#7): no command record within 30 min (merge_queue.record_timeout): does the evidence…",
    );
    expect(recordTimeoutReason(1_000)).toContain("within 1 s (merge_queue.record_timeout)");
  });

  it("a verified passing record still wins after the deadline", () => {
    const decision = decideMergeGroup(
      facts({ deadline_passed: true, evidence: [believed(groupRecord())] }),
    );
    expect(decision.conclusion).toBe("success");
  });

  it.each<[string, Partial<MergeGroupFacts>]>([
    ["no evidence", {}],
    [
      "refused evidence",
      { evidence: [{ ...believed(groupRecord()), refused: "the group modifies ci.yml" }] },
    ],
    [
      "evidence whose run has not finished",
      { evidence: [{ ...believed(groupRecord()), waiting: "job gate is still running" }] },
    ],
    [
      "a record for another merge group head",
      { evidence: [believed(groupRecord([0, 0], "9".repeat(40)))] },
    ],
    ["a pull request's record", { evidence: [believed(commandRecord())] }],
    ["a record with no commands", { evidence: [believed(groupRecord([]))] }],
  ])("never succeeds without verified evidence for the exact head: %s", (_name, overrides) => {
    for (const deadline_passed of [false, true]) {
      const decision = decideMergeGroup(facts({ ...overrides, deadline_passed }));
      expect(decision.conclusion).not.toBe("success");
      if (deadline_passed) expect(decision.conclusion).toBe("failure");
    }
  });

  it.each(["llm", "command", "review"] as const)(
    "an unsupported evaluator kind (%s) never succeeds, even on passing evidence",
    (kind) => {
      const decision = decideMergeGroup(withEvaluator(kind));
      expect(decision).toMatchObject({ state: "rejected", conclusion: "failure" });
      expect(decision.title).toContain(`evaluator.kind: ${kind} is not supported`);
    },
  );

  it("does not escalate protected paths in the queue, and says so", () => {
    const input = facts({
      evidence: [believed(groupRecord())],
      changed_files: [
        { filename: ".github/workflows/release.yml", previous_filename: null, status: "modified" },
      ],
    });
    const decision = decideMergeGroup(input);
    expect(decision.conclusion).toBe("success");
    const protectedPaths = decision.requirements.find((r) => r.id === "protected_paths");
    expect(protectedPaths?.reason).toBe(
      ".github/workflows/release.yml changed; not escalated in the merge queue (its pull requests were approved before they were queued)",
    );
    expect(renderMergeGroupSummary(decision, input)).toContain("not escalated in the merge queue");
  });

  it("a base without config is not gated (neutral); an invalid one fails, its message shown once", () => {
    expect(
      decideMergeGroup(facts({ config: { status: "missing", path: ".github/agate.yml" } })),
    ).toMatchObject({ state: "not_gated", conclusion: "neutral" });
    const invalid = facts({
      config: { status: "invalid", path: ".github/agate.yml", message: "line 2: bad" },
    });
    const decision = decideMergeGroup(invalid);
    expect(decision).toMatchObject({ state: "rejected", conclusion: "failure" });
    expect(decision.requirements).toMatchObject([{ id: "config", status: "blocked" }]);
    const summary = renderMergeGroupSummary(decision, invalid);
    expect(summary.split("\n")[0]).toBe(
      "**Rejected:** this merge group may not merge. **Next:** ask a maintainer to fix .github/agate.yml on the base branch (the problems are listed below), then queue #7 again.",
    );
    expect(summary.split("line 2: bad").length - 1).toBe(1);
  });

  it("the summary shows the commands and the failing tail", () => {
    const input = facts({ evidence: [believed(groupRecord([0, 1]))] });
    const summary = renderMergeGroupSummary(decideMergeGroup(input), input);
    expect(summary.split("\n")[0]).toBe(
      "**Rejected:** this merge group may not merge. **Next:** fix what failed (below) in #7, which GitHub took out of the queue, and queue it again.",
    );
    expect(summary).toContain("| lint | ❌ failed (exit 1) | 1.2 s |");
    expect(summary).toContain(
      "<details open><summary>lint: failed (exit 1), last output</summary>\n\n```text\nboom\n```",
    );
  });
});

describe("isMergeQueueRef", () => {
  it("knows the merge queue's branches, with or without refs/heads/", () => {
    expect(isMergeQueueRef(GROUP_REF)).toBe(true);
    expect(isMergeQueueRef("gh-readonly-queue/main/pr-1-x")).toBe(true);
    expect(isMergeQueueRef("feature/gh-readonly-queue")).toBe(false);
    expect(isMergeQueueRef(null)).toBe(false);
  });
});

describe("decideMergeGroupPass: a merge group's decision and its effects", () => {
  const AT = "2026-12-02T10:00:00.000Z";
  const seen = { existing: null, at: AT, deadline_reached: false, job_id: 9 };
  const EXTERNAL = `agate:merge_group:octo/widgets@${HEAD}:base=${BASE}`;

  it("a new decision: its audit entry under the job's key, then the check naming the group's base", () => {
    const { decision, effects } = decideMergeGroupPass(facts(), seen);
    // The audit entry before the check: a retry that finds the check written stores nothing.
    expect(phaseKinds(effects)).toEqual({ first: ["audit"], github: ["check"], after: [] });
    expect(effects.first[0]).toMatchObject({
      dedupe_key: `job:9:merge-group@${HEAD}:${decision.state}`,
      entry: { kind: "gate.merge_group.decision", subject: `octo/widgets@${HEAD}` },
    });
    expect(effects.github[0]).toMatchObject({
      head_sha: HEAD,
      write: { conclusion: decision.conclusion, title: decision.title, externalId: EXTERNAL },
    });
  });

  it("a check that already shows the decision is not written, and nothing is stored", () => {
    const first = decideMergeGroupPass(facts(), seen).effects.github[0];
    if (first?.kind !== "check") throw new Error("a first pass writes the check");
    const existing = {
      id: 3,
      status: "in_progress",
      conclusion: null,
      title: first.write.title,
      summary: first.write.summary,
      startedAt: AT,
      externalId: EXTERNAL,
    };
    expect(decideMergeGroupPass(facts(), { ...seen, existing }).effects).toEqual({
      first: [],
      github: [],
      after: [],
    });
  });

  it("the deadline passes by the check's own start, or when the deadline job runs; never without a config", () => {
    const startedAt = "2026-12-02T09:00:00.000Z";
    const existing = {
      id: 3,
      status: "in_progress",
      conclusion: null,
      title: null,
      summary: null,
      startedAt,
      externalId: EXTERNAL,
    };
    expect(decideMergeGroupPass(facts(), { ...seen, existing }).facts.deadline_passed).toBe(true);
    expect(
      decideMergeGroupPass(facts(), { ...seen, deadline_reached: true }).facts.deadline_passed,
    ).toBe(true);
    expect(decideMergeGroupPass(facts(), seen).facts.deadline_passed).toBe(false);
    const missing = facts({ config: { status: "missing", path: ".github/agate.yml" } });
    expect(
      decideMergeGroupPass(missing, { ...seen, deadline_reached: true }).facts.deadline_passed,
    ).toBe(false);
  });

  it("the deadline job is queued at the config's record_timeout, under its key; none without a config", () => {
    const group = facts().merge_group;
    const [deadline] = mergeGroupDeadline(group, facts().config, 1, AT).first;
    expect(deadline).toMatchObject({
      kind: "enqueue",
      job: { kind: "gate.merge_group_deadline", run_at: "2026-12-02T10:30:00.000Z" },
      dedupe: { dedupeKey: `gate.merge_group_deadline:octo/widgets@${HEAD}` },
    });
    expect(
      mergeGroupDeadline(group, { status: "missing", path: ".github/agate.yml" }, 1, AT),
    ).toEqual({ first: [], github: [], after: [] });
  });

  it("only our own check naming this head tells a group the queue asked about", () => {
    const check = (externalId: string | null) => ({
      id: 3,
      status: "in_progress",
      conclusion: null,
      title: null,
      summary: null,
      startedAt: null,
      externalId,
    });
    expect(requestedBase(check(EXTERNAL), HEAD)).toBe(BASE);
    expect(requestedBase(check(EXTERNAL), TREE)).toBeNull();
    expect(requestedBase(check(`agate:octo/widgets#7@${HEAD}`), HEAD)).toBeNull();
    expect(requestedBase(null, HEAD)).toBeNull();
  });
});
