import { describe, expect, it } from "vitest";
import { judgeListing } from "./listing.js";

describe("judgeListing: a listing that may be cut is not the whole change", () => {
  it("is complete under the cap and as long as GitHub's count", () => {
    expect(judgeListing({ source: "the compare", count: 12, limit: 300, expected: 12 })).toEqual({
      complete: true,
      reason: null,
    });
  });

  it("is incomplete at the cap, or shorter than GitHub's count", () => {
    expect(judgeListing({ source: "the list", count: 3000, limit: 3000, expected: 3001 })).toEqual({
      complete: false,
      reason:
        "the list stops at 3000 files and this change has 3001, so agate cannot see every changed file",
    });
    expect(
      judgeListing({ source: "the compare", count: 300, limit: 300, expected: null }).reason,
    ).toBe(
      "the compare stops at 300 files and this change has at least 300, so agate cannot see every changed file",
    );
    expect(judgeListing({ source: "the list", count: 20, limit: 3000, expected: 25 })).toEqual({
      complete: false,
      reason: "the list lists 20 files, but GitHub counts 25 changed files",
    });
  });
});
