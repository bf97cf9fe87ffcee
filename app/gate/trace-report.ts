/**
 * The agent-trace reports of the evidence run, App side. They travel like the command record (an
 * artifact of the run, `agate-trace-report-attempt-<n>`, one file `trace-report.json`) and are
 * read only beside a record agate believed: the same run and the same attempt of the evidence
 * job, so they are bound to the same head and workflow as the evidence. They stay
 * agent-influenced all the same (the agent wrote the trace, and code in the job can upload an
 * artifact of this name before agate's step), so they are shown and told to the evaluator, never
 * decided on.
 */
import { unzipSync } from "fflate";
import { codeSpan } from "../../checks/markdown.js";
import type { EvidenceRunFact, RecordArtifact, TraceFact } from "../../schemas/gate.js";
import {
  TRACE_REPORT_FILE_NAME,
  type TraceReportFile,
  traceReportArtifactName,
  traceReportFileSchema,
} from "../../schemas/trace.js";
import { remember } from "../kit/bounded-map.js";

/** Twenty reports with their listed findings come nowhere near this. */
export const MAX_TRACE_ZIP_BYTES = 4 * 1024 * 1024;
const MAX_TRACE_JSON_BYTES = 16 * 1024 * 1024;
const CACHE_LIMIT = 500;

/**
 * The GitHub reads the trace needs, through the adapter: a run's trace-report artifacts (named
 * with TRACE_REPORT_ARTIFACT_PREFIX, any attempt) and an artifact's zip.
 */
export interface TraceArtifactReader {
  traceReportArtifacts(runId: number): Promise<RecordArtifact[]>;
  artifactZip(artifactId: number, maxBytes: number): Promise<Uint8Array>;
}

/** The adapter as a trace reader, when it lists trace-report artifacts; null when it does not. */
export function traceReaderOf(github: object): TraceArtifactReader | null {
  const candidate = github as Partial<TraceArtifactReader>;
  return typeof candidate.traceReportArtifacts === "function" &&
    typeof candidate.artifactZip === "function"
    ? (candidate as TraceArtifactReader)
    : null;
}

type Read = { traces: TraceReportFile | null; error: string | null };

/** What an artifact's bytes said: artifacts never change, so a read is kept. */
export class TraceReportCache {
  private readonly reads = new Map<number, Read>();

  async read(reader: TraceArtifactReader, artifactId: number): Promise<Read> {
    const known = this.reads.get(artifactId);
    if (known) return known;
    // A failed download throws: the pass retries and nothing is kept.
    const read = parseTraceZip(await reader.artifactZip(artifactId, MAX_TRACE_ZIP_BYTES));
    remember(this.reads, artifactId, read, CACHE_LIMIT);
    return read;
  }
}

/** The reports inside a trace-report artifact: exactly one file, JSON, valid by the schema. */
export function parseTraceZip(zip: Uint8Array): Read {
  const names: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        names.push(file.name);
        return file.name === TRACE_REPORT_FILE_NAME && file.originalSize <= MAX_TRACE_JSON_BYTES;
      },
    });
  } catch (error) {
    return { traces: null, error: `not a readable zip: ${codeSpan(message(error), 200)}` };
  }
  const data = files[TRACE_REPORT_FILE_NAME];
  if (names.length !== 1 || !data) {
    return {
      traces: null,
      error: `it holds ${
        names.length === 0
          ? "no files"
          : names
              .slice(0, 5)
              .map((n) => codeSpan(n, 120))
              .join(", ")
      }, not exactly one ${TRACE_REPORT_FILE_NAME} of at most ${MAX_TRACE_JSON_BYTES} bytes`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(data).toString("utf8"));
  } catch (error) {
    return {
      traces: null,
      error: `${TRACE_REPORT_FILE_NAME} is not JSON: ${codeSpan(message(error), 200)}`,
    };
  }
  const parsed = traceReportFileSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      traces: null,
      error: `${TRACE_REPORT_FILE_NAME} is not a list of trace reports: ${codeSpan(`${first?.path.join(".") || "(root)"}: ${first?.message}`, 200)}`,
    };
  }
  return { traces: parsed.data, error: null };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The trace reports of the evidence job's attempt, read only when the read plan says the record
 * beside them is believed (checks/gate/reads.ts `readsTrace`; the decision keeps them only then):
 * null when the job's attempt uploaded no trace report (no `trace` input), or nothing can list
 * them. Two artifacts of the attempt's name mean something besides agate's step uploaded one:
 * neither is read.
 */
export async function readTraceFact(
  reader: TraceArtifactReader | null,
  cache: TraceReportCache,
  run: EvidenceRunFact | null,
): Promise<TraceFact | null> {
  if (!reader || !run?.job || run.job.status !== "completed") return null;
  const attempt = run.job.run_attempt;
  const name = traceReportArtifactName(attempt);
  const named = (await reader.traceReportArtifacts(run.run.id)).filter((a) => a.name === name);
  if (named.length === 0) return null;
  const fact = { run_id: run.run.id, run_attempt: attempt, artifact: name };
  const only = named.length === 1 ? named[0] : undefined;
  if (!only) {
    return {
      ...fact,
      traces: null,
      error: `the attempt has ${named.length} artifacts named ${name}: something besides agate's step uploaded one, so none is read`,
    };
  }
  if (only.expired) return { ...fact, traces: null, error: `${name} has expired` };
  if (only.size_in_bytes > MAX_TRACE_ZIP_BYTES) {
    return {
      ...fact,
      traces: null,
      error: `${name} is ${only.size_in_bytes} bytes, more than the ${MAX_TRACE_ZIP_BYTES} trace reports can be`,
    };
  }
  try {
    return { ...fact, ...(await cache.read(reader, only.id)) };
  } catch (error) {
    // The reports never decide, so a failed download must not hold the gate: this pass goes on
    // without them (nothing is cached, so the next pass tries again).
    return {
      ...fact,
      traces: null,
      error: `could not be downloaded: ${codeSpan(message(error), 200)}`,
    };
  }
}
