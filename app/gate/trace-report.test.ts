import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { decideGate } from "../../checks/gate/decide.js";
import { judgedFacts } from "../../checks/gate/evidence.js";
import { readsTrace } from "../../checks/gate/reads.js";
import { renderGateSummary } from "../../checks/gate/render.js";
import { DEFAULT_PROGRESS_THRESHOLDS } from "../../checks/progress/detector.js";
import type { RecordArtifact, TraceFact } from "../../schemas/gate.js";
import { type ProgressReport, traceReportArtifactName } from "../../schemas/trace.js";
import {
  commandEvidence,
  evidenceRun,
  gateFacts,
  judgedEvaluation,
} from "../../test/support/gate-facts.js";
import { parseTraceZip, readTraceFact, TraceReportCache, traceReaderOf } from "./trace-report.js";

/** A report as the Action's detector writes it, stalled in one segment. */
function stalledReport(): ProgressReport {
  return {
    version: 1,
    format: "claude-code",
    records: 40,
    steps: 30,
    exit_status: null,
    counters: {
      new_information: 9,
      no_new_information: 21,
      milestones: 1,
      steps_since_last_milestone: 22,
      longest_without_milestone: 22,
      longest_without_new_information: 14,
      reverts: 0,
    },
    budgets: {
      model_calls: 31,
      tool_calls: 30,
      executed_tool_calls: 30,
      max_tool_calls_per_turn: 30,
      max_tool_calls_per_model_call: 1,
      turns: 1,
      input_tokens: 412_000,
      cached_input_tokens: 380_000,
      output_tokens: 5_100,
      peak_context_tokens: 21_000,
      cost_usd: null,
    },
    infrastructure_failures: [],
    infrastructure_failure_count: 0,
    findings: [
      {
        kind: "no-new-information",
        from_step: 9,
        to_step: 22,
        at: "line 19",
        why: "14 tool calls in a row brought no new information",
        excerpt: "grep -rn parse_lines src/",
      },
      {
        kind: "no-milestone",
        from_step: 9,
        to_step: 30,
        at: "line 19",
        why: "22 tool calls without a milestone after the last one: the last 73% of the run",
        excerpt: "grep ×14, cat ×8; first: grep -rn parse_lines src/",
      },
    ],
    findings_not_listed: 0,
    stalled: true,
    thresholds: DEFAULT_PROGRESS_THRESHOLDS,
  };
}

const zipOf = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])));

const reportsZip = (reports: unknown) => zipOf({ "trace-report.json": JSON.stringify(reports) });

/** A reader over fixed artifacts of run 99, counting downloads. */
function reader(artifacts: RecordArtifact[], zips: Record<number, Uint8Array>) {
  const downloads: number[] = [];
  return {
    downloads,
    traceReportArtifacts: async (runId: number) => (runId === 99 ? artifacts : []),
    artifactZip: async (id: number) => {
      downloads.push(id);
      const zip = zips[id];
      if (!zip) throw new Error(`no artifact ${id}`);
      return zip;
    },
  };
}

const artifact = (id: number, attempt = 1): RecordArtifact => ({
  id,
  name: traceReportArtifactName(attempt),
  size_in_bytes: 2_000,
  expired: false,
});

const believed = () => {
  const evidence = commandEvidence([0, 0]);
  return { run: evidenceRun(evidence.record), evidence: [evidence] };
};

describe("trace reports beside the believed record", () => {
  it("reads the report of the evidence job's own attempt", async () => {
    const traces = [{ source: "trace.jsonl", report: stalledReport(), error: null }];
    const r = reader([artifact(801)], { 801: reportsZip(traces) });
    const { run } = believed();
    const fact = await readTraceFact(r, new TraceReportCache(), run);
    expect(fact).toEqual({
      run_id: 99,
      run_attempt: 1,
      artifact: "agate-trace-report-attempt-1",
      traces,
      error: null,
    });
  });

  it("attack: a refused record's run has no trace read at all (nothing binds it to the head), and the decision keeps none", () => {
    const { run } = believed();
    expect(readsTrace(gateFacts({ evidence_run: run }))).toBe(true);
    const other = { ...run, run: { ...run.run, path: ".github/workflows/other.yml" } };
    expect(readsTrace(gateFacts({ evidence_run: other }))).toBe(false);
    const job = run.job && { ...run.job, status: "in_progress", conclusion: null };
    expect(readsTrace(gateFacts({ evidence_run: { ...run, job } }))).toBe(false);
    const shown: TraceFact = {
      run_id: 99,
      run_attempt: 1,
      artifact: traceReportArtifactName(1),
      traces: [],
      error: null,
    };
    expect(judgedFacts(gateFacts({ evidence_run: other, trace: shown })).trace).toBeNull();
    expect(judgedFacts(gateFacts({ evidence_run: run, trace: shown })).trace).toEqual(shown);
  });

  it("attack: a report named for another attempt than the job's is not read", async () => {
    const r = reader([artifact(802, 2)], { 802: reportsZip([]) });
    const { run } = believed();
    expect(await readTraceFact(r, new TraceReportCache(), run)).toBeNull();
    expect(r.downloads).toEqual([]);
  });

  it("attack: two reports of the attempt's name (one uploaded by the job's code) and neither is read", async () => {
    const r = reader([artifact(801), artifact(803)], {});
    const { run } = believed();
    const fact = await readTraceFact(r, new TraceReportCache(), run);
    expect(fact?.traces).toBeNull();
    expect(fact?.error).toMatch(/2 artifacts named agate-trace-report-attempt-1/);
    expect(r.downloads).toEqual([]);
  });

  it("a zip with another file, a file that is not JSON or not reports: an error that says which, never a throw", () => {
    expect(parseTraceZip(zipOf({ "trace-report.json": "[]", "x.txt": "" })).error).toMatch(
      /holds `trace-report.json`, `x.txt`, not exactly one trace-report.json/,
    );
    expect(parseTraceZip(zipOf({ "trace-report.json": "{" })).error).toMatch(/is not JSON/);
    expect(parseTraceZip(reportsZip([{ source: "t", report: { stalled: "yes" } }])).error).toMatch(
      /is not a list of trace reports: `0\.report\.version/,
    );
    expect(parseTraceZip(Buffer.from("not a zip")).error).toMatch(/not a readable zip/);
  });

  it("an artifact is downloaded once: the cache keeps what its bytes said", async () => {
    const r = reader([artifact(801)], { 801: reportsZip([]) });
    const cache = new TraceReportCache();
    const { run } = believed();
    await readTraceFact(r, cache, run);
    await readTraceFact(r, cache, run);
    expect(r.downloads).toEqual([801]);
  });

  it("a failed download never holds the gate: the pass goes on without the reports and tries again next time", async () => {
    const r = reader([artifact(801)], {});
    const cache = new TraceReportCache();
    const { run } = believed();
    const fact = await readTraceFact(r, cache, run);
    expect(fact?.traces).toBeNull();
    expect(fact?.error).toBe("could not be downloaded: `no artifact 801`");
    await readTraceFact(r, cache, run);
    expect(r.downloads).toEqual([801, 801]);
  });

  it("an adapter without the listing reads no trace", () => {
    expect(traceReaderOf({})).toBeNull();
    const r = reader([], {});
    expect(traceReaderOf(r)).toBe(r);
  });
});

describe("the trace in the agate summary", () => {
  const trace = (report: ProgressReport): TraceFact => ({
    run_id: 99,
    run_attempt: 1,
    artifact: "agate-trace-report-attempt-1",
    traces: [{ source: "trace.jsonl", report, error: null }],
    error: null,
  });

  it("shows stalled segments with their step ranges and why, and the budgets used", () => {
    const evidence = commandEvidence([0, 0]);
    const facts = gateFacts({
      evidence_run: evidenceRun(evidence.record),
      evidence: [evidence],
      evaluation: judgedEvaluation({ complete: true, score: 0.9, missing: [] }),
      trace: trace(stalledReport()),
    });
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary).toContain("### Agent trace\n");
    expect(summary).toContain("1 trace from run 99, attempt 1");
    expect(summary).toContain("1 busy without progress");
    expect(summary).toContain(
      "| 9–22 (`line 19`) | nothing new learned | evidence | `14 tool calls in a row brought no new information` | `grep -rn parse_lines src/` |",
    );
    expect(summary).toContain("| 9–30 (`line 19`) | no progress (no milestone) | the stall |");
    expect(summary).toContain("busy without progress: no milestone in steps 9–30");
    expect(summary).toContain("billed input tokens 412000");
  });

  it("a stall never decides: accepted stays accepted, rejected stays rejected, and no trace changes nothing", () => {
    const passing = commandEvidence([0, 0]);
    const base = {
      evidence_run: evidenceRun(passing.record),
      evidence: [passing],
      evaluation: judgedEvaluation({ complete: true, score: 0.9, missing: [] }),
    };
    const without = decideGate(gateFacts(base));
    const stalled = decideGate(gateFacts({ ...base, trace: trace(stalledReport()) }));
    expect(stalled).toEqual(without);
    expect(stalled.state).toBe("accepted");
    const failing = gateFacts({ evidence: [commandEvidence([1, 0])] });
    const clean = { ...stalledReport(), stalled: false, findings: [] };
    expect(decideGate({ ...failing, trace: trace(clean) })).toEqual(decideGate(failing));
  });

  it("attack: what the trace says (source, why, where) is shown in code spans, never as Markdown or a mention", () => {
    const report = stalledReport();
    const [finding] = report.findings;
    if (!finding) throw new Error("one finding");
    finding.why = "@octocat please merge | ### Accepted <img src=x>";
    finding.at = "line 1\n### Accepted";
    const facts = gateFacts({
      trace: {
        ...trace(report),
        traces: [{ source: "@admins/**x**.jsonl", report, error: null }],
      },
    });
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary).not.toMatch(/^### Accepted/m);
    expect(summary).toContain("`@octocat please merge \\| ### Accepted <img src=x>`");
    expect(summary).toContain("#### Agent trace `@admins/**x**.jsonl`");
  });

  it("attack: a report that says stalled without the finding it rests on says so plainly, never 'steps undefined'", () => {
    // The report is read back from an artifact the agent's job can upload itself.
    const report = stalledReport();
    report.findings = report.findings.filter((f) => f.kind !== "no-milestone");
    const facts = gateFacts({ trace: trace(report) });
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary).toContain("#### Agent trace `trace.jsonl`: busy without progress\n");
    expect(summary).not.toContain("undefined");
  });

  it("an unreadable report is said once, with why, and the gate does not depend on it", () => {
    const facts = gateFacts({
      trace: {
        run_id: 99,
        run_attempt: 1,
        artifact: "agate-trace-report-attempt-1",
        traces: null,
        error: "trace-report.json is not JSON",
      },
    });
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary).toContain("agate could not read them: `trace-report.json is not JSON`");
  });
});
