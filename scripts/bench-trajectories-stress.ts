/**
 * The stress part of bench:trajectories (AGATE_BENCH_STRESS_MB=N): writes an N-megabyte
 * synthetic Claude Code JSONL to a temp dir, reads it, and says how fast and how big.
 */
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { analyseTraceFile } from "../action/trace.js";

export async function stressTrace(megabytes: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "agate-bench-trace-"));
  const path = join(dir, "stress.jsonl");
  const out = createWriteStream(path);
  let bytes = 0;
  let i = 0;
  while (bytes < megabytes * 1024 * 1024) {
    const pair = `${JSON.stringify({ type: "assistant", uuid: `a${i}`, sessionId: "s", message: { id: `m${i}`, content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `sed -n '${i % 997},+40p' src/f${i % 313}.py` } }], usage: { input_tokens: 20, cache_read_input_tokens: 30000, output_tokens: 50 } } })}\n${JSON.stringify({ type: "user", uuid: `u${i}`, sessionId: "s", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `line ${i % 4999}\n${"x".repeat(600)}` }] } })}\n`;
    bytes += pair.length;
    i++;
    if (!out.write(pair)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  const started = performance.now();
  const report = await analyseTraceFile(path);
  const took = (performance.now() - started) / 1000;
  rmSync(dir, { recursive: true, force: true });
  return `stress: ${megabytes} MB synthetic Claude Code JSONL, ${report.steps} steps in ${took.toFixed(1)} s (${Math.round(report.steps / took)} steps/s)`;
}
