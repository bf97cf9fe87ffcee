import { z } from "zod";

/*
 * zod compiles a parser per object schema (new Function) the first time it parses with it, worth
 * it for a server parsing the same shapes all day, not for a process that parses its config and
 * its record once: interpreted, parsing the config and a record took 5-8 ms less CPU on Node 24
 * (docs/performance.md). The setting is read when a schema is built, so it is set before main.js
 * and the schemas it imports are evaluated. It changes how zod parses, not what it accepts.
 */
z.config({ jitless: true });
const { run } = await import("./main.js");

await run();
