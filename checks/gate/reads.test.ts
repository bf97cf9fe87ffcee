import { describe, expect, it } from "vitest";
import type { ChangedFile, PullRequestView, SetupFact } from "../../schemas/gate.js";
import { gateFacts, HEAD, handoffFacts, loadedConfig } from "../../test/support/gate-facts.js";
import * as reads from "./reads.js";
import { sightingOf } from "./sighting.js";

const MERGE_BASE = "7".repeat(40);
const config = (extra = "") =>
  loadedConfig(`version: 1\ncommands:\n  - { name: unit, run: npm test }\n${extra}`).config;
const file = (filename: string, status = "modified", previous: string | null = null) =>
  ({ filename, status, previous_filename: previous }) satisfies ChangedFile;
const complete = { complete: true, reason: null };

describe("the read plan", () => {
  it("the compare is the whole change under 300 files and at GitHub's count; the pull request's own list is judged", () => {
    expect(reads.compareIsWhole(299, 299)).toBe(true);
    expect(reads.compareIsWhole(300, 300)).toBe(false);
    expect(reads.compareIsWhole(12, 13)).toBe(false);
    expect(reads.pullListing(1_200, 1_200)).toEqual(complete);
    expect(reads.pullListing(3_000, 3_500).complete).toBe(false);
  });

  it("reviews are read for the review evaluator, or when a protected path changed, and only then", () => {
    const plain = { changedFiles: [file("src/a.ts")], pushEvent: false, head: HEAD, decided: [] };
    expect(reads.planReads({ ...plain, config: config() }).reviews).toBe(false);
    expect(
      reads.planReads({ ...plain, config: config("evaluator: { kind: review }\n") }).reviews,
    ).toBe(true);
    const workflow = [file(".github/workflows/agate.yml")];
    expect(reads.planReads({ ...plain, changedFiles: workflow, config: config() }).reviews).toBe(
      true,
    );
  });

  it("stored evaluations only for an evaluator agate asks; runs skipped only for the push of a head never decided", () => {
    const base = { changedFiles: [], config: config(), head: HEAD };
    const decided = [{ head_sha: HEAD }];
    const other = [{ head_sha: MERGE_BASE }];
    expect(reads.planReads({ ...base, pushEvent: true, decided: other })).toEqual({
      reviews: false,
      evaluations: false,
      skipRuns: true,
    });
    expect(reads.planReads({ ...base, pushEvent: true, decided }).skipRuns).toBe(false);
    expect(reads.planReads({ ...base, pushEvent: false, decided: [] }).skipRuns).toBe(false);
    const asked = config(
      "evaluator: { kind: llm, provider: openai, model: m, base_url: https://llm.example/v1 }\n",
    );
    expect(reads.planReads({ ...base, config: asked, pushEvent: false, decided: [] })).toEqual({
      reviews: false,
      evaluations: true,
      skipRuns: false,
    });
  });

  it("the base's rules are read but under an invalid config; the default branch's when the base requires agate from nobody", () => {
    expect(reads.readsSetup({ status: "missing", path: ".github/agate.yml" })).toBe(true);
    expect(reads.readsSetup({ status: "invalid", path: ".github/agate.yml", message: "x" })).toBe(
      false,
    );
    const setup = (requires: SetupFact["requires"]): SetupFact => ({
      branch: "main",
      status: "ok",
      summary: "",
      fix: null,
      requires,
      merge_queue: null,
      read_at: "2026-12-02T10:00:00.000Z",
    });
    expect(
      ["this_app", "any_source", "other_app", "none", "unknown"].filter((r) =>
        reads.readsDefaultSetup(setup(r as SetupFact["requires"])),
      ),
    ).toEqual(["other_app", "none"]);
  });

  it("the handoff file: at the head when touched or the listing may be cut, at the merge base when required and untouched, else not", () => {
    const read = (files: ChangedFile[], options: { labels?: string[]; cut?: boolean } = {}) =>
      reads.handoffReadAt({
        config: config(),
        labels: options.labels ?? [],
        facts: handoffFacts({ file: null, newest_change: null }),
        changed: {
          files,
          listing: options.cut ? { complete: false, reason: "cut" } : complete,
        },
        mergeBase: MERGE_BASE,
        head: HEAD,
      });
    expect(read([file(".agate/handoff.md")])).toBe(HEAD);
    expect(read([file("notes.md", "renamed", ".agate/handoff.md")])).toBe(HEAD);
    expect(read([file(".agate/handoff.md", "removed")])).toBeNull();
    expect(read([file("src/a.ts")])).toBeNull();
    expect(read([file("src/a.ts")], { labels: ["long-task"] })).toBe(MERGE_BASE);
    expect(read([file("src/a.ts")], { cut: true })).toBe(HEAD);
  });

  it("the newest change is looked for newest commit first, at most five, the head alone without commits", () => {
    const commits = ["a", "b", "c", "d", "e", "f"].map((c) => ({ sha: c.repeat(40) }));
    expect(reads.newestChangeCandidates(commits, HEAD)).toEqual(
      ["f", "e", "d", "c", "b"].map((c) => c.repeat(40)),
    );
    expect(reads.newestChangeCandidates([], HEAD)).toEqual([HEAD]);
  });

  it("an event's view stands for a read only when no pass acted on a newer one: later, or the same second showing the same", () => {
    const view = (updated_at: string, body = "Closes #1"): PullRequestView => ({
      snapshot: gateFacts().pull_request,
      detail: {
        title: "t",
        body,
        created_at: "2026-12-02T10:00:00Z",
        updated_at,
        commits: 1,
        additions: 1,
        deletions: 0,
        changed_files: 1,
        merge_commit_sha: null,
      },
    });
    const acted = view("2026-12-02T10:05:00Z");
    const last = sightingOf(acted, acted.snapshot.labels);
    expect(reads.seenViewIsNewest(view("2026-12-02T10:06:00Z"), last)).toBe(true);
    expect(reads.seenViewIsNewest(view("2026-12-02T10:04:00Z"), last)).toBe(false);
    expect(reads.seenViewIsNewest(view("2026-12-02T10:05:00Z"), last)).toBe(true);
    expect(reads.seenViewIsNewest(view("2026-12-02T10:05:00Z", "Closes #2"), last)).toBe(false);
  });

  it("stored rows as facts: an override only on the base it was given on, each other pull request or base once, a new test merge commit added", () => {
    const pr = gateFacts().pull_request;
    const override = (base_ref: string, id: number) => ({
      id,
      repository: pr.repository,
      pull_number: pr.number,
      head_sha: HEAD,
      base_ref,
      by: "maintainer",
      reason: "looked at it",
      comment_url: null,
      at: "2026-12-02T10:00:00.000Z",
    });
    const seen = [
      { pull_number: pr.number, base_ref: pr.base_ref },
      { pull_number: 9, base_ref: pr.base_ref },
    ];
    const stored = {
      records: [],
      mergeCommits: [MERGE_BASE],
      overrides: [override(pr.base_ref, 1), override("evil", 2)],
      sightings: seen,
      bases: [...seen, { pull_number: pr.number, base_ref: "evil" }],
      entries: [],
    };
    const facts = reads.storedFacts(pr, { merge_commit_sha: HEAD }, stored, []);
    // The newest override was given while the pull request targeted another branch: void here.
    expect(facts.override?.at).toBe("2026-12-02T10:00:00.000Z");
    expect(
      reads.storedFacts({ ...pr, base_ref: "other" }, { merge_commit_sha: null }, stored, [])
        .override,
    ).toBeNull();
    expect(facts.head_shared_with).toEqual([
      { pull_number: 9, base_ref: pr.base_ref },
      { pull_number: pr.number, base_ref: "evil" },
    ]);
    expect(facts.merge_commits).toEqual([MERGE_BASE, HEAD]);
    expect(
      reads.storedFacts(pr, { merge_commit_sha: MERGE_BASE }, stored, []).merge_commits,
    ).toEqual([MERGE_BASE]);
    expect(facts).toMatchObject({
      prior_records: [],
      previously_gated: false,
      attempts: [],
      entries: [],
    });
  });

  it("reviews: each reviewer's latest decisive one; the author is never asked about as a maintainer; verdicts kept for the review evaluator only", () => {
    const review = (login: string, state: string, commit_id: string | null = HEAD) => ({
      login,
      user_type: "User",
      state,
      commit_id,
      submitted_at: "2026-12-02T10:00:00Z",
      body: "",
    });
    const decisive = reads.decisiveReviews(
      [
        review("Agent", "APPROVED"),
        review("ann", "CHANGES_REQUESTED"),
        review("ann", "APPROVED"),
        review("ann", "COMMENTED"),
        review("bob", "APPROVED", null),
        review("cy", "DISMISSED"),
      ],
      "agent",
    );
    expect(decisive.map((d) => [d.verdict.login, d.verdict.state, d.askMaintainer])).toEqual([
      ["agent", "APPROVED", false],
      ["ann", "APPROVED", true],
    ]);
    const verdicts = decisive.map((d) => ({ ...d.verdict, maintainer: d.askMaintainer }));
    expect(reads.reviewFacts(config(), verdicts)).toEqual({
      approvals: verdicts.map(({ login, commit_id, submitted_at, maintainer }) => ({
        login,
        commit_id,
        submitted_at,
        maintainer,
      })),
      reviews: [],
    });
    expect(reads.reviewFacts(config("evaluator: { kind: review }\n"), verdicts).reviews).toEqual(
      verdicts,
    );
  });

  it("the compare's commits are kept for the handoff only under a sessions_over rule", () => {
    const commits = [
      { sha: HEAD, message: "m", committed_at: null, tree_sha: MERGE_BASE, parents: [] },
    ];
    expect(reads.handoffCommits(config(), commits)).toEqual([
      { sha: HEAD, message: "m", committed_at: null },
    ]);
    const off = config("handoff:\n  required_when: { sessions_over: null }\n");
    expect(reads.handoffCommits(off, commits)).toEqual([]);
  });
});
