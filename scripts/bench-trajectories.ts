/**
 * npm run bench:trajectories: runs the progress detector over every trajectory under
 * AGATE_TRAJECTORIES (default ../shared/trajectories beside the repository, else
 * /work/shared/trajectories) and prints the separation it reaches: per labelled source and split,
 * the flag rate on resolved and on unresolved runs, their ratio, the precision of flags on runs
 * whose SOURCES.md entry carries a judgement (stall or not), and where in the run the flag fell.
 * A run counts as flagged when its report's verdict says stalled (a stretch without a milestone,
 * checks/progress/verdict.ts); the loops it shows as evidence (identical calls, cycles, restores)
 * are counted apart. Not part of npm test. AGATE_BENCH_VERBOSE=1 prints every run, not only the
 * flagged or looping ones.
 *
 * Held-out split: the Gemini 3 Pro runs are split by the first hex digit of sha256(instance id),
 * even: "tune" (thresholds were chosen on these), odd: "held-out" (never used to choose
 * anything). Every other source is held out whole. The sweep of steps_without_milestone is
 * printed for the tune split only.
 *
 * AGATE_BENCH_STRESS_MB=N also writes an N-megabyte synthetic Claude Code JSONL to a temp dir and
 * reads it, to measure the reader's memory on a large trace.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { analyseTraceFile } from "../action/trace.js";
import { TraceParseError } from "../checks/progress/events.js";
import { findingRole } from "../checks/progress/verdict.js";
import type { ProgressReport, ProgressThresholds } from "../schemas/trace.js";
import { stressTrace } from "./bench-trajectories-stress.js";

// An explicit AGATE_TRAJECTORIES is the only place looked at; otherwise the shared folder beside
// the repository, then the workplace's.
const candidates = process.env.AGATE_TRAJECTORIES
  ? [process.env.AGATE_TRAJECTORIES]
  : [
      resolve(import.meta.dirname, "..", "..", "shared", "trajectories"),
      "/work/shared/trajectories",
    ];
const root = candidates.find((p) => existsSync(p));
if (!root) {
  console.log(
    `bench:trajectories: no trajectories at ${candidates.join(" or ")}; set AGATE_TRAJECTORIES to a folder of trajectories (see docs/progress.md). Nothing to measure.`,
  );
  process.exit(0);
}

type Label = "resolved" | "unresolved";
const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => join(e.parentPath, e.name))
  .sort();

/** Outcome labels shipped beside the trajectories: results_summary.csv, run-level JSON, report.json. */
function readLabels(): Map<string, Label> {
  const labels = new Map<string, Label>();
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
          for (const [id, value] of Object.entries(
            json as Record<string, { resolved?: boolean }>,
          )) {
            if (typeof value?.resolved === "boolean")
              labels.set(id, value.resolved ? "resolved" : "unresolved");
          }
        }
      }
    } catch {
      // A label file that does not parse gives no labels.
    }
  }
  return labels;
}

/**
 * Judgements SOURCES.md carries in its "why" column: a stall or loop described, or a run named
 * as a false-positive guard or "not a stall". Only these runs enter the precision figure.
 */
function readJudgements(): Map<string, boolean> {
  const judged = new Map<string, boolean>();
  const sources = join(root as string, "SOURCES.md");
  if (!existsSync(sources)) return judged;
  for (const line of readFileSync(sources, "utf8").split("\n")) {
    const id = /([\w.-]+__[\w.-]+?)(?:\.traj(?:\.json)?)?\s*\|/.exec(line)?.[1];
    if (!id) continue;
    if (/false-positive guard|not a stall|clean success|infrastructure failure/i.test(line))
      judged.set(id, false);
    else if (/\bstall\b|micro-loop|busy without progress/i.test(line)) judged.set(id, true);
  }
  return judged;
}

const labels = readLabels();
const judgements = readJudgements();
const instanceOf = (file: string) => basename(file).replace(/\.traj(\.json)?$|\.jsonl?$/, "");
const GEMINI = "gruckion-mini-swe-agent";

function groupOf(rel: string, id: string): string {
  const source = rel.split("/")[0] ?? rel;
  if (source !== GEMINI) return `${source} (held out)`;
  const digit = Number.parseInt(createHash("sha256").update(id).digest("hex")[0] as string, 16);
  return `${source} ${digit % 2 === 0 ? "tune" : "held-out"}`;
}

interface Run {
  rel: string;
  id: string;
  group: string;
  label: Label | null;
  judged: boolean | null;
  report: ProgressReport;
}

async function runAll(thresholds: Partial<ProgressThresholds>): Promise<{
  runs: Run[];
  steps: number;
  seconds: number;
  skipped: string[];
}> {
  const runs: Run[] = [];
  const skipped: string[] = [];
  let steps = 0;
  let seconds = 0;
  for (const file of files) {
    if (!/\.(traj|json|jsonl)$/.test(file)) continue;
    const rel = relative(root as string, file);
    const started = performance.now();
    let report: ProgressReport;
    try {
      report = await analyseTraceFile(file, { thresholds });
    } catch (error) {
      // Label and summary files are JSON too: anything that is not a trace is skipped.
      if (error instanceof TraceParseError && /not a trace agate reads/.test(error.message)) {
        skipped.push(rel);
        continue;
      }
      console.log(`${rel}: ERROR ${(error as Error).message}`);
      continue;
    }
    seconds += (performance.now() - started) / 1000;
    steps += report.steps;
    const id = instanceOf(file);
    runs.push({
      rel,
      id,
      group: groupOf(rel, id),
      label: labels.get(id) ?? null,
      judged: judgements.get(id) ?? null,
      report,
    });
  }
  return { runs, steps, seconds, skipped };
}

// A run is flagged by the report's own verdict (checks/progress/verdict.ts): loops are shown as
// evidence and counted apart, so the figures measure what the summary and the evaluator are told.
const stallFindings = (r: ProgressReport) =>
  r.findings.filter((f) => findingRole(f.kind) === "stall");
const evidenceFindings = (r: ProgressReport) =>
  r.findings.filter((f) => findingRole(f.kind) === "evidence");
const flagged = (run: Run) => run.report.stalled;
const looped = (run: Run) => evidenceFindings(run.report).length > 0;
const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
};

function separation(runs: Run[]): string {
  const resolved = runs.filter((r) => r.label === "resolved");
  const unresolved = runs.filter((r) => r.label === "unresolved");
  const fr = resolved.filter(flagged).length;
  const fu = unresolved.filter(flagged).length;
  const rateR = resolved.length ? fr / resolved.length : 0;
  const rateU = unresolved.length ? fu / unresolved.length : 0;
  const ratio =
    rateR === 0
      ? rateU > 0
        ? "∞ (no resolved run flagged)"
        : "n/a (nothing flagged)"
      : `${(rateU / rateR).toFixed(2)}×`;
  return `resolved flagged ${fr}/${resolved.length} (${pct(fr, resolved.length)}), unresolved flagged ${fu}/${unresolved.length} (${pct(fu, unresolved.length)}), ratio ${ratio}`;
}

function describe(runs: Run[]): void {
  const groups = [...new Set(runs.map((r) => r.group))].sort();
  for (const group of groups) {
    const members = runs.filter((r) => r.group === group);
    const labelled = members.filter((r) => r.label !== null);
    console.log(`\n== ${group}: ${members.length} runs, ${labelled.length} labelled`);
    if (labelled.length > 0) {
      console.log(`  ${separation(labelled)}`);
      const loops = (label: Label) => {
        const of = labelled.filter((r) => r.label === label);
        const hit = of.filter(looped).length;
        return `${hit}/${of.length} (${pct(hit, of.length)})`;
      };
      console.log(
        `  loops shown as evidence (not the verdict): resolved ${loops("resolved")}, unresolved ${loops("unresolved")}`,
      );
    }
    const judged = members.filter((r) => r.judged !== null);
    if (judged.length > 0) {
      const flags = judged.filter(flagged);
      const right = flags.filter((r) => r.judged === true).length;
      const stalls = judged.filter((r) => r.judged === true).length;
      console.log(
        `  judged in SOURCES.md: ${judged.length} runs (${stalls} described as stalls or loops); flags on them ${flags.length}, right ${right} (precision ${pct(right, flags.length)}), stalls found ${right}/${stalls}`,
      );
    }
    const shares = members
      .filter(flagged)
      .map(
        (r) =>
          Math.min(...stallFindings(r.report).map((f) => f.to_step)) / Math.max(1, r.report.steps),
      );
    if (shares.length > 0)
      console.log(
        `  flag raised at (first flagged segment's end / run length): median ${(100 * median(shares)).toFixed(0)}% of the run`,
      );
    for (const run of members) {
      if (!flagged(run) && !looped(run) && process.env.AGATE_BENCH_VERBOSE !== "1") continue;
      const c = run.report.counters;
      console.log(
        `  ${run.id} [${run.label ?? "no label"}${run.judged === null ? "" : run.judged ? ", judged a stall" : ", judged not a stall"}] ${flagged(run) ? "STALLED" : "not stalled"}, ${run.report.steps} steps, ${c.milestones} milestones, longest without one ${c.longest_without_milestone}, ${c.reverts} restores`,
      );
      for (const f of [...stallFindings(run.report), ...evidenceFindings(run.report)])
        console.log(
          `    ${f.kind} (${findingRole(f.kind)}) steps ${f.from_step}-${f.to_step}: ${f.why}\n      ${f.excerpt ?? ""}`,
        );
    }
  }
}

/** Seed 001's measure, per label: the longest stretch without a milestone. */
function stretches(runs: Run[], group: string): void {
  for (const label of ["resolved", "unresolved"] as const) {
    const values = runs
      .filter((r) => r.group === group && r.label === label)
      .map((r) => r.report.counters.longest_without_milestone)
      .sort((a, b) => a - b);
    if (values.length === 0) continue;
    console.log(
      `  ${label}: longest stretch without a milestone, median ${median(values)}, max ${values.at(-1)}; all: ${values.join(" ")}`,
    );
  }
}

const baseline = await runAll({});
describe(baseline.runs);

const tune = `${GEMINI} tune`;
console.log(`\n== threshold sweep on the tune split only (${tune}), steps_without_milestone:`);
stretches(baseline.runs, tune);
for (const n of [20, 25, 30, 35, 40, 45, 50, 60]) {
  const { runs } = await runAll({ steps_without_milestone: n, no_milestone_stale_share: 0 });
  console.log(
    `  ${n} (any share of stale calls): ${separation(runs.filter((r) => r.group === tune))}`,
  );
}
console.log(`\n== threshold sweep on the tune split only (${tune}), reverts:`);
for (const label of ["resolved", "unresolved"] as const) {
  const values = baseline.runs
    .filter((r) => r.group === tune && r.label === label)
    .map((r) => r.report.counters.reverts)
    .sort((a, b) => a - b);
  console.log(`  ${label}: restores per run: ${values.join(" ")}`);
}
// Restore cycles are evidence, not the verdict: the sweep shows which runs would show one.
for (const n of [2, 3, 4, 5, 6]) {
  const { runs } = await runAll({ reverts: n });
  const shown = (label: Label) => {
    const of = runs.filter((r) => r.group === tune && r.label === label);
    const hit = of.filter((r) => r.report.findings.some((f) => f.kind === "revert-cycle")).length;
    return `${hit}/${of.length}`;
  };
  console.log(
    `  ${n}: restore cycle shown on resolved ${shown("resolved")}, unresolved ${shown("unresolved")}`,
  );
}

/**
 * Other signals the report carries, each as "flag when the value reaches T": T is chosen on the
 * tune split as the lowest value above every resolved tune run (0 false alarms there), then the
 * same T is applied to the held-out runs. Input-side budgets are listed for comparison.
 */
const SIGNALS: [string, (r: ProgressReport) => number][] = [
  ["longest stretch without a milestone", (r) => r.counters.longest_without_milestone],
  ["calls after the last milestone", (r) => r.counters.steps_since_last_milestone],
  [
    "share of calls after the last milestone (%)",
    (r) => Math.round((100 * r.counters.steps_since_last_milestone) / Math.max(1, r.steps)),
  ],
  ["restores of earlier work", (r) => r.counters.reverts],
  ["longest run without new information", (r) => r.counters.longest_without_new_information],
  ["calls without new information", (r) => r.counters.no_new_information],
  ["(input side) tool calls", (r) => r.steps],
  ["(input side) billed input tokens", (r) => r.budgets.input_tokens],
];
console.log(
  `\n== other signals: threshold T set on the tune split (just above every resolved tune run), then applied to the held-out runs`,
);
for (const [name, value] of SIGNALS) {
  const tuneRuns = baseline.runs.filter((r) => r.group === tune && r.label !== null);
  const heldRuns = baseline.runs.filter((r) => r.group !== tune && r.label !== null);
  const limit =
    Math.max(...tuneRuns.filter((r) => r.label === "resolved").map((r) => value(r.report))) + 1;
  const rate = (runs: Run[], label: Label) => {
    const of = runs.filter((r) => r.label === label);
    const hit = of.filter((r) => value(r.report) >= limit).length;
    return `${hit}/${of.length} (${pct(hit, of.length)})`;
  };
  console.log(
    `  ${name}: T=${limit}; tune: resolved ${rate(tuneRuns, "resolved")}, unresolved ${rate(tuneRuns, "unresolved")}; held-out: resolved ${rate(heldRuns, "resolved")}, unresolved ${rate(heldRuns, "unresolved")}`,
  );
}

console.log("\n== totals (default thresholds)");
const all = baseline.runs.filter((r) => r.label !== null);
console.log(`all labelled runs: ${separation(all)}`);
const held = all.filter((r) => !r.group.endsWith(" tune"));
console.log(`held-out labelled runs only: ${separation(held)}`);
console.log(
  `trajectories read: ${baseline.runs.length}; other files skipped (not traces): ${baseline.skipped.length}`,
);
console.log(
  `steps: ${baseline.steps} in ${baseline.seconds.toFixed(3)} s of analysis: ${Math.round(baseline.steps / Math.max(baseline.seconds, 1e-9))} steps/s`,
);

const stressMb = Number(process.env.AGATE_BENCH_STRESS_MB ?? 0);
if (stressMb > 0) console.log(await stressTrace(stressMb));
console.log(`peak memory (RSS): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
