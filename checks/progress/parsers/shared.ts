import type { CallFacts, InfrastructureKind, TraceEvent } from "../events.js";
import { asRecord, buildStep, infrastructureOf, num, str, TraceParseError } from "../events.js";

/**
 * The calls a trace has made but not yet answered, by the id it pairs a result with. A result
 * takes its call once (a second result for the same id, or one for an unknown id, finds none);
 * at the end of the trace every call still open becomes a step without a result.
 */
export function openCalls<Id, Call extends CallFacts = CallFacts>() {
  const open = new Map<Id, Call>();
  return {
    add(id: Id, call: Call): void {
      open.set(id, call);
    },
    take(id: Id | null): Call | undefined {
      if (id === null) return undefined;
      const call = open.get(id);
      open.delete(id);
      return call;
    },
    /** Every call left open, in the order it was made, as a step without a result. */
    end(): TraceEvent[] {
      const left = [...open.values()];
      open.clear();
      return left.map(unanswered);
    },
  };
}

/** A call the trace never answered: a step without a result. */
export function unanswered(call: CallFacts): TraceEvent {
  return { type: "step", step: buildStep(call, null) };
}

/**
 * A failure of the model's provider or the harness, from the text that reports it, or
 * `fallback` when the text names none; the message is cut to what a finding shows.
 */
export function infrastructureEvent(
  text: string,
  at: string,
  fallback: InfrastructureKind | null = null,
): TraceEvent[] {
  const kind = infrastructureOf(text) ?? fallback;
  return kind ? [{ type: "infrastructure", kind, at, message: text.slice(0, 300) }] : [];
}

/** A record that must be an object: else the trace is not of this format (`what`: "a message"). */
export function objectAt(record: unknown, at: string, what: string): Record<string, unknown> {
  const object = asRecord(record);
  if (!object) throw new TraceParseError(at, `expected ${what} object`);
  return object;
}

/** Arguments the model wrote as a JSON string, parsed; text that is not JSON is kept as written. */
export function jsonOrText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

type ExitEvent = Extract<TraceEvent, { type: "exit" }>;

/**
 * The `{ __info }` record a one-document trace ends with: how the run exited, with the cost and
 * model calls its model stats declare, and the stats themselves.
 */
export function runInfo(
  record: Record<string, unknown>,
): { exit: ExitEvent; stats: Record<string, unknown> | null } | null {
  if (!("__info" in record)) return null;
  const info = asRecord(record.__info);
  const stats = asRecord(info?.model_stats);
  const exit: ExitEvent = {
    type: "exit",
    status: str(info?.exit_status),
    cost_usd: num(stats?.instance_cost),
    model_calls: num(stats?.api_calls),
  };
  return { exit, stats };
}
