import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "./errors.js";
import { SqliteStore } from "./sqlite-store.js";
import { SHA_A, SHA_B, SHA_C, useTempDatabaseFile } from "./test-support.js";

const databaseFile = useTempDatabaseFile();
const PR = { repository: "octo/repo", pullNumber: 12 };

describe("maintainer overrides", () => {
  it("are kept per exact head, oldest first, across a reopen; another head has none", async () => {
    const writer = SqliteStore.open(databaseFile());
    const first = await writer.appendOverride({
      repository: "octo/repo",
      pull_number: 12,
      head_sha: SHA_A,
      base_ref: "main",
      by: "octocat",
      reason: "the workflow change is reviewed",
      comment_url: "https://github.com/octo/repo/pull/12#issuecomment-1",
      at: "2025-01-01T10:00:00.000Z",
    });
    await writer.close();
    const reader = SqliteStore.open(databaseFile());
    expect(await reader.listOverrides({ ...PR, headSha: SHA_A })).toEqual([first]);
    expect(await reader.listOverrides({ ...PR, headSha: SHA_B })).toEqual([]);
    await reader.close();
  });

  it("refuse an empty reason, and are append-only in the database itself", async () => {
    const store = SqliteStore.open(databaseFile());
    const input = {
      repository: "octo/repo",
      pull_number: 12,
      head_sha: SHA_A,
      base_ref: "main",
      by: "octocat",
      reason: "",
      comment_url: null,
      at: "2025-01-01T10:00:00.000Z",
    };
    await expect(store.appendOverride(input)).rejects.toThrow(InvalidInputError);
    await store.appendOverride({ ...input, reason: "reviewed" });
    await store.close();
    const raw = new Database(databaseFile());
    expect(() => raw.prepare("UPDATE maintainer_overrides SET head_sha = 'x'").run()).toThrow(
      /append-only/,
    );
    expect(() => raw.prepare("DELETE FROM maintainer_overrides").run()).toThrow(/append-only/);
    raw.close();
  });
});

describe("observed heads", () => {
  it("are recorded once per head, pull request and base, listed in order", async () => {
    const store = SqliteStore.open(databaseFile());
    const seen = (pull_number: number, base_ref: string, observed_at: string) =>
      store.recordHeadObservation({
        repository: "octo/repo",
        head_sha: SHA_A,
        pull_number,
        base_ref,
        observed_at,
      });
    await seen(12, "main", "2025-01-01T10:00:00.000Z");
    await seen(12, "main", "2025-01-01T11:00:00.000Z");
    await seen(13, "release", "2025-01-01T12:00:00.000Z");
    expect(await store.listHeadObservations({ repository: "octo/repo", headSha: SHA_A })).toEqual([
      { pull_number: 12, base_ref: "main" },
      { pull_number: 13, base_ref: "release" },
    ]);
    expect(await store.listHeadObservations({ repository: "octo/repo", headSha: SHA_B })).toEqual(
      [],
    );
    await store.close();
    const raw = new Database(databaseFile());
    expect(() => raw.prepare("DELETE FROM head_observations").run()).toThrow(/append-only/);
    raw.close();
  });
});

describe("observed test merge commits", () => {
  it("are recorded once per head and merge commit, listed oldest first", async () => {
    const store = SqliteStore.open(databaseFile());
    const seen = (merge_sha: string, observed_at: string) =>
      store.recordMergeCommit({
        repository: "octo/repo",
        pull_number: 12,
        head_sha: SHA_A,
        merge_sha,
        observed_at,
      });
    await seen(SHA_B, "2025-01-01T10:00:00.000Z");
    await seen(SHA_B, "2025-01-01T11:00:00.000Z");
    await seen(SHA_C, "2025-01-01T12:00:00.000Z");
    expect(await store.listMergeCommits({ ...PR, headSha: SHA_A })).toEqual([SHA_B, SHA_C]);
    expect(await store.listMergeCommits({ ...PR, headSha: SHA_B })).toEqual([]);
    await store.close();
    const raw = new Database(databaseFile());
    expect(() => raw.prepare("DELETE FROM merge_commits").run()).toThrow(/append-only/);
    raw.close();
  });
});
