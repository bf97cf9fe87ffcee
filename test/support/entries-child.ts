/**
 * Tests only: the App as a real child process with its real job handlers (the gate's table, which
 * holds the entries' too), against the simulator named in its environment. Prints
 * `AGATE_READY <json>` when it listens; SIGTERM closes it, SIGKILL is a crash.
 */
import { gateJobHandlers } from "../../app/gate/job-handlers.js";
import { startAgate } from "../../app/runtime/server.js";

const agate = await startAgate({
  handlers: gateJobHandlers,
  env: process.env,
  pollMs: 50,
  // The simulator has no secondary rate limits to pace writes for.
  githubThrottle: false,
});
process.stdout.write(`AGATE_READY ${JSON.stringify({ url: agate.url, port: agate.port })}\n`);
process.on("SIGTERM", () => {
  void agate.close().then(() => process.exit(0));
});
