import type { ModelUsage, TraceStep } from "../../../schemas/trace.js";
import type { CallFacts, TraceEvent, TraceParser } from "../events.js";
import { asRecord, buildStep, contentHash, num, str, TraceParseError } from "../events.js";
import { infrastructureEvent, openCalls } from "./shared.js";

const TOOL_KINDS: Record<string, TraceStep["kind"]> = {
  Read: "read",
  NotebookRead: "read",
  Write: "write",
  Edit: "write",
  MultiEdit: "write",
  NotebookEdit: "write",
  Grep: "search",
  Glob: "search",
  LS: "search",
};

/** Inputs that are the model's words about the call, not the call (Bash's `description`). */
const COSMETIC_INPUT = new Set(["description"]);

function usageOf(raw: unknown): ModelUsage | null {
  const usage = asRecord(raw);
  if (!usage) return null;
  const cacheRead = num(usage.cache_read_input_tokens) ?? 0;
  const cacheWrite = num(usage.cache_creation_input_tokens) ?? 0;
  // Anthropic's input_tokens leaves the cache out; billed input is all three.
  return {
    input_tokens: (num(usage.input_tokens) ?? 0) + cacheRead + cacheWrite,
    cached_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
    output_tokens: num(usage.output_tokens) ?? 0,
    cost_usd: null,
  };
}

/** A path under the session's working directory, relative to it (Claude Code writes absolute paths). */
function withinCwd(path: string | null, cwd: string | null): string | null {
  if (path === null || !cwd) return path;
  const root = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map(
        (block) =>
          str(asRecord(block)?.text) ?? (asRecord(block)?.type === "image" ? "[image]" : ""),
      )
      .join("\n");
  }
  return "";
}

/** Before and after hashes of an Edit or Write, from the structured result Claude Code keeps. */
function writeOf(
  tool: string,
  raw: unknown,
): { before: string | null; after: string | null } | null {
  const result = asRecord(raw);
  if (!result) return null;
  const original = str(result.originalFile);
  if (tool === "Write") {
    const content = str(result.content);
    if (content === null) return null;
    return {
      before: original === null ? null : contentHash(original),
      after: contentHash(content),
    };
  }
  if (tool === "Edit" && original !== null) {
    const oldString = str(result.oldString) ?? "";
    const newString = str(result.newString) ?? "";
    const after =
      result.replaceAll === true
        ? original.split(oldString).join(newString)
        : original.replace(oldString, () => newString);
    return { before: contentHash(original), after: contentHash(after) };
  }
  return null;
}

/**
 * Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`). Assistant lines
 * carry `message.content[]` with `tool_use` blocks and `message.usage`; one API response is
 * written as several lines with the same `message.id` and the same usage, so usage is counted
 * once per id. User lines carry `tool_result` blocks (`tool_use_id`, `content`, `is_error`) and a
 * structured `toolUseResult`. Summaries, snapshots and other line types are skipped.
 */
export function createClaudeCodeParser(): TraceParser {
  let turn = 0;
  let anonymous = 0;
  const pending = openCalls<string, CallFacts & { name: string }>();

  function assistant(line: Record<string, unknown>, message: Record<string, unknown>, at: string) {
    const id = str(message.id) ?? `line-${at}-${anonymous++}`;
    const content = Array.isArray(message.content) ? message.content : [];
    if (line.isApiErrorMessage === true) {
      return infrastructureEvent(resultText(content), at, "server-error");
    }
    const events: TraceEvent[] = [{ type: "model-call", id, usage: usageOf(message.usage) }];
    for (const raw of content) {
      const block = asRecord(raw);
      if (block?.type !== "tool_use") continue;
      const toolId = str(block.id);
      const name = str(block.name);
      if (!toolId || !name) throw new TraceParseError(at, "a tool_use block has no id or name");
      const input = asRecord(block.input) ?? {};
      const args = Object.fromEntries(
        Object.entries(input).filter(([k]) => !COSMETIC_INPUT.has(k)),
      );
      pending.add(toolId, {
        name,
        at,
        tool: name,
        args,
        command: name === "Bash" ? (str(input.command) ?? "") : null,
        kind: TOOL_KINDS[name] ?? (name === "Bash" ? undefined : "other"),
        path: withinCwd(
          str(input.file_path) ?? str(input.notebook_path) ?? str(input.path),
          str(line.cwd),
        ),
        model_call: id,
        turn: Math.max(turn, 1),
        time: str(line.timestamp),
      });
    }
    return events;
  }

  function user(line: Record<string, unknown>, message: Record<string, unknown>): TraceEvent[] {
    const content = message.content;
    const blocks = Array.isArray(content) ? content.map(asRecord) : [];
    const results = blocks.filter((b) => b?.type === "tool_result");
    if (results.length === 0) {
      // A person's prompt starts a turn; injected context (isMeta) and compaction summaries do not.
      if (line.isMeta === true || line.isCompactSummary === true) return [];
      turn++;
      return [{ type: "turn" }];
    }
    const events: TraceEvent[] = [];
    for (const block of results) {
      const call = pending.take(str(block?.tool_use_id));
      if (!call) continue;
      const raw = resultText(block?.content);
      const isError = block?.is_error === true;
      const code = /^Exit code (\d+)\n?/.exec(raw);
      // Claude Code's own "Exit code N" header is the exit code, not output.
      const text = code ? raw.slice(code[0].length) : raw;
      const exit = call.name === "Bash" ? (code ? Number(code[1]) : isError ? 1 : 0) : null;
      events.push({
        type: "step",
        step: buildStep(call, {
          text,
          exit_code: exit,
          error: isError,
          write: isError ? null : writeOf(call.name, line.toolUseResult),
        }),
      });
    }
    return events;
  }

  return {
    format: "claude-code",
    push(record, at) {
      const line = asRecord(record);
      const type = str(line?.type);
      if (!line || !type) throw new TraceParseError(at, "not a Claude Code session line (no type)");
      const message = asRecord(line.message);
      if (type === "assistant") {
        if (!message) throw new TraceParseError(at, "an assistant line without a message");
        return assistant(line, message, at);
      }
      if (type === "user") {
        if (!message) throw new TraceParseError(at, "a user line without a message");
        return user(line, message);
      }
      return [];
    },
    end: () => pending.end(),
  };
}
