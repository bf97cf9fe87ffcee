import { describe, expect, it } from "vitest";
import { judgeOverride, parseOverrideComment } from "./override.js";

const HEAD = "abcdef0123456789abcdef0123456789abcdef01";

describe("parseOverrideComment", () => {
  it("reads `/agate accept <sha> <reason>`, the reason running to the end", () => {
    expect(
      parseOverrideComment(`/agate accept ${HEAD} the workflow change is reviewed\nby me`),
    ).toEqual({
      kind: "accept",
      sha: HEAD,
      reason: "the workflow change is reviewed\nby me",
    });
  });

  it("is not a command unless the comment starts with it", () => {
    expect(parseOverrideComment("please /agate accept abcdef0 x")).toBeNull();
    expect(parseOverrideComment("LGTM")).toBeNull();
  });

  it("needs a SHA and a reason, and says so", () => {
    expect(parseOverrideComment("/agate accept")).toMatchObject({ kind: "invalid" });
    expect(parseOverrideComment("/agate accept now please")).toMatchObject({ kind: "invalid" });
    // A short SHA could name another commit, ground to match it.
    expect(parseOverrideComment("/agate accept abcdef0 reviewed")).toMatchObject({
      kind: "invalid",
      problem: expect.stringContaining("by its whole SHA"),
    });
    expect(parseOverrideComment(`/agate accept ${HEAD}`)).toEqual({
      kind: "invalid",
      problem: expect.stringContaining("needs a reason after the SHA"),
    });
  });
});

describe("judgeOverride: who may accept which commit", () => {
  const command = { kind: "accept" as const, sha: HEAD, reason: "reviewed" };
  const judge = (login: string, type: string, permission: string, headSha = HEAD) =>
    judgeOverride({
      command,
      commenter: { login, type, permission },
      author: "codex[bot]",
      headSha,
    });

  it("accepts a maintainer naming the live head", () => {
    expect(judge("octocat", "User", "write")).toEqual({ ok: true });
    expect(judge("octocat", "User", "admin")).toEqual({ ok: true });
  });

  it("refuses bots, the author, readers and triagers, and an older head", () => {
    expect(judge("helper[bot]", "Bot", "write")).toMatchObject({ ok: false });
    expect(judge("Codex[bot]", "User", "admin")).toMatchObject({ ok: false });
    expect(
      judgeOverride({
        command,
        commenter: { login: "Author", type: "User", permission: "admin" },
        author: "author",
        headSha: HEAD,
      }),
    ).toEqual({ ok: false, problem: "the author of a pull request cannot accept it" });
    expect(judge("reader", "User", "read")).toEqual({
      ok: false,
      problem: "only people with write access or more can accept a commit (reader has read)",
    });
    expect(judge("triager", "User", "triage")).toMatchObject({ ok: false });
    expect(judge("octocat", "User", "write", "1".repeat(40))).toEqual({
      ok: false,
      problem:
        "the head is now 1111111, not abcdef012345: look at the new commit and accept it by its SHA",
    });
  });
});
