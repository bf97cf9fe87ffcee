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
/** Formats written only as JSONL (one record per line); OpenHands comes in both shapes. */
export const LINE_FORMATS = ["claude-code", "codex"] as const satisfies readonly TraceFormat[];

const CLAUDE_TYPES = new Set(["user", "assistant", "summary", "system"]);
/**
 * Line types only Claude Code writes. A main session opens with `file-history-snapshot` (no
 * sessionId, no uuid: `messageId` and `snapshot`), often followed by queue operations or
 * summaries, so these decide the format on their own.
 */
const CLAUDE_ONLY_TYPES = new Set([
  "file-history-snapshot",
  "queue-operation",
  "progress",
  "attachment",
  "custom-title",
  "ai-title",
  "agent-name",
  "last-prompt",
  "permission-mode",
  "pr-link",
  "worktree-state",
]);

/** The format of a JSONL trace, from its first record; null when it is none agate reads. */
export function detectLineFormat(record: unknown): TraceFormat | null {
  const line = asRecord(record);
  if (!line) return null;
  const type = str(line.type);
  if (type && CODEX_TYPES.has(type) && "payload" in line) return "codex";
  if (type && CLAUDE_ONLY_TYPES.has(type) && ("snapshot" in line || "sessionId" in line))
    return "claude-code";
  if (
    type &&
    CLAUDE_TYPES.has(type) &&
    ("sessionId" in line || "uuid" in line || "leafUuid" in line)
  )
    return "claude-code";
  if ("source" in line && ("action" in line || "observation" in line)) return "openhands";
  return null;
}

/** An OpenHands event, or an `[action, observation]` pair of the older histories. */
function isOpenHandsItem(item: unknown): boolean {
  if (Array.isArray(item)) return item.some((inner) => detectLineFormat(inner) === "openhands");
  return detectLineFormat(item) === "openhands";
}

/** The format of a trace that is one JSON document; null when it is none agate reads. */
export function detectDocumentFormat(document: unknown): TraceFormat | null {
  if (Array.isArray(document))
    return document.length === 0 || isOpenHandsItem(document[0]) ? "openhands" : null;
  const doc = asRecord(document);
  if (!doc) return null;
  if (Array.isArray(doc.trajectory)) return "swe-agent";
  if (
    Array.isArray(doc.messages) &&
    (str(doc.trajectory_format)?.startsWith("mini-swe-agent") ?? "info" in doc)
  )
    return "mini-swe-agent";
  // An OpenHands evaluation record or saved session: `history` holds the events.
  if (Array.isArray(doc.history) && (doc.history.length === 0 || isOpenHandsItem(doc.history[0])))
    return "openhands";
  return null;
}

/** OpenHands events in order, whether listed one by one or as `[action, observation]` pairs. */
function* openHandsEvents(
  list: unknown[],
  key: string,
): Generator<{ record: unknown; at: string }> {
  for (const [i, item] of list.entries()) {
    if (Array.isArray(item)) {
      for (const [j, inner] of item.entries()) yield { record: inner, at: `${key}[${i}][${j}]` };
    } else yield { record: item, at: `${key}[${i}]` };
  }
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
    if (Array.isArray(document)) {
      yield* openHandsEvents(document, "event ");
      return;
    }
    const history = asRecord(document)?.history;
    if (!Array.isArray(history))
      throw new TraceParseError("document", "expected a JSON array of events or a history array");
    yield* openHandsEvents(history, "history");
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
