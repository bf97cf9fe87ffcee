import { describe, expect, it } from "vitest";
import { FRAGMENTS, randomOutput, seeded } from "../test/support/normalise-output/corpus.js";
import { referenceOutput } from "../test/support/normalise-output/reference.js";
import { normaliseLine, normaliseOutput } from "./normalise-output.js";

describe("normaliseOutput gives exactly the line-by-line reference's text", () => {
  it("each fragment alone, and between words, at a line's start, middle and end", () => {
    for (const fragment of FRAGMENTS) {
      for (const text of [
        fragment,
        `x ${fragment} y`,
        `a\n${fragment}\nb`,
        `${fragment}${fragment}`,
        `${fragment}   `,
      ]) {
        expect(normaliseOutput(text), JSON.stringify(text)).toBe(referenceOutput(text));
      }
    }
  });

  it("2,000 random outputs of up to 200 pieces", () => {
    const random = seeded(17);
    for (let i = 0; i < 2_000; i++) {
      const text = randomOutput(random, 1 + Math.floor(random() * 200));
      expect(normaliseOutput(text), JSON.stringify(text)).toBe(referenceOutput(text));
    }
  });

  it("every rule's shape is caught by the filter that decides which lines need the rules", () => {
    // A line the filter lets through untouched would keep text a rule replaces: each rule's own
    // replacement must show up, on a line of its own and amid plain lines.
    const shapes = [
      "2026-12-02T17:30:20Z",
      "17:30:20",
      "deadbeef-dead-beef-dead-beefdeadbeef",
      "/tmp/x",
      "/var/folders/x",
      "/home/runner/work/_temp/x",
      "C:\\Temp\\x",
      "12ms",
      "1 h",
      "250µs",
      "0xdeadbeef",
      "process 12",
    ];
    for (const shape of shapes) {
      const text = `plain\n${shape}\nplain`;
      expect(normaliseOutput(text)).toBe(referenceOutput(text));
      expect(normaliseOutput(text)).not.toBe(text);
      expect(normaliseLine(shape)).not.toBe(shape);
    }
  });
});
