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
});
