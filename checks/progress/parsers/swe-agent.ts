import type { TraceStep } from "../../../schemas/trace.js";
import type { TraceEvent, TraceParser } from "../events.js";
import { asRecord, buildStep, num, str, TraceParseError } from "../events.js";
import { objectAt, runInfo } from "./shared.js";

/** SWE-agent's own commands, by what they do; anything else is a shell command. */
const SWE_COMMANDS: Record<string, TraceStep["kind"]> = {
  open: "read",
  goto: "read",
  scroll_up: "read",
  scroll_down: "read",
  search_file: "search",
  search_dir: "search",
  find_file: "search",
  create: "write",
  edit: "write",
  insert: "write",
  append: "write",
  submit: "other",
};

function openFileOf(state: unknown): string | null {
  let value = state;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const file = str(asRecord(value)?.open_file);
  return file && file !== "n/a" ? file : null;
}

/**
 * SWE-agent `.traj`: one JSON document whose `trajectory[]` holds one step per model call
 * (`action`, `observation`, `state`, `execution_time`) and whose `info` holds `exit_status` and
 * `model_stats`. Observations carry no exit code, so results are compared by their text alone.
 */
export function createSweAgentParser(): TraceParser {
  let calls = 0;
  return {
    format: "swe-agent",
    push(record, at) {
      const step = objectAt(record, at, "a trajectory step");
      const info = runInfo(step);
      if (info) {
        const { exit, stats } = info;
        return [
          {
            ...exit,
            model_calls: exit.model_calls || null,
            input_tokens: num(stats?.tokens_sent),
            output_tokens: num(stats?.tokens_received),
          },
        ];
      }
      const action = str(step.action);
      if (action === null) throw new TraceParseError(at, "the step has no action text");
      calls++;
      const events: TraceEvent[] = [
        { type: "model-call", id: `step-${calls}`, usage: null },
        ...(calls === 1 ? [{ type: "turn" } as const] : []),
      ];
      const command = action.trim();
      if (command === "") return events;
      const [word = "", ...rest] = command.split(/\s+/);
      const editor = word === "str_replace_editor" ? rest[0] : null;
      const own = editor ? (editor === "view" ? "read" : "write") : SWE_COMMANDS[word];
      const named = editor
        ? (rest[1] ?? null)
        : word === "open" || word === "create"
          ? rest[0]
          : null;
      const observation = str(step.observation) ?? "";
      events.push({
        type: "step",
        step: buildStep(
          {
            at,
            tool: own ? word : "bash",
            args: { command },
            command: own ? null : command,
            kind: own,
            path: own ? (named ?? openFileOf(step.state)) : undefined,
            model_call: `step-${calls}`,
            turn: 1,
            time: null,
          },
          { text: observation, exit_code: null, error: false },
          { undo: editor === "undo_edit" },
        ),
      });
      return events;
    },
    end: () => [],
  };
}
