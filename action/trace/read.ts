import { createReadStream, lstatSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { createTraceAnalysis } from "../../checks/progress/analyse.js";
import { TraceParseError } from "../../checks/progress/events.js";
import {
  detectDocumentFormat,
  detectLineFormat,
  documentRecords,
  LINE_FORMATS,
} from "../../checks/progress/parsers/index.js";
import {
  type ProgressReport,
  type ProgressThresholds,
  TRACE_FORMATS,
  type TraceFormat,
} from "../../schemas/trace.js";

/**
 * Traces that are one JSON document (SWE-agent `.traj`, mini-swe-agent `.traj.json`, an
 * OpenHands event array or history) are parsed whole, so they are refused above this size; JSONL
 * traces (Claude Code, Codex, OpenHands JSONL) are streamed one line at a time, of any total size.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
/**
 * One JSONL record (one line) is held whole to parse it, so it may be at most this long. Real
 * Claude Code lines run to megabytes (a file-history snapshot, a pasted log, a subagent's
 * progress); this is far above any of them and still well under what one string can hold.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
/** How many records may go by before the format must be known (snapshots, summaries first). */
const DETECT_WITHIN_RECORDS = 50;

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
  const size = regularFileSize(path);
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  if (await isJsonLines(path, options.format, maxLine)) return analyseLines(path, options);
  return analyseDocument(path, size, options);
}

function regularFileSize(path: string): number {
  try {
    const stat = lstatSync(path);
    // A FIFO would block the read forever and a symlink could point anywhere on the runner.
    if (!stat.isFile()) {
      throw new TraceFileError(
        `${path} is not a regular file (a ${stat.isSymbolicLink() ? "symbolic link" : "directory or special file"}); pass the trace file itself`,
      );
    }
    return stat.size;
  } catch (error) {
    if (error instanceof TraceFileError) throw error;
    throw new TraceFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * JSONL or one document? Claude Code and Codex only write JSONL, and a `.jsonl` name says so.
 * Otherwise the first line is
 * read whole, however long it is (a Claude Code session can open with a snapshot line of
 * megabytes): one JSON value on it with more lines after is JSONL; a first line that is not JSON
 * by itself (`{` of a pretty-printed document) or the only line of the file is a document.
 */
async function isJsonLines(
  path: string,
  format: TraceFormat | undefined,
  maxLine: number,
): Promise<boolean> {
  if (format && (LINE_FORMATS as readonly string[]).includes(format)) return true;
  if (format && format !== "openhands") return false;
  if (/\.jsonl$/.test(basename(path))) return true;
  let first: string | null = null;
  for await (const [, text] of lines(path, maxLine)) {
    if (first === null) {
      if (text.trim() === "") continue;
      first = text;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return false;
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
      if (detectLineFormat(value)) return true;
      continue;
    }
    if (text.trim() !== "") return true;
  }
  return false;
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
      `not a trace agate reads: expected one of ${FORMATS_TEXT} (a SWE-agent .traj with trajectory[], a mini-swe-agent .traj.json with messages[], or OpenHands events or history); pass --format to say which`,
    );
  }
  const analysis = createTraceAnalysis(format, options.thresholds);
  for (const { record, at } of documentRecords(document, format)) analysis.push(record, at);
  return analysis.finish();
}

/** Splits a stream into lines without holding more than one line (and one chunk) in memory. */
export async function* lines(path: string, maxLineBytes: number): AsyncGenerator<[number, string]> {
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

const isDocumentName = (path: string) => /\.traj(\.json)?$|\.json$/.test(basename(path));

async function analyseLines(path: string, options: TraceReadOptions): Promise<ProgressReport> {
  let analysis: ReturnType<typeof createTraceAnalysis> | null = null;
  /** Records read before the format is known (a snapshot or summary can come first). */
  const waiting: { record: unknown; at: string }[] = [];
  for await (const [number, text] of lines(path, options.maxLineBytes ?? MAX_LINE_BYTES)) {
    if (text.trim() === "") continue;
    const at = `line ${number}`;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new TraceParseError(at, `not valid JSON: ${(error as Error).message}`);
    }
    if (analysis) {
      analysis.push(record, at);
      continue;
    }
    waiting.push({ record, at });
    const format = options.format ?? detectLineFormat(record);
    if (!format) {
      if (waiting.length < DETECT_WITHIN_RECORDS) continue;
      throw notATrace(waiting[0]?.at ?? at, path);
    }
    analysis = createTraceAnalysis(format, options.thresholds);
    for (const held of waiting.splice(0)) analysis.push(held.record, held.at);
  }
  if (!analysis) {
    if (waiting.length === 0) throw new TraceParseError("line 1", "the trace is empty");
    throw notATrace(waiting[0]?.at ?? "line 1", path);
  }
  return analysis.finish();
}

function notATrace(at: string, path: string): TraceParseError {
  return new TraceParseError(
    at,
    `not a trace agate reads: expected one of ${FORMATS_TEXT} (Claude Code session JSONL, Codex rollout JSONL, OpenHands events)${isDocumentName(path) ? "; a .json or .traj file must be one JSON document" : ""}; pass --format to say which`,
  );
}
