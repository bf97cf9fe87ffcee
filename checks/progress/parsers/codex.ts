import type { ModelUsage } from "../../../schemas/trace.js";
import type { TraceEvent, TraceParser } from "../events.js";
import { asRecord, buildStep, num, str, TraceParseError } from "../events.js";
import { infrastructureEvent, jsonOrText, openCalls } from "./shared.js";

function usageOf(raw: unknown): ModelUsage | null {
  const usage = asRecord(raw);
  if (!usage) return null;
  return {
    // OpenAI's input_tokens already include the cached ones.
    input_tokens: num(usage.input_tokens) ?? 0,
    cached_input_tokens: num(usage.cached_input_tokens) ?? 0,
    cache_creation_input_tokens: 0,
    output_tokens: (num(usage.output_tokens) ?? 0) + (num(usage.reasoning_output_tokens) ?? 0),
    cost_usd: null,
  };
}

/** `["bash", "-lc", "cmd"]` is the command `cmd`; any other argv is joined. */
function commandText(raw: unknown): string | null {
  if (typeof raw === "string") return raw;
  if (!Array.isArray(raw) || !raw.every((w) => typeof w === "string")) return null;
  const argv = raw as string[];
  if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? "")) {
    return argv[2] ?? "";
  }
  return argv.join(" ");
}

/**
 * A shell result: either JSON `{"output": …, "metadata": {"exit_code", "duration_seconds"}}`
 * (older rollouts), text `Exit code: N\nWall time: …\nOutput:\n…` (shell), or exec_command's
 * `Chunk ID: …\nWall time: …\nProcess exited with code N\nOriginal token count: …\nOutput:\n…`.
 */
function parseOutput(raw: string): { text: string; exit: number | null } {
  try {
    const parsed = asRecord(JSON.parse(raw));
    if (parsed && typeof parsed.output === "string") {
      return { text: parsed.output, exit: num(asRecord(parsed.metadata)?.exit_code) };
    }
  } catch {
    // Plain text.
  }
  // `Exit code: N` (shell) or `Process exited with code N` (exec_command, with a chunk id).
  const code = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m.exec(raw);
  const body = /\nOutput:\n([\s\S]*)$/.exec(raw);
  return { text: body ? (body[1] ?? "") : raw, exit: code ? Number(code[1]) : null };
}

/**
 * Codex rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): lines
 * `{timestamp, type, payload}`. `response_item` payloads hold the calls (`function_call` with
 * JSON `arguments`, `custom_tool_call` such as apply_patch, `local_shell_call`) and their
 * `*_output` by `call_id`; `event_msg` payloads hold `token_count` (cumulative
 * `total_token_usage`: replaced, never summed), `user_message` (a turn) and errors.
 */
export function createCodexParser(): TraceParser {
  let turn = 0;
  const pending = openCalls<string>();

  function call(payload: Record<string, unknown>, at: string, time: string | null): void {
    const callId = str(payload.call_id) ?? str(payload.id);
    if (!callId) throw new TraceParseError(at, `a ${String(payload.type)} without call_id`);
    const name = str(payload.name) ?? "shell";
    const given = payload.arguments ?? payload.input ?? payload.action;
    // Unparseable arguments are compared as the text the model wrote.
    const args = payload.type === "function_call" ? jsonOrText(given) : given;
    const record = asRecord(args);
    const command =
      payload.type === "custom_tool_call"
        ? null
        : commandText(record?.command ?? record?.cmd ?? null);
    const patch = typeof args === "string" && name === "apply_patch" ? args : null;
    const patched = patch ? /\*\*\* (?:Update|Add|Delete) File: (.+)/.exec(patch)?.[1] : null;
    const { workdir: _workdir, timeout_ms: _timeout, ...kept } = record ?? {};
    pending.add(callId, {
      at,
      tool: name,
      args: record ? kept : args,
      command,
      kind: name === "apply_patch" ? "write" : command === null ? "other" : undefined,
      path: patched ?? null,
      model_call: null,
      turn: Math.max(turn, 1),
      time,
    });
  }

  function output(payload: Record<string, unknown>): TraceEvent[] {
    const found = pending.take(str(payload.call_id));
    if (!found) return [];
    const raw = str(payload.output) ?? str(asRecord(payload.output)?.content) ?? "";
    const { text, exit } = parseOutput(raw);
    const failed =
      exit !== null ? exit !== 0 : /^(error|apply_patch verification failed)/i.test(text);
    return [
      {
        type: "step",
        step: buildStep(found, { text, exit_code: exit, error: failed }),
      },
    ];
  }

  return {
    format: "codex",
    push(record, at) {
      const line = asRecord(record);
      const type = str(line?.type);
      const payload = asRecord(line?.payload);
      if (!line || !type) throw new TraceParseError(at, "not a Codex rollout line (no type)");
      if (!payload) {
        if (type === "session_meta" || type === "response_item" || type === "event_msg")
          throw new TraceParseError(at, `a ${type} line without a payload object`);
        return [];
      }
      const kind = str(payload.type);
      const time = str(line.timestamp);
      if (type === "response_item") {
        if (
          kind === "function_call" ||
          kind === "custom_tool_call" ||
          kind === "local_shell_call"
        ) {
          call(payload, at, time);
          return [];
        }
        if (kind === "function_call_output" || kind === "custom_tool_call_output") {
          return output(payload);
        }
        return [];
      }
      if (type === "event_msg") {
        if (kind === "user_message") {
          turn++;
          return [{ type: "turn" }];
        }
        if (kind === "token_count") {
          const info = asRecord(payload.info);
          const total = usageOf(info?.total_token_usage);
          return total
            ? [{ type: "usage-total", total, last: usageOf(info?.last_token_usage) }]
            : [];
        }
        if (kind === "error" || kind === "stream_error") {
          return infrastructureEvent(str(payload.message) ?? "", at, "server-error");
        }
      }
      return [];
    },
    end: () => pending.end(),
  };
}
