import { describe, expect, it } from "vitest";
import { GroupCommit, type Outcome } from "./group-commit.js";

/** A flush the test commits by hand: each call waits until the test says how it went. */
function manualFlush() {
  const calls: { works: readonly string[]; commit: () => void; fail: (error: Error) => void }[] =
    [];
  const flush = (works: readonly string[]) =>
    new Promise<Outcome<string>[]>((resolve, reject) => {
      calls.push({
        works,
        commit: () =>
          resolve(
            works.map((work) =>
              work.startsWith("bad")
                ? { ok: false, error: new Error(`${work} refused`) }
                : { ok: true, value: `${work} stored` },
            ),
          ),
        fail: reject,
      });
    });
  return { calls, flush };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("group commit", () => {
  it("puts what arrives in one turn in one transaction, and answers only once it committed", async () => {
    const { calls, flush } = manualFlush();
    const group = new GroupCommit(flush);
    const answered: string[] = [];
    const all = ["a", "bad-b", "c"].map((work) =>
      group.submit(work).then(
        (value) => answered.push(value),
        (error: Error) => answered.push(error.message),
      ),
    );
    await turn();
    expect(calls.map((call) => call.works)).toEqual([["a", "bad-b", "c"]]);
    await turn();
    expect(answered).toEqual([]);
    calls[0]?.commit();
    await Promise.all(all);
    expect(answered).toEqual(["a stored", "bad-b refused", "c stored"]);
  });

  it("starts no more transactions than allowed: what arrives meanwhile waits for one to end", async () => {
    const { calls, flush } = manualFlush();
    const group = new GroupCommit(flush, { maxFlushes: 2 });
    const first = group.submit("1");
    await turn();
    const second = group.submit("2");
    await turn();
    const third = group.submit("3");
    const fourth = group.submit("4");
    await turn();
    expect(calls.map((call) => call.works)).toEqual([["1"], ["2"]]);
    calls[1]?.commit();
    await second;
    // The ended transaction's bookkeeping, then one turn for what waited to gather.
    await turn();
    await turn();
    expect(calls.map((call) => call.works)).toEqual([["1"], ["2"], ["3", "4"]]);
    calls[0]?.commit();
    calls[2]?.commit();
    expect(await Promise.all([first, third, fourth])).toEqual(["1 stored", "3 stored", "4 stored"]);
  });

  it("a transaction that fails fails its own works only", async () => {
    const { calls, flush } = manualFlush();
    const group = new GroupCommit(flush, { maxFlushes: 2 });
    const lost = group.submit("x");
    await turn();
    const kept = group.submit("y");
    await turn();
    calls[0]?.fail(new Error("COMMIT failed"));
    calls[1]?.commit();
    await expect(lost).rejects.toThrow("COMMIT failed");
    expect(await kept).toBe("y stored");
  });

  it("drain commits what was submitted and not yet started, and waits for what is in flight", async () => {
    const { calls, flush } = manualFlush();
    const group = new GroupCommit(flush);
    const inFlight = group.submit("a");
    await turn();
    const waiting = group.submit("b");
    let drained = false;
    const drain = group.drain().then(() => {
      drained = true;
    });
    calls[0]?.commit();
    await inFlight;
    await turn();
    expect(drained).toBe(false);
    calls[1]?.commit();
    await drain;
    expect(await waiting).toBe("b stored");
  });
});
