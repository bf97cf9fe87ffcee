import type { ProgressReport, ProgressThresholds, TraceFormat } from "../../schemas/trace.js";
import { ProgressDetector } from "./detector.js";
import { createParser } from "./parsers/index.js";

/**
 * One parser and one detector joined: feed records in order (`push`), then `finish`. The I/O
 * side (action/trace.ts) drives it one line at a time; tests drive it with arrays.
 */
export function createTraceAnalysis(
  format: TraceFormat,
  thresholds: Partial<ProgressThresholds> = {},
) {
  const parser = createParser(format);
  const detector = new ProgressDetector(format, thresholds);
  return {
    format,
    push(record: unknown, at: string): void {
      detector.record();
      for (const event of parser.push(record, at)) detector.push(event);
    },
    finish(): ProgressReport {
      for (const event of parser.end()) detector.push(event);
      return detector.report();
    },
  };
}

/** Analyses records already in memory (tests, small documents). */
export function analyseRecords(
  format: TraceFormat,
  records: Iterable<{ record: unknown; at: string }>,
  thresholds: Partial<ProgressThresholds> = {},
): ProgressReport {
  const analysis = createTraceAnalysis(format, thresholds);
  for (const { record, at } of records) analysis.push(record, at);
  return analysis.finish();
}
