/**
 * Tests only: the App as a real child process, with a handler that leaves a trace in a file.
 * Each job appends `start <job id> <attempt>` to AGATE_TEST_TRACE, waits AGATE_TEST_HANDLER_MS,
 * then appends `done <job id> <attempt>`. It prints `AGATE_READY <json>` when it listens.
 */
import { appendFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { agateJobs, agateRoute } from "../../app/compose.js";
import { startAgate } from "../../app/runtime/server.js";
import type { JobHandler } from "../../app/runtime/worker.js";

const trace = process.env.AGATE_TEST_TRACE;
if (!trace)
  throw new Error("AGATE_TEST_TRACE is missing: set it to the file the handler appends to");
const waitMs = Number(process.env.AGATE_TEST_HANDLER_MS ?? "0");

const traced: JobHandler = async (job) => {
  appendFileSync(trace, `start ${job.id} ${job.attempts}\n`);
  await delay(waitMs);
  appendFileSync(trace, `done ${job.id} ${job.attempts}\n`);
};

const agate = await startAgate({
  handlers: Object.fromEntries(agateJobs().kinds.map((kind) => [kind, traced])),
  route: agateRoute,
  env: process.env,
  pollMs: 50,
});
process.stdout.write(`AGATE_READY ${JSON.stringify({ url: agate.url, port: agate.port })}\n`);
process.on("SIGTERM", () => {
  void agate.close().then(() => process.exit(0));
});
