import { setFlagsFromString } from "node:v8";

/**
 * Imported first by the Action's entry (index.ts) and the CLI's (cli-entry.ts), so it runs before
 * the rest of the bundle loads.
 *
 * Peak memory while a command streams its output (docs/performance.md): the digest turns each
 * 64 KiB chunk into text, and under that allocation rate V8 doubles its young generation again
 * and again up to its maximum (16 MiB semi-spaces, more on Node 24), though almost nothing in it
 * lives: 25 to 30 MiB of peak RSS are that. `--max-semi-space-size` would cap it, but only on
 * node's command line, which action.yml cannot give, and read once at start-up. The growth
 * factor is read at each growth, so set here it keeps the young generation at its initial size;
 * scavenges come more often and each finds as little alive, at the same throughput.
 */
setFlagsFromString("--semi-space-growth-factor=1");
