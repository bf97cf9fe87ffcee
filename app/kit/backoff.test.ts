import { describe, expect, it } from "vitest";
import { exponentialBackoff } from "./backoff.js";

describe("exponentialBackoff", () => {
  it("doubles from 2 s per attempt, between half and all of the step", () => {
    const low = exponentialBackoff({ random: () => 0 });
    const high = exponentialBackoff({ random: () => 0.999_999 });
    expect([1, 2, 3, 4].map(low)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([1, 2, 3, 4].map(high)).toEqual([2_000, 4_000, 8_000, 16_000]);
  });

  it("is capped at 5 minutes, also for absurd attempt counts", () => {
    const high = exponentialBackoff({ random: () => 0.999_999 });
    expect(high(9)).toBe(300_000);
    expect(high(10_000)).toBe(300_000);
    expect(exponentialBackoff({ random: () => 0 })(10_000)).toBe(150_000);
  });

  it("takes other bounds", () => {
    const fast = exponentialBackoff({ baseMs: 10, maxMs: 40, random: () => 0.5 });
    expect([1, 2, 3, 4].map(fast)).toEqual([8, 15, 30, 30]);
  });
});
