import { describe, expect, it } from "vitest";
import { entryMentions, MAX_ENTRY_MENTIONS, withoutCode } from "./mentions.js";

const REPO = "octo/repo";

describe("entryMentions", () => {
  it("reads `#N`, `owner/repo#N` of the same repository and the issue's URL", () => {
    expect(entryMentions("Waits on #7.", REPO)).toEqual([7]);
    expect(entryMentions("See octo/repo#8 first", REPO)).toEqual([8]);
    expect(entryMentions("See Octo/Repo#8 first", REPO)).toEqual([8]);
    expect(entryMentions("(https://github.com/octo/repo/issues/9)", REPO)).toEqual([9]);
    expect(
      entryMentions("https://ghe.example.com/octo/repo/issues/10#issuecomment-1", REPO),
    ).toEqual([10]);
    expect(entryMentions("Blocked by #3, #4 and (#5)", REPO)).toEqual([3, 4, 5]);
  });

  it("lists each number once, in order of first mention", () => {
    expect(
      entryMentions(
        "#12 then octo/repo#3 then #12 and https://github.com/octo/repo/issues/3",
        REPO,
      ),
    ).toEqual([12, 3]);
  });

  it("ignores another repository's references and URLs", () => {
    expect(entryMentions("other/repo#7 and octo/other#8", REPO)).toEqual([]);
    expect(entryMentions("https://github.com/other/repo/issues/7", REPO)).toEqual([]);
    expect(entryMentions("https://github.com/octo/repository/issues/7", REPO)).toEqual([]);
  });

  it("ignores what is no issue reference: pull request URLs, words, anchors, entities, paths", () => {
    expect(entryMentions("https://github.com/octo/repo/pull/7", REPO)).toEqual([]);
    expect(entryMentions("https://example.com/page#7", REPO)).toEqual([]);
    expect(entryMentions("abc#7 a/b/c#8 &#9; ##10 #11a #0", REPO)).toEqual([]);
    expect(entryMentions("https://github.com/octo/repo/issues/7/x", REPO)).toEqual([]);
  });

  it("ignores code: fences, inline spans and HTML comments", () => {
    const body = [
      "Real: #1",
      "```",
      "#2 octo/repo#3",
      "```",
      "~~~~sh",
      "#4",
      "```",
      "~~~~",
      "inline `#5` and ``a ` #6`` but #7",
      "<!-- template: link your entry, e.g. #8 -->",
      "after #9",
    ].join("\n");
    expect(entryMentions(body, REPO)).toEqual([1, 7, 9]);
  });

  it("an unclosed fence hides the rest; an unclosed backtick hides nothing", () => {
    expect(entryMentions("#1\n```\n#2", REPO)).toEqual([1]);
    expect(entryMentions("a ` #3", REPO)).toEqual([3]);
  });

  it("keeps at most MAX_ENTRY_MENTIONS numbers, and none out of range", () => {
    const many = Array.from({ length: MAX_ENTRY_MENTIONS + 5 }, (_, i) => `#${i + 1}`).join(" ");
    const got = entryMentions(many, REPO);
    expect(got).toHaveLength(MAX_ENTRY_MENTIONS);
    expect(got.at(-1)).toBe(MAX_ENTRY_MENTIONS);
    expect(entryMentions("#99999999999 #2147483648 #2147483647", REPO)).toEqual([2147483647]);
    expect(entryMentions(null, REPO)).toEqual([]);
    expect(entryMentions("", REPO)).toEqual([]);
  });

  it("code removed leaves a space, so neighbours are not joined into a reference", () => {
    expect(withoutCode("a`x`#1")).toBe("a #1");
    expect(entryMentions("octo/repo`x`#1", REPO)).toEqual([1]);
    expect(entryMentions("word`x`b#1", REPO)).toEqual([]);
  });
});

describe("entryMentions on an author's hostile text", () => {
  it("reads a description of unclosed backtick runs (seconds with the old pattern), and still pairs runs", () => {
    const runs = Array.from({ length: 360 }, (_, i) => "`".repeat(i + 1)).join("x");
    const unclosed = `a${"`".repeat(65_535)}`;
    expect(entryMentions(`${runs} #7`, "o/r")).toEqual([7]);
    expect(entryMentions(`${unclosed} #8`, "o/r")).toEqual([8]);
    expect(entryMentions("``#5`` and `#6` but #9", "o/r")).toEqual([9]);
  });
});
