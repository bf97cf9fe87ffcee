import { afterEach, describe, expect, it, vi } from "vitest";
import { keepTrying } from "./keep-trying.js";

describe("keepTrying", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tries again after 5 s, then 10 s, ... up to the maximum, and stops once it succeeded", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const failures: number[] = [];
    keepTrying(
      async () => {
        calls++;
        if (calls <= 4) throw new Error("database not ready");
      },
      (error, retryInMs) => {
        expect((error as Error).message).toBe("database not ready");
        failures.push(retryInMs);
      },
      { firstDelayMs: 5_000, maxDelayMs: 12_000 },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect([calls, failures]).toEqual([1, [5_000]]);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect([calls, failures]).toEqual([2, [5_000, 10_000]]);
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.advanceTimersByTimeAsync(12_000);
    expect([calls, failures]).toEqual([4, [5_000, 10_000, 12_000, 12_000]]);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(calls).toBe(5);
    // Succeeded: nothing more is scheduled.
    await vi.advanceTimersByTimeAsync(600_000);
    expect(calls).toBe(5);
    expect(vi.getTimerCount()).toBe(0);
  });
});
