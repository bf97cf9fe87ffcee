/**
 * npm run bench:trajectories: runs the progress detector over every trajectory under
 * AGATE_TRAJECTORIES (default /work/shared/trajectories) and prints, per file, the format, the
 * outcome label when the source ships one, the flagged segments and the budgets; in total, steps
 * per second, peak memory and the flags raised on resolved runs. Not part of npm test.
 *
 * AGATE_BENCH_STRESS_MB=N also writes an N-megabyte synthetic Claude Code JSONL to a temp dir and
 * reads it, to measure the streaming reader's memory on a large trace.
 */
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { analyseTraceFile } from "../action/trace.js";
import { TraceParseError } from "../checks/progress/events.js";
import type { ProgressReport } from "../schemas/trace.js";

const root = process.env.AGATE_TRAJECTORIES ?? "/work/shared/trajectories";
if (!existsSync(root)) {
  console.log(
    `bench:trajectories: ${root} does not exist; set AGATE_TRAJECTORIES to a folder of trajectories. Nothing to measure.`,
  );
  process.exit(0);
}

const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => join(e.parentPath, e.name))
  .sort();

/** Outcome labels shipped beside the trajectories: SWE-bench results_summary.csv, run-level JSON, report.json. */
const labels = new Map<string, "resolved" | "unresolved">();
for (const file of files) {
  const name = basename(file);
  try {
    if (name === "results_summary.csv") {
      for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
        const [id, resolved] = line.split(",");
        if (id && resolved) labels.set(id, resolved === "True" ? "resolved" : "unresolved");
      }
    } else if (name.endsWith(".json") && !name.includes(".traj")) {
      const json = JSON.parse(readFileSync(file, "utf8"));
      if (Array.isArray(json?.resolved_ids)) {
        for (const id of json.resolved_ids) labels.set(id, "resolved");
        for (const id of json.unresolved_ids ?? []) labels.set(id, "unresolved");
      } else if (name === "report.json" && json && typeof json === "object") {
        for (const [id, value] of Object.entries(json as Record<string, { resolved?: boolean }>)) {
          if (typeof value?.resolved === "boolean")
            labels.set(id, value.resolved ? "resolved" : "unresolved");
        }
      }
    }
  } catch {
    // A label file that does not parse gives no labels.
  }
}

const instanceOf = (file: string) => basename(file).replace(/\.traj(\.json)?$|\.jsonl?$/, "");
const STALL_KINDS = new Set([
  "identical-streak",
  "short-cycle",
  "revert-cycle",
  "no-new-information",
  "no-milestone",
]);

let steps = 0;
let seconds = 0;
let read = 0;
const skipped: string[] = [];
const resolvedFlags: string[] = [];
const resolvedMax = { noInfo: 0, noMilestone: 0, reverts: 0 };
const rows: string[] = [];

for (const file of files) {
  if (!/\.(traj|json|jsonl)$/.test(file)) continue;
  const rel = relative(root, file);
  const started = performance.now();
  let report: ProgressReport;
  try {
    report = await analyseTraceFile(file);
  } catch (error) {
    // Label and summary files are JSON too: anything that is not a trace is skipped and named.
    if (error instanceof TraceParseError && /not a trace agate reads/.test(error.message)) {
      skipped.push(rel);
      continue;
    }
    console.log(`${rel}: ERROR ${(error as Error).message}`);
    continue;
  }
  seconds += (performance.now() - started) / 1000;
  steps += report.steps;
  read++;
  const label = labels.get(instanceOf(file)) ?? "no label";
  const b = report.budgets;
  const c = report.counters;
  rows.push(
    [
      `${rel}`,
      `  format ${report.format}, outcome ${label}${report.exit_status ? ` (exit ${report.exit_status})` : ""}, ${report.steps} steps, ${c.new_information} with new information, ${c.milestones} milestones, ${c.reverts} reverts; longest without new information ${c.longest_without_new_information}, without milestone ${c.longest_without_milestone}`,
      `  budgets: ${b.model_calls} model calls, ${b.tool_calls} tool calls (${b.executed_tool_calls} executed, ≤${b.max_tool_calls_per_turn} per turn, ≤${b.max_tool_calls_per_model_call} per model call), ${b.input_tokens} billed input tokens (${b.cached_input_tokens} cached), peak context ${b.peak_context_tokens}, cost ${b.cost_usd ?? "n/a"} USD`,
      ...report.findings.map(
        (f) => `  FLAGGED ${f.kind} steps ${f.from_step}-${f.to_step} (${f.at}): ${f.why}`,
      ),
      ...(report.infrastructure_failure_count > 0
        ? [
            `  infrastructure failures (not stalls): ${report.infrastructure_failures.map((f) => `${f.kind} at ${f.at}`).join(", ")}`,
          ]
        : []),
    ].join("\n"),
  );
  if (label === "resolved") {
    for (const f of report.findings.filter((f) => STALL_KINDS.has(f.kind))) {
      resolvedFlags.push(`${rel}: ${f.kind} steps ${f.from_step}-${f.to_step}`);
    }
    resolvedMax.noInfo = Math.max(resolvedMax.noInfo, c.longest_without_new_information);
    resolvedMax.noMilestone = Math.max(resolvedMax.noMilestone, c.longest_without_milestone);
    resolvedMax.reverts = Math.max(resolvedMax.reverts, c.reverts);
  }
}

console.log(rows.join("\n\n"));
console.log("\n== totals");
console.log(`trajectories read: ${read}; other files skipped (not traces): ${skipped.length}`);
console.log(
  `steps: ${steps} in ${seconds.toFixed(3)} s of analysis: ${Math.round(steps / Math.max(seconds, 1e-9))} steps/s`,
);
console.log(
  `resolved runs: ${[...labels.values()].length > 0 ? "" : "(no labels found) "}longest stretch without new information ${resolvedMax.noInfo}, without a milestone ${resolvedMax.noMilestone}, most reverts ${resolvedMax.reverts}`,
);
console.log(
  `flags on resolved runs: ${resolvedFlags.length}${resolvedFlags.map((f) => `\n  ${f}`).join("")}`,
);

const stressMb = Number(process.env.AGATE_BENCH_STRESS_MB ?? 0);
if (stressMb > 0) {
  const dir = mkdtempSync(join(tmpdir(), "agate-bench-trace-"));
  const path = join(dir, "stress.jsonl");
  const out = createWriteStream(path);
  let bytes = 0;
  let i = 0;
  while (bytes < stressMb * 1024 * 1024) {
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
  console.log(
    `stress: ${stressMb} MB synthetic Claude Code JSONL, ${report.steps} steps in ${took.toFixed(1)} s (${Math.round(report.steps / took)} steps/s)`,
  );
}
console.log(`peak memory (RSS): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
