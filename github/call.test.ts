import { describe, expect, it } from "vitest";
import { GitHubCalls, repoOf, unless } from "./call.js";
import type { RestClient } from "./client.js";

const failing = (status?: number) => async () => {
  throw Object.assign(new Error(`answered ${status}`), status === undefined ? {} : { status });
};

describe("unless: a listed answer of GitHub's is a value, anything else is thrown", () => {
  it("returns the read, or the fallback for a listed status", async () => {
    expect(await unless([404], null, async () => 7)).toBe(7);
    expect(await unless([404, 410], null, failing(410))).toBeNull();
  });

  it("throws an unlisted status and an error with no status (no answer, a bug), so a job is retried", async () => {
    await expect(unless([404], null, failing(403))).rejects.toThrow("answered 403");
    await expect(unless([404], null, failing(500))).rejects.toThrow("answered 500");
    await expect(unless([404], null, failing())).rejects.toThrow("answered undefined");
  });
});

describe("GitHubCalls: what one job or command cost, per operation", () => {
  it("counts every call of every repository made over it", () => {
    const calls = new GitHubCalls();
    const client = {} as RestClient;
    const here = repoOf(client, "octo", "widgets", calls);
    const there = { ...here, owner: "octo", repo: ".github" };
    here.count("pulls/get");
    here.count("pulls/get");
    there.count("repos/get-content");
    expect(Object.fromEntries(calls.byOperation)).toEqual({
      "pulls/get": 2,
      "repos/get-content": 1,
    });
    expect(calls.total).toBe(3);
    expect(new GitHubCalls().total).toBe(0);
  });
});
