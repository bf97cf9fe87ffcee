/**
 * Tests only: the App as a real child process with its real jobs (app/compose.ts), against the
 * simulator named in its environment; its requests carry its pid (x-agate-test-pid). Prints
 * `AGATE_READY <json>` when it listens; SIGTERM closes it, SIGKILL is a crash.
 */
import { agateDomains } from "../../app/compose.js";
import { startAgate } from "../../app/runtime/server.js";

// Every request to GitHub names this process, so a test that holds a write (the simulator's
// fault injector) knows which replica to kill. Octokit reads globalThis.fetch at each request.
const fetchOf = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
  headers.set("x-agate-test-pid", String(process.pid));
  return fetchOf(input, { ...init, headers });
};

const agate = await startAgate({
  ...agateDomains,
  env: process.env,
  pollMs: 50,
  // The simulator has no secondary rate limits to pace writes for.
  githubThrottle: false,
});
process.stdout.write(`AGATE_READY ${JSON.stringify({ url: agate.url, port: agate.port })}\n`);
process.on("SIGTERM", () => {
  void agate.close().then(() => process.exit(0));
});
