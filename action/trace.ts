import { type Dirent, readdirSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import picomatch from "picomatch";
import {
  type ProgressThresholds,
  TRACE_FILES_LIMIT,
  type TraceOutcomeReport,
} from "../schemas/trace.js";
import { analyseTraceFile } from "./trace/read.js";

export {
  analyseTraceFile,
  MAX_DOCUMENT_BYTES,
  MAX_LINE_BYTES,
  TraceFileError,
  type TraceReadOptions,
} from "./trace/read.js";

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
