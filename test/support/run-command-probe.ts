/**
 * Runs one command through runCommand in a fresh process and prints the result with the
 * process's peak RSS, so tests and benchmarks can bound memory without the test runner's own.
 * Usage: node --import tsx test/support/run-command-probe.ts '<shell command>' [timeoutMs]
 */
import { runCommand } from "../../action/run-command.js";

const [run = "true", timeout = "600000"] = process.argv.slice(2);
const result = await runCommand({
  name: "probe",
  run,
  timeoutMs: Number(timeout),
  cwd: process.cwd(),
  env: process.env,
});
const { tail, ...output } = result.output;
console.log(
  JSON.stringify({
    ...result,
    output: { ...output, tail_length: tail.length, tail_end: tail.slice(-200) },
    max_rss_bytes: process.resourceUsage().maxRSS * 1024,
  }),
);
