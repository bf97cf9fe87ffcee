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
  const judge = (
    login: string,
    type: string | null,
    maintainer: boolean,
    options: { headSha?: string; maintainers?: string[] } = {},
  ) =>
    judgeOverride({
      command,
      commenter: { login, type },
      maintainer,
      maintainers: options.maintainers ?? [],
      author: "codex[bot]",
      headSha: options.headSha ?? HEAD,
    });

  it("accepts a maintainer naming the live head", () => {
    expect(judge("octocat", "User", true)).toEqual({ ok: true });
  });

  it("refuses bots (by type or login), the author, non-maintainers, and an older head", () => {
    expect(judge("helper[bot]", "Bot", true)).toEqual({
      ok: false,
      problem: "a bot cannot accept a commit; a maintainer must",
    });
    expect(judge("Codex[bot]", "User", true)).toMatchObject({ ok: false });
    // A machine user GitHub types Bot, with no `[bot]` in its login (issue 26).
    expect(judge("agent-machine", "Bot", true)).toEqual({
      ok: false,
      problem: "a bot cannot accept a commit; a maintainer must",
    });
    expect(judge("ghostly", null, true)).toEqual({
      ok: false,
      problem:
        "only a person's account can accept a commit; GitHub says ghostly's is of no known type",
    });
    expect(
      judgeOverride({
        command,
        commenter: { login: "Author", type: "User" },
        maintainer: true,
        maintainers: [],
        author: "author",
        headSha: HEAD,
      }),
    ).toEqual({ ok: false, problem: "the author of a pull request cannot accept it" });
    expect(judge("reader", "User", false)).toEqual({
      ok: false,
      problem:
        "only a maintainer can accept a commit: with no escalation.maintainers in the base config, that is someone with write access or more, which reader does not have",
    });
    // Write access is not enough where maintainers are listed (issue 26).
    expect(judge("writer", "User", false, { maintainers: ["lead", "@acme/core"] })).toEqual({
      ok: false,
      problem:
        "only a maintainer can accept a commit: writer is not one of escalation.maintainers in the base config (lead, @acme/core)",
    });
    expect(judge("octocat", "User", true, { headSha: "1".repeat(40) })).toEqual({
      ok: false,
      problem:
        "the head is now 1111111, not abcdef012345: look at the new commit and accept it by its SHA",
    });
  });
});
