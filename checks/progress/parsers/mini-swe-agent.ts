import type { CallFacts, TraceEvent, TraceParser } from "../events.js";
import {
  asRecord,
  buildStep,
  infrastructureOf,
  num,
  openAiUsage,
  str,
  TraceParseError,
} from "../events.js";
import { jsonOrText, objectAt, openCalls, runInfo, unanswered } from "./shared.js";

function resultOf(text: string): { exit: number | null; output: string } {
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  const output = /<output>\n?([\s\S]*?)<\/output>/.exec(text);
  return {
    exit: code ? Number(code[1]) : null,
    output: output ? (output[1] ?? "") : text,
  };
}

/** v1.1: the calls of an assistant message, each with its id, tool and parsed arguments. */
function toolCallsOf(
  calls: unknown[],
  at: string,
): { callId: string; tool: string; args: unknown; command: string | null }[] {
  return calls.map((raw, i) => {
    const call = asRecord(raw);
    const fn = asRecord(call?.function);
    const callId = str(call?.id);
    if (!call || !fn || !callId) {
      throw new TraceParseError(at, `tool_calls[${i}] has no id or function`);
    }
    // Unparseable arguments are compared as the text the model wrote.
    const args = jsonOrText(fn.arguments);
    return { callId, tool: str(fn.name) ?? "bash", args, command: str(asRecord(args)?.command) };
  });
}

/** v1.1: a `role: "tool"` message's result, from its `extra` where it has one. */
function toolResultStep(call: CallFacts, message: Record<string, unknown>): TraceEvent {
  const extra = asRecord(message.extra);
  const parsed = resultOf(str(message.content) ?? "");
  const exit = num(extra?.returncode) ?? parsed.exit;
  const text = str(extra?.raw_output) ?? parsed.output;
  return { type: "step", step: buildStep(call, { text, exit_code: exit, error: exit !== 0 }) };
}

/** v1: the user message after a bash block is its result. */
function textResultStep(call: CallFacts, content: string): TraceEvent {
  const parsed = resultOf(content);
  const timedOut = parsed.exit === null && /timed out/i.test(content) ? "timeout" : null;
  return {
    type: "step",
    step: buildStep(call, {
      text: parsed.output,
      exit_code: parsed.exit,
      error: parsed.exit !== null && parsed.exit !== 0,
      infrastructure: timedOut,
    }),
  };
}

/** v1.1's exit message: a failure of the provider or harness, when its status names one. */
function exitEvents(message: Record<string, unknown>, at: string): TraceEvent[] {
  const extra = asRecord(message.extra);
  const status = str(extra?.exit_status);
  const text = str(extra?.exception_str) ?? str(message.content) ?? "";
  const kind = status && status !== "Submitted" ? infrastructureOf(`${status} ${text}`) : null;
  return kind ? [{ type: "infrastructure", kind, at, message: text.slice(0, 300) }] : [];
}

/** The run's `info`: its exit, and the failure its status names unless the exit message did. */
function infoEvents(
  info: NonNullable<ReturnType<typeof runInfo>>,
  at: string,
  infrastructureSeen: boolean,
): TraceEvent[] {
  const { status } = info.exit;
  const events: TraceEvent[] = [];
  const kind = status && status !== "Submitted" ? infrastructureOf(status) : null;
  if (kind && !infrastructureSeen)
    events.push({ type: "infrastructure", kind, at, message: status ?? "" });
  events.push(info.exit);
  return events;
}

/**
 * mini-swe-agent trajectories (`*.traj.json`): `messages[]` then `info`. Format
 * `mini-swe-agent-1`: the action is the one ```bash block of an assistant message and the result
 * the next user message, `<returncode>N</returncode><output>…</output>`. Format
 * `mini-swe-agent-1.1`: assistant `tool_calls[]`, results are `role: "tool"` messages with
 * `extra.returncode` and `extra.raw_output`; `role: "exit"` ends the run.
 */
export function createMiniSweAgentParser(): TraceParser {
  let turn = 0;
  let modelCalls = 0;
  /** v1.1 says it twice (the exit message and info): report the failure once. */
  let infrastructureSeen = false;
  /** v1: the one pending bash block; v1.1: calls by tool_call_id. */
  let pendingText: CallFacts | null = null;
  const pendingTools = openCalls<string>();

  function callFrom(command: string, at: string, modelCall: string | null, args?: unknown) {
    return {
      at,
      tool: "bash",
      args: args ?? { command: command.trim() },
      command,
      model_call: modelCall,
      turn: Math.max(turn, 1),
      time: null,
    } satisfies CallFacts;
  }

  function assistant(message: Record<string, unknown>, at: string): TraceEvent[] {
    const extra = asRecord(message.extra);
    const response = asRecord(extra?.response);
    modelCalls++;
    const id = str(response?.id) ?? `call-${modelCalls}`;
    const events: TraceEvent[] = [
      { type: "model-call", id, usage: openAiUsage(response?.usage, num(extra?.cost)) },
    ];
    if (Array.isArray(message.tool_calls)) {
      for (const { callId, tool, args, command } of toolCallsOf(message.tool_calls, at)) {
        pendingTools.add(callId, { ...callFrom(command ?? "", at, id, args), tool, command });
      }
      return events;
    }
    const content = str(message.content) ?? "";
    const blocks = [...content.matchAll(/```bash\s*\n([\s\S]*?)\n```/g)];
    // Several blocks or none is a format error: the harness ran nothing.
    pendingText = blocks.length === 1 ? callFrom(blocks[0]?.[1] ?? "", at, id) : null;
    return events;
  }

  function user(message: Record<string, unknown>): TraceEvent[] {
    const content = str(message.content) ?? "";
    if (turn === 0) {
      turn = 1;
      return [{ type: "turn" }];
    }
    if (!pendingText) return [];
    const call = pendingText;
    pendingText = null;
    return [textResultStep(call, content)];
  }

  return {
    format: "mini-swe-agent",
    push(record, at) {
      const message = objectAt(record, at, "a message");
      const info = runInfo(message);
      if (info) return infoEvents(info, at, infrastructureSeen);
      switch (message.role) {
        case "system":
          return [];
        case "assistant":
          return assistant(message, at);
        case "tool": {
          const call = pendingTools.take(str(message.tool_call_id));
          return call ? [toolResultStep(call, message)] : [];
        }
        case "user":
          return user(message);
        case "exit": {
          const events = exitEvents(message, at);
          if (events.length > 0) infrastructureSeen = true;
          return events;
        }
        default:
          throw new TraceParseError(
            at,
            `unknown message role ${JSON.stringify(message.role)} (expected system, user, assistant, tool or exit)`,
          );
      }
    },
    end() {
      const open = [...pendingTools.end(), ...(pendingText ? [unanswered(pendingText)] : [])];
      pendingText = null;
      return open;
    },
  };
}
