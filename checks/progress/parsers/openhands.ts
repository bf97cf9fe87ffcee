import type { TraceStep } from "../../../schemas/trace.js";
import type { CallFacts, TraceEvent, TraceParser } from "../events.js";
import {
  asRecord,
  buildStep,
  contentHash,
  num,
  openAiUsage,
  str,
  TraceParseError,
} from "../events.js";
import { infrastructureEvent, objectAt, openCalls } from "./shared.js";

/** Actions that call a tool and get an observation back; messages, think and finish do not. */
const TOOL_ACTIONS: Record<string, TraceStep["kind"] | undefined> = {
  run: undefined, // a shell command: kind from its text
  run_ipython: "command",
  read: "read",
  edit: "write",
  write: "write",
  browse: "other",
  browse_interactive: "other",
  call_tool_mcp: "other",
};

/** Argument fields that are the model's commentary or the runtime's, not the call. */
const COSMETIC_ARGS = new Set([
  "thought",
  "impl_source",
  "confirmation_state",
  "is_input",
  "blocking",
  "hidden",
  "security_risk",
]);

/**
 * OpenHands event streams: events with `id`, `source`, and `action` + `args` or `observation`
 * + `extras` + `content`; an observation names its action in `cause`. Shell results carry
 * `extras.metadata.exit_code`, edits `extras.old_content` / `new_content`. The same stream is
 * read as a JSON array (one document) or as JSONL (one event per line).
 */
export function createOpenHandsParser(): TraceParser {
  let turn = 0;
  const pending = openCalls<number, CallFacts & { undo: boolean }>();

  function modelCall(event: Record<string, unknown>): { id: string | null; events: TraceEvent[] } {
    const metadata = asRecord(event.tool_call_metadata);
    const response = asRecord(metadata?.model_response);
    const id = str(response?.id);
    if (!id) return { id: null, events: [] };
    return { id, events: [{ type: "model-call", id, usage: openAiUsage(response?.usage) }] };
  }

  function action(event: Record<string, unknown>, name: string, at: string): TraceEvent[] {
    const source = str(event.source);
    const args = asRecord(event.args) ?? {};
    if (source === "user" && name === "message") {
      turn++;
      return [{ type: "turn" }];
    }
    if (source !== "agent") return [];
    const call = modelCall(event);
    if (!(name in TOOL_ACTIONS)) return call.events;
    const id = num(event.id);
    if (id === null) throw new TraceParseError(at, `the ${name} action has no numeric id`);
    const kept = Object.fromEntries(Object.entries(args).filter(([k]) => !COSMETIC_ARGS.has(k)));
    const command = name === "run" ? (str(args.command) ?? "") : null;
    pending.add(id, {
      at,
      tool: str(asRecord(event.tool_call_metadata)?.function_name) ?? name,
      args: kept,
      command,
      kind: TOOL_ACTIONS[name],
      path: str(args.path),
      undo: name === "edit" && args.command === "undo_edit",
      model_call: call.id,
      turn: Math.max(turn, 1),
      time: str(event.timestamp),
    });
    return call.events;
  }

  function observation(event: Record<string, unknown>, name: string, at: string): TraceEvent[] {
    const extras = asRecord(event.extras) ?? {};
    if (name === "agent_state_changed" && extras.agent_state === "error") {
      return infrastructureEvent(str(extras.reason) ?? "", at);
    }
    const call = pending.take(num(event.cause));
    if (!call) return [];
    const text = str(event.content) ?? "";
    const exit = num(asRecord(extras.metadata)?.exit_code);
    const isEdit = name === "edit" || name === "write";
    const oldContent = str(extras.old_content);
    const newContent = str(extras.new_content);
    const step = buildStep(
      call,
      {
        text,
        exit_code: exit,
        error: name === "error" || (exit !== null && exit !== 0),
        write:
          isEdit && newContent !== null
            ? {
                before: oldContent === null ? null : contentHash(oldContent),
                after: contentHash(newContent),
              }
            : null,
        // exit -1: the command did not return within the runtime's wait (a server, a hang).
        infrastructure: exit === -1 ? "timeout" : null,
      },
      { undo: call.undo },
    );
    return [{ type: "step", step }];
  }

  return {
    format: "openhands",
    push(record, at) {
      const event = objectAt(record, at, "an event");
      const act = str(event.action);
      const obs = str(event.observation);
      if (act) return action(event, act, at);
      if (obs) return observation(event, obs, at);
      if (!("id" in event) && !("source" in event)) {
        throw new TraceParseError(
          at,
          "not an OpenHands event (no id, source, action or observation)",
        );
      }
      return [];
    },
    end: () => pending.end(),
  };
}
