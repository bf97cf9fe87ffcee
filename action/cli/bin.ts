import { z } from "zod";

// As the Action's entry (action/index.ts): one-shot parses run faster interpreted, and the
// setting must be made before any schema is built.
z.config({ jitless: true });
const { main } = await import("./main.js");

process.exitCode = await main(process.argv.slice(2));
