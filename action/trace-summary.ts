/**
 * The agent's trace in a run: read before the commands (trace.ts), reported after them (its part
 * of the job summary and its report's artifact). main.ts loads this module with import() only
 * when the `trace` input is set, and before the first command, as every module agate runs after
 * the commands (upload.ts says why): a run without a trace never parses the progress detector
 * (checks/progress, about a tenth of the Action's bundle).
 */
import { codeSpan } from "../checks/markdown.js";
import { renderProgressMarkdown } from "../checks/progress/render.js";
import type { TraceOutcome } from "./trace.js";
import { type ArtifactModule, uploadTraceReport } from "./upload.js";

export { readTraces, type TraceOutcome } from "./trace.js";

/** The summary's trace section, after the trace reports were uploaded (or why they were not). */
export async function traceSection(
  traces: TraceOutcome[],
  options: { env: NodeJS.ProcessEnv; tempDir: string; client: ArtifactModule | null },
): Promise<string> {
  const json = traces.map(({ source, report, error }) => ({ source, report, error }));
  const where = await uploadTraceReport(`${JSON.stringify(json, null, 2)}\n`, options);
  return `\n${renderTraces(traces)}\nThe trace reports are ${where}.\n`;
}

/** One part per trace, errors as what to fix. */
function renderTraces(traces: TraceOutcome[]): string {
  return traces
    .map(({ source, report, error }) =>
      report
        ? renderProgressMarkdown(report, source)
        : `### Agent trace ${codeSpan(source, 200)}: not read\n\n${codeSpan(error ?? "", 500)}. The commands' verdict does not depend on it; fix the trace input or the file to get a progress report.\n`,
    )
    .join("\n");
}
