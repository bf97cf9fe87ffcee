import { describe, expect, it } from "vitest";
import { outsideCode, tableCellCount } from "./inert-markdown.js";

/** The hostile-text checks rest on this reading of Markdown: it must not hide rendered text. */
describe("outsideCode: what GitHub would render as Markdown", () => {
  it("takes out code spans and fenced blocks", () => {
    expect(outsideCode("a `@x` b")).toBe("a ⟨code⟩ b");
    expect(outsideCode("```\n@x\n```\nafter")).toBe("after");
    expect(outsideCode("~~~~\n@x\n~~~\n~~~~\nafter")).toBe("after");
  });

  it("an escaped backtick opens no code span: what follows is rendered", () => {
    expect(outsideCode("\\`@x` after")).toContain("@x");
  });

  it("a backtick fence whose info string holds a backtick is text, not a fence", () => {
    expect(outsideCode("``` a`b\n@x\n```")).toContain("@x");
  });
});

describe("tableCellCount", () => {
  it("an escaped pipe does not split a cell", () => {
    expect(tableCellCount("| a | b \\| c |")).toBe(tableCellCount("| a | b |"));
    expect(tableCellCount("| a | b | c |")).toBe(tableCellCount("| a | b |") + 1);
  });
});
