import { setFlagsFromString } from "node:v8";

let kept = false;

/**
 * Called before a command's output streams in (run-command.ts), not at start-up: the bundle's
 * load, which keeps most of what it allocates, runs faster with the young generation free to
 * grow, and what runs before the commands is compiled as V8 sees fit.
 *
 * Peak memory while a command streams its output (docs/performance.md). V8 reads both flags
 * below when it next needs them, so set at run time they hold (action.yml cannot give node
 * command-line flags):
 *
 * - `--semi-space-growth-factor=1`: the digest turns each 64 KiB chunk into text, and under that
 *   allocation rate V8 doubles its young generation again and again up to its maximum (16 MiB
 *   semi-spaces, more on Node 24), though almost nothing in it lives: 10 to 20 MiB of peak RSS
 *   were that. `--max-semi-space-size` would cap it, but it is read once at start-up. The growth
 *   factor is read at each growth: the young generation keeps the size it has; scavenges come
 *   more often and each finds as little alive, at the same throughput.
 * - `--no-opt`: no TurboFan from here on. A long stream makes the digest's functions hot, and
 *   TurboFan compiling them touched 7-8 MiB more of node's own executable (its code pages count
 *   in the process's RSS like any other memory). Maglev, V8's middle tier, still compiles them:
 *   1 GiB streamed as fast as before.
 *
 * Both hold until the process exits (the snapshot, the record and the upload after the commands
 * run without TurboFan too: they are short, and native hashing does their heavy part).
 */
export function keepStreamingMemorySmall(): void {
  if (kept) return;
  kept = true;
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--no-opt");
}
