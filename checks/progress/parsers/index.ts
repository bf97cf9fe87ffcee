import type { TraceFormat } from "../../../schemas/trace.js";
import { asRecord, str, TraceParseError, type TraceParser } from "../events.js";
import { createClaudeCodeParser } from "./claude-code.js";
import { createCodexParser } from "./codex.js";
import { createMiniSweAgentParser } from "./mini-swe-agent.js";
import { createOpenHandsParser } from "./openhands.js";
import { createSweAgentParser } from "./swe-agent.js";

export function createParser(format: TraceFormat): TraceParser {
  switch (format) {
    case "claude-code":
      return createClaudeCodeParser();
    case "codex":
      return createCodexParser();
    case "openhands":
      return createOpenHandsParser();
    case "swe-agent":
      return createSweAgentParser();
    default:
      return createMiniSweAgentParser();
  }
}

const CODEX_TYPES = new Set([
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "compacted",
]);
const CLAUDE_TYPES = new Set(["user", "assistant", "summary", "system", "file-history-snapshot"]);

/** The format of a JSONL trace, from its first record; null when it is none agate reads. */
export function detectLineFormat(record: unknown): TraceFormat | null {
  const line = asRecord(record);
  if (!line) return null;
  const type = str(line.type);
  if (type && CODEX_TYPES.has(type) && "payload" in line) return "codex";
  if (
    type &&
    CLAUDE_TYPES.has(type) &&
    ("sessionId" in line || "uuid" in line || "leafUuid" in line)
  )
    return "claude-code";
  if ("source" in line && ("action" in line || "observation" in line)) return "openhands";
  return null;
}

/** The format of a trace that is one JSON document; null when it is none agate reads. */
export function detectDocumentFormat(document: unknown): TraceFormat | null {
  if (Array.isArray(document))
    return document.length === 0
      ? "openhands"
      : detectLineFormat(document[0]) === "openhands"
        ? "openhands"
        : null;
  const doc = asRecord(document);
  if (!doc) return null;
  if (Array.isArray(doc.trajectory)) return "swe-agent";
  if (
    Array.isArray(doc.messages) &&
    (str(doc.trajectory_format)?.startsWith("mini-swe-agent") ?? "info" in doc)
  )
    return "mini-swe-agent";
  return null;
}

/**
 * The records of a one-document trace, in order, each with where it sits; the `info` of
 * SWE-agent and mini-swe-agent comes last as `{ __info }`.
 */
export function* documentRecords(
  document: unknown,
  format: TraceFormat,
): Generator<{ record: unknown; at: string }> {
  if (format === "openhands") {
    if (!Array.isArray(document))
      throw new TraceParseError("document", "expected a JSON array of events");
    for (const [i, event] of document.entries()) yield { record: event, at: `event [${i}]` };
    return;
  }
  const doc = asRecord(document);
  const key =
    format === "swe-agent" ? "trajectory" : format === "mini-swe-agent" ? "messages" : null;
  const list = key ? doc?.[key] : null;
  if (!doc || !key || !Array.isArray(list)) {
    throw new TraceParseError(
      "document",
      `expected an object with a ${key ?? "records"} array (${format})`,
    );
  }
  for (const [i, record] of list.entries()) yield { record, at: `${key}[${i}]` };
  yield { record: { __info: doc.info ?? null }, at: "info" };
}
