import { describe, expect, it } from "vitest";
import { remember, rememberRead } from "./bounded-map.js";

describe("the App's caches of what never changes", () => {
  it("remember drops the oldest entry past the limit", () => {
    const map = new Map<string, number>();
    for (const [i, key] of ["a", "b", "c"].entries()) remember(map, key, i, 2);
    expect([...map.keys()]).toEqual(["b", "c"]);
  });

  it("rememberRead shares a read in flight and keeps what succeeded", async () => {
    const map = new Map<string, Promise<string>>();
    let reads = 0;
    const read = async () => `value ${++reads}`;
    const [a, b] = await Promise.all([
      rememberRead(map, "k", 10, read),
      rememberRead(map, "k", 10, read),
    ]);
    expect([a, b, reads]).toEqual(["value 1", "value 1", 1]);
    expect(await rememberRead(map, "k", 10, read)).toBe("value 1");
  });

  it("rememberRead forgets a failed read, and a value too big to keep, so the next asks again", async () => {
    const map = new Map<string, Promise<string>>();
    await expect(
      rememberRead(map, "k", 10, async () => {
        throw new Error("GitHub answered 502");
      }),
    ).rejects.toThrow("502");
    await Promise.resolve();
    expect(await rememberRead(map, "k", 10, async () => "ok")).toBe("ok");

    const big = (n: number) => async () => "x".repeat(n);
    const small = (value: string) => value.length <= 3;
    expect(await rememberRead(map, "big", 10, big(5), small)).toBe("xxxxx");
    await Promise.resolve();
    expect(await rememberRead(map, "big", 10, big(6), small)).toBe("xxxxxx");
    expect(await rememberRead(map, "tiny", 10, big(2), small)).toBe("xx");
    expect(await rememberRead(map, "tiny", 10, big(3), small)).toBe("xx");
  });
});
