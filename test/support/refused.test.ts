import { describe, expect, it } from "vitest";
import { refusedWith } from "./refused.js";

class ParseError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("; "));
  }
}

describe("refusedWith", () => {
  it("gives the problems of the error the parse throws", () => {
    expect(
      refusedWith(
        ParseError,
        () => {
          throw new ParseError(["bad"]);
        },
        "the input",
      ),
    ).toEqual(["bad"]);
  });
  it("fails when the parse accepts its input", () => {
    expect(() => refusedWith(ParseError, () => 1, "the input")).toThrow(
      "expected the input to be refused",
    );
  });
  it("fails when the parse throws another error", () => {
    expect(() =>
      refusedWith(
        ParseError,
        () => {
          throw new TypeError("x");
        },
        "the input",
      ),
    ).toThrow();
  });
});
