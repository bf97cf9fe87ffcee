import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ISOLATION_SCRIPT } from "./isolation-script.js";

/**
 * The script's sweep on its own, without root: its functions loaded into a real bash, with the
 * user's processes played by `living` (one that never goes) and the kills made harmless. What it
 * shows: a sweep gives up once its limit in milliseconds has passed, as the launcher's caller set
 * it, not after a count of rounds whose length nobody knows.
 */
function sweepFor(limitMs: number): { status: number | null; ms: number } {
  const functions = ISOLATION_SCRIPT.slice(0, ISOLATION_SCRIPT.lastIndexOf("\nif "));
  const play = `${functions}
setpriv() { :; }
living() { echo 4242; }
kill() { :; }
start=$EPOCHREALTIME
set +e
sweep 4242 4242 "$1"
status=$?
end=$EPOCHREALTIME
echo "$status $start $end"`;
  const run = spawnSync("bash", ["-c", play, "sweep-test", String(limitMs)], { encoding: "utf8" });
  const [status, start, end] = run.stdout.trim().split(" ").map(Number);
  return { status: status ?? null, ms: ((end ?? 0) - (start ?? 0)) * 1000 };
}

describe("the isolation script's sweep", () => {
  it("gives up after its limit in milliseconds, and fails", () => {
    const short = sweepFor(300);
    expect(short.status).toBe(1);
    // The sweep reckons in whole milliseconds: its deadline can fall up to 1 ms before 300 by this
    // clock, which counts microseconds.
    expect(short.ms).toBeGreaterThanOrEqual(299);
    // Rounds of 20 ms and more: 300 of them would take 6 s and more.
    expect(short.ms).toBeLessThan(3_000);
  });
});
