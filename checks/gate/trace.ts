/**
 * The agent-trace part of the `agate` summary: the reports the evidence run uploaded (the Action's
 * `trace` input), with stalled segments, their step ranges and why, and the budgets used. The
 * agent wrote the trace (and code in its job could have uploaded the reports), so this is shown
 * as data, every string in a code span, and never decides anything.
 */
import type { TraceFact } from "../../schemas/gate.js";
import type { ProgressReport } from "../../schemas/trace.js";
import { codeSpan, counted } from "../markdown.js";
import { renderProgressMarkdown } from "../progress/render.js";

/** Traces shown in full, and findings shown per trace: the summary has room for GitHub's limit. */
export const TRACES_SHOWN = 3;
export const FINDINGS_SHOWN = 10;

/** A report with at most FINDINGS_SHOWN findings listed; the rest counted. */
function shortened(report: ProgressReport): ProgressReport {
  if (report.findings.length <= FINDINGS_SHOWN) return report;
  return {
    ...report,
    findings: report.findings.slice(0, FINDINGS_SHOWN),
    findings_not_listed: report.findings_not_listed + report.findings.length - FINDINGS_SHOWN,
  };
}

export function traceSection(trace: TraceFact): string[] {
  const from = `run ${trace.run_id}, attempt ${trace.run_attempt}, artifact ${codeSpan(trace.artifact, 80)}`;
  if (!trace.traces) {
    return [
      "### Agent trace",
      "",
      `The evidence run uploaded trace reports (${from}), but agate could not read them: ${codeSpan(trace.error ?? "unreadable", 300)}. The gate does not depend on them.`,
      "",
    ];
  }
  const stalled = trace.traces.filter((t) => t.report?.stalled).length;
  const lines = [
    "### Agent trace",
    "",
    // What a trace is and what a stall does are defined once, in the glossary the summary links.
    `${counted(trace.traces.length, "trace")} from ${from}, as the agent reported it: ${stalled > 0 ? `${stalled} busy without progress` : "no stall found"}.`,
    "",
  ];
  for (const outcome of trace.traces.slice(0, TRACES_SHOWN)) {
    // One level below this section's heading (the job summary's renderer starts at ###).
    lines.push(
      ...(outcome.report
        ? renderProgressMarkdown(shortened(outcome.report), outcome.source)
            .split("\n")
            .map((line) => (line.startsWith("### ") ? `#${line}` : line))
        : [
            `#### Agent trace ${codeSpan(outcome.source, 200)}: not read`,
            "",
            `${codeSpan(outcome.error ?? "", 300)}.`,
            "",
          ]),
    );
  }
  const rest = trace.traces.length - TRACES_SHOWN;
  if (rest > 0) lines.push(`… and ${counted(rest, "more trace")}, in the artifact.`, "");
  return lines;
}
