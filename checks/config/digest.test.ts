import { describe, expect, it } from "vitest";
import { canonicalJson } from "./digest.js";

describe("canonicalJson (RFC 8785 for config values)", () => {
  it("sorts keys by UTF-16 code units, recursively, with no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: "x" }, A: 0 })).toBe(
      '{"A":0,"a":{"c":"x","d":[true,null]},"b":1}',
    );
    // RFC 8785 section 3.2.3's ordering example: code units, not code points or locale.
    expect(canonicalJson({ "\u20ac": 1, "\r": 2, "\ud83d\ude00": 3, "1": 4, "\u00f6": 5 })).toBe(
      '{"\\r":2,"1":4,"ö":5,"€":1,"😀":3}',
    );
  });

  it("writes numbers and strings as JSON.stringify does, and leaves undefined members out", () => {
    expect(canonicalJson({ n: 0.8, big: 1e21, s: 'q"\n', u: undefined })).toBe(
      '{"big":1e+21,"n":0.8,"s":"q\\"\\n"}',
    );
    expect(() => canonicalJson({ bad: Number.NaN })).toThrow(/JSON has no such number/);
  });
});
