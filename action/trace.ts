import {
  createReadStream,
  type Dirent,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import picomatch from "picomatch";
import { createTraceAnalysis } from "../checks/progress/analyse.js";
import { TraceParseError } from "../checks/progress/events.js";
import {
  detectDocumentFormat,
  detectLineFormat,
  documentRecords,
} from "../checks/progress/parsers/index.js";
import {
  type ProgressReport,
  type ProgressThresholds,
  TRACE_FILES_LIMIT,
  TRACE_FORMATS,
  type TraceFormat,
  type TraceOutcomeReport,
} from "../schemas/trace.js";

/**
 * Traces that are one JSON document (SWE-agent `.traj`, mini-swe-agent `.traj.json`, an
 * OpenHands event array) are parsed whole, so they are refused above this size; JSONL traces
 * (Claude Code, Codex, OpenHands JSONL) are streamed one line at a time, of any total size.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
/** One JSONL record (one line) may be at most this long. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** The file cannot be read as a trace at all (missing, not a regular file): a usage error. */
export class TraceFileError extends Error {
  override readonly name = "TraceFileError";
}

export interface TraceReadOptions {
  format?: TraceFormat;
  thresholds?: Partial<ProgressThresholds>;
  maxDocumentBytes?: number;
  maxLineBytes?: number;
}

const FORMATS_TEXT = TRACE_FORMATS.join(", ");

/**
 * Reads a trace file and returns its progress report. Throws TraceFileError when the file is
 * not there or not a regular file, TraceParseError (with the line or element) when its content
 * is malformed or in no format agate reads.
 */
export async function analyseTraceFile(
  path: string,
  options: TraceReadOptions = {},
): Promise<ProgressReport> {
  let size: number;
  try {
    const stat = lstatSync(path);
    // A FIFO would block the read forever and a symlink could point anywhere on the runner.
    if (!stat.isFile()) {
      throw new TraceFileError(
        `${path} is not a regular file (a ${stat.isSymbolicLink() ? "symbolic link" : "directory or special file"}); pass the trace file itself`,
      );
    }
    size = stat.size;
  } catch (error) {
    if (error instanceof TraceFileError) throw error;
    throw new TraceFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const first = await firstLine(path);
  let lineFormat: TraceFormat | null = null;
  let oneValuePerLine = false;
  try {
    lineFormat = first.trim() ? detectLineFormat(JSON.parse(first)) : null;
    oneValuePerLine = true;
  } catch {
    // Not one JSON value per line: a document (pretty-printed JSON starts with a lone brace).
  }
  const documentName = /\.traj(\.json)?$|\.json$/.test(basename(path));
  if (!lineFormat && (documentName || (!oneValuePerLine && /^\s*[[{]/.test(first)))) {
    return analyseDocument(path, size, options);
  }
  return analyseLines(path, lineFormat, options);
}

async function firstLine(path: string): Promise<string> {
  const stream = createReadStream(path, { start: 0, end: 64 * 1024 - 1 });
  let text = "";
  for await (const chunk of stream) text += chunk.toString("utf8");
  const end = text.indexOf("\n");
  return end >= 0 ? text.slice(0, end) : text;
}

function analyseDocument(path: string, size: number, options: TraceReadOptions): ProgressReport {
  const limit = options.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
  if (size > limit) {
    throw new TraceParseError(
      "document",
      `${path} is one JSON document of ${size} bytes, over the ${limit}-byte limit for whole-document traces (.traj, .traj.json, OpenHands arrays); JSONL traces have no such limit`,
    );
  }
  const text = readFileSync(path, "utf8");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = position ? text.slice(0, Number(position[1])).split("\n").length : null;
    throw new TraceParseError(line ? `line ${line}` : "document", `not valid JSON: ${message}`);
  }
  const format = options.format ?? detectDocumentFormat(document);
  if (!format) {
    throw new TraceParseError(
      "document",
      `not a trace agate reads: expected one of ${FORMATS_TEXT} (a SWE-agent .traj with trajectory[], a mini-swe-agent .traj.json with messages[], or an OpenHands event array); pass --format to say which`,
    );
  }
  const analysis = createTraceAnalysis(format, options.thresholds);
  for (const { record, at } of documentRecords(document, format)) analysis.push(record, at);
  return analysis.finish();
}

/** Splits a stream into lines without holding more than one line (and one chunk) in memory. */
async function* lines(path: string, maxLineBytes: number): AsyncGenerator<[number, string]> {
  let parts: Buffer[] = [];
  let length = 0;
  let number = 0;
  for await (const chunk of createReadStream(path, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, nl));
      number++;
      yield [number, Buffer.concat(parts).toString("utf8")];
      parts = [];
      length = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      length += chunk.length - start;
      if (length > maxLineBytes) {
        throw new TraceParseError(
          `line ${number + 1}`,
          `longer than ${maxLineBytes} bytes; a JSONL trace holds one record per line`,
        );
      }
    }
  }
  if (length > 0) yield [number + 1, Buffer.concat(parts).toString("utf8")];
}

async function analyseLines(
  path: string,
  detected: TraceFormat | null,
  options: TraceReadOptions,
): Promise<ProgressReport> {
  let analysis: ReturnType<typeof createTraceAnalysis> | null = null;
  for await (const [number, text] of lines(path, options.maxLineBytes ?? MAX_LINE_BYTES)) {
    if (text.trim() === "") continue;
    const at = `line ${number}`;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new TraceParseError(at, `not valid JSON: ${(error as Error).message}`);
    }
    if (!analysis) {
      const format = options.format ?? detected ?? detectLineFormat(record);
      if (!format) {
        throw new TraceParseError(
          at,
          `not a trace agate reads: expected one of ${FORMATS_TEXT} (Claude Code session JSONL, Codex rollout JSONL, OpenHands events); pass --format to say which`,
        );
      }
      analysis = createTraceAnalysis(format, options.thresholds);
    }
    analysis.push(record, at);
  }
  if (!analysis) throw new TraceParseError("line 1", "the trace is empty");
  return analysis.finish();
}

/** At most this many trace files are read for one `trace` input. */
export const MAX_TRACE_FILES = TRACE_FILES_LIMIT;

/**
 * The files a `trace` input names under `cwd`: a path, or a glob (picomatch) matched against the
 * regular files below its static base. readTraces reads only those with no symbolic link on
 * their path.
 */
export function resolveTraceFiles(cwd: string, pattern: string): string[] {
  const scan = picomatch.scan(pattern);
  if (!scan.isGlob) return [resolve(cwd, pattern)];
  const base = resolve(cwd, scan.base || ".");
  const match = picomatch(scan.glob, { dot: true });
  const found: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(base, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (match(relative(base, path))) found.push(path);
  }
  return found.sort().slice(0, MAX_TRACE_FILES);
}

/**
 * No part of the file's path is a symbolic link. The trace and the folders around it may be the
 * agent's (the work tree, $RUNNER_TEMP): a link to /proc/self/environ or a runner file must not be
 * read, since a parse error quotes what it read into the job summary. The path itself is the
 * workflow's, which the base branch owns. (A missing file passes here; reading it reports it.)
 */
function noLinkOnPath(cwd: string, file: string): boolean {
  const within = relative(cwd, file);
  const outside = within.startsWith("..") || isAbsolute(within);
  const lexical = outside ? file : resolve(realpathSync(cwd), within);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    return true;
  }
  return real === lexical;
}

/** One trace's outcome, as `trace-report.json` holds it (schemas/trace.ts, traceOutcomeSchema). */
export type TraceOutcome = TraceOutcomeReport;

/**
 * Reads every trace a `trace` input names; a bad trace is an outcome with its error, never a
 * throw, so it cannot change the commands' verdict.
 */
export async function readTraces(
  cwd: string,
  pattern: string,
  thresholds: Partial<ProgressThresholds> = {},
): Promise<TraceOutcome[]> {
  const files = resolveTraceFiles(cwd, pattern);
  if (files.length === 0) {
    return [{ source: pattern, report: null, error: `no file matches ${pattern} under ${cwd}` }];
  }
  const outcomes: TraceOutcome[] = [];
  for (const file of files) {
    const inside = relative(cwd, file);
    const source = inside && !inside.startsWith("..") ? inside : file;
    if (!noLinkOnPath(cwd, file)) {
      outcomes.push({
        source,
        report: null,
        error: `${source} is reached through a symbolic link: agate reads a trace only at its own path, never through a link`,
      });
      continue;
    }
    try {
      outcomes.push({ source, report: await analyseTraceFile(file, { thresholds }), error: null });
    } catch (error) {
      outcomes.push({ source, report: null, error: (error as Error).message });
    }
  }
  return outcomes;
}
