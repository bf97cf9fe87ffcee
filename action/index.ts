import { earlyGitFromEnv } from "./early-git.js";

/*
 * The git agate runs before the first command starts here, before zod, yaml and the rest of the
 * bundle are imported: it needs none of them, so its processes run on another core while the
 * bundle is parsed (early-git.ts says what keeps it to the same rules).
 */
const early = earlyGitFromEnv(process.env);

/*
 * An import parses and runs its modules without turning node's event loop, so the early git's
 * next process (each needs the one before) would wait for the whole bundle. The bundle is taken
 * in parts instead, and between parts the loop turns once: whatever git finished meanwhile is
 * handed its successor. (A turn runs what is ready; it never waits.)
 */
const turn = () => new Promise((done) => setImmediate(done));

/*
 * zod compiles a parser per object schema (new Function) the first time it parses with it, worth
 * it for a server parsing the same shapes all day, not for a process that parses its config and
 * its record once: interpreted, parsing the config and a record took 5-8 ms less CPU on Node 24
 * (docs/performance.md). The setting is read when a schema is built, so it is set before main.js
 * and the schemas it imports are evaluated. It changes how zod parses, not what it accepts.
 */
const { z } = await import("zod");
z.config({ jitless: true });
await turn();
await import("yaml");
await turn();
await import("../schemas/config.js");
await turn();
const { run } = await import("./main.js");

await run(early);
