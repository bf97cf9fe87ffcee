import { setFlagsFromString } from "node:v8";

let kept = false;

/**
 * Called before a command's output streams in (run-command.ts), not at start-up: the bundle's
 * load, which keeps most of what it allocates, runs faster with the young generation free to
 * grow.
 *
 * Peak memory while a command streams its output (docs/performance.md): the digest turns each
 * 64 KiB chunk into text, and under that allocation rate V8 doubles its young generation again
 * and again up to its maximum (16 MiB semi-spaces, more on Node 24), though almost nothing in it
 * lives: 10 to 20 MiB of peak RSS were that. `--max-semi-space-size` would cap it, but only on
 * node's command line, which action.yml cannot give, and it is read once at start-up. The growth
 * factor is read at each growth, so set here it keeps the young generation at the size it has;
 * scavenges come more often and each finds as little alive, at the same throughput.
 */
export function keepYoungGenerationSmall(): void {
  if (kept) return;
  kept = true;
  setFlagsFromString("--semi-space-growth-factor=1");
}
