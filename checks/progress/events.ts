import type { ModelUsage, TraceFormat, TraceStep } from "../../schemas/trace.js";
import { canonicalJson, shortHash } from "./hash.js";
import { shellFacts } from "./shell.js";
import { echoFreeResult, maskAction, normalisedResultHash, normaliseResult } from "./volatile.js";

/** A step as a parser emits it; the detector numbers it. */
export type StepInput = Omit<TraceStep, "index">;

/** What a parser returns for one record: tool calls, model calls, turns, failures, the end. */
export type TraceEvent =
  | { type: "step"; step: StepInput }
  /** One model response; `id` dedupes usage repeated on several records of one message. */
  | { type: "model-call"; id: string | null; usage: ModelUsage | null }
  /** Cumulative usage (Codex's total_token_usage): the newest replaces, never adds. */
  | { type: "usage-total"; total: ModelUsage; last: ModelUsage | null }
  | { type: "turn" }
  | { type: "infrastructure"; kind: string; at: string; message: string }
  /** The trace's own end: exit status, and totals it declares (used when larger). */
  | {
      type: "exit";
      status: string | null;
      cost_usd: number | null;
      model_calls: number | null;
      input_tokens?: number | null;
      output_tokens?: number | null;
    };

/** A parser takes one record at a time; `end` flushes calls that never got a result. */
export interface TraceParser {
  readonly format: TraceFormat;
  push(record: unknown, at: string): TraceEvent[];
  end(): TraceEvent[];
}

/** Malformed input: `at` names the line (or element) so the user can look at it. */
export class TraceParseError extends Error {
  override readonly name = "TraceParseError";
  constructor(
    readonly at: string,
    readonly reason: string,
  ) {
    super(`${at}: ${reason}`);
  }
}

export type InfrastructureKind = NonNullable<TraceStep["infrastructure"]>;

/**
 * Infrastructure failures are the provider's or the network's, not the agent's: they are never
 * counted towards a stall. This reads a harness's or provider's own error message (an exit
 * status, an API error record), where naming a timeout or a 5xx is what the text is about.
 */
export function infrastructureOf(text: string): InfrastructureKind | null {
  if (text.length > 2000) return null;
  if (/rate.?limit|\b429\b|too many requests|overloaded/i.test(text)) return "rate-limit";
  if (/\b50[0-4]\b|internal ?server ?error|bad gateway|service unavailable/i.test(text))
    return "server-error";
  if (/timed? ?out|timeout|deadline exceeded/i.test(text)) return "timeout";
  if (/ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connection (reset|refused)|SSL/i.test(text))
    return "network";
  return null;
}

/**
 * A failed tool result is taken for an infrastructure failure only when the whole short result
 * is an HTTP or provider error: a traceback that mentions TIMEOUT or SSL is the agent's code
 * failing (the benchmark's Django runs are full of them), and that must stay visible.
 */
export function stepInfrastructureOf(text: string): InfrastructureKind | null {
  const head = text.trim();
  if (head.length > 300) return null;
  if (/^(error:?\s*)?(HTTP\S*\s*)?429\b|^(error:?\s*)?(rate limit|too many requests)/i.test(head))
    return "rate-limit";
  if (
    /^(error:?\s*)?(HTTP\S*\s*)?5\d\d\b|^(error:?\s*)?(service unavailable|bad gateway|gateway timeout|internal server error)/i.test(
      head,
    )
  )
    return "server-error";
  return null;
}

const preview = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
};

/**
 * What an edit tool says when it changed nothing (OpenHands and SWE-agent's str_replace_editor,
 * Claude Code's tool errors): such a call is a failed edit, not a write.
 */
const FAILED_EDIT =
  /^\s*(ERROR:|<tool_use_error>|Error:)|No replacement was performed|did not appear verbatim|is not a valid|Invalid `path` parameter|No changes made|Old string and new string are identical/;

/** The failure's kind: the last exception name in the output, else the exit code. */
function failureOf(text: string, exit: number | null): string {
  const names = text
    .slice(-20_000)
    .match(/\b[A-Z][A-Za-z]*(?:Error|Exception|Failure|Exit|Interrupt)\b/g);
  return names?.at(-1) ?? `exit ${exit ?? "?"}`;
}

export interface CallFacts {
  at: string;
  tool: string;
  /** Arguments as the trace holds them; cosmetic keys are left out by the parser. */
  args: unknown;
  /** The shell command, when the tool runs one: kind, name and path come from it. */
  command?: string | null;
  kind?: TraceStep["kind"];
  path?: string | null;
  model_call: string | null;
  turn: number;
  time: string | null;
}

export interface ResultFacts {
  text: string;
  exit_code: number | null;
  error: boolean;
  write?: { before: string | null; after: string | null } | null;
  /** A result that is itself an infrastructure failure (an API error record). */
  infrastructure?: InfrastructureKind | null;
}

/** Extra facts a parser knows about an editor call (an undo, the file it touched). */
export interface EditFacts {
  /** The editor's undo: the file goes back to before its last edit. */
  undo?: boolean;
}

/** Builds the normalised step; `result` null for a call that never got one. */
export function buildStep(
  call: CallFacts,
  result: ResultFacts | null,
  edit: EditFacts = {},
): StepInput {
  const shell = call.command ? shellFacts(call.command) : null;
  const argsText = canonicalJson(call.args);
  const declared = call.kind ?? shell?.kind ?? "other";
  const failedEdit =
    result !== null &&
    declared === "write" &&
    !shell &&
    FAILED_EDIT.test(result.text.slice(0, 2000));
  const failed = result !== null && (result.error || failedEdit || (result.exit_code ?? 0) !== 0);
  const kind = failed && declared === "write" ? "command" : declared;
  const path = call.path ?? shell?.path ?? null;
  const actionText = call.command ?? argsText;
  const undo = edit.undo === true && !failed && path !== null;
  const normalised = result ? normaliseResult(result.text) : null;
  return {
    at: call.at,
    tool: call.tool,
    kind: undo ? "write" : kind,
    name: shell?.name || call.tool,
    args: argsText,
    args_hash: shortHash(`${call.tool}\u0000${argsText}`),
    preview: preview(call.command ?? str(asRecord(call.args)?.command) ?? call.path ?? argsText),
    path,
    result: {
      hash:
        result && normalised !== null ? normalisedResultHash(result.exit_code, normalised) : null,
      exit_code: result?.exit_code ?? null,
      error: failed,
      bytes: result ? Buffer.byteLength(result.text) : 0,
    },
    write: failed ? null : (result?.write ?? null),
    revert: failed ? null : (shell?.revert ?? null),
    writes: failed ? [] : kind === "write" ? (shell?.writes ?? (path ? [path] : [])) : [],
    restores: failed ? [] : undo ? [{ from: null, to: path }] : (shell?.restores ?? []),
    copies: failed ? [] : (shell?.copies ?? []),
    unstash: !failed && (shell?.unstash ?? false),
    action_hash: shortHash(`${call.tool}\u0000${maskAction(actionText)}`),
    echo_free_hash:
      result && normalised !== null
        ? shortHash(`${result.exit_code ?? "-"}\u0000${echoFreeResult(actionText, normalised)}`)
        : null,
    failure:
      failed && result && normalised !== null ? failureOf(normalised, result.exit_code) : null,
    infrastructure:
      result?.infrastructure ?? (result && failed ? stepInfrastructureOf(result.text) : null),
    model_call: call.model_call,
    turn: call.turn,
    time: call.time,
  };
}

/** Content hash of a file body, for writes whose before and after the trace carries. */
export const contentHash = (text: string) => shortHash(normaliseResult(text));

export const asRecord = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

export const num = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

export const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** Usage in the shape OpenAI-compatible providers (litellm) report it. */
export function openAiUsage(raw: unknown, cost: number | null = null): ModelUsage | null {
  const usage = asRecord(raw);
  if (!usage) return null;
  const details = asRecord(usage.prompt_tokens_details);
  return {
    input_tokens: num(usage.prompt_tokens) ?? num(usage.input_tokens) ?? 0,
    cached_input_tokens:
      num(details?.cached_tokens) ??
      num(usage.cache_read_input_tokens) ??
      num(usage.prompt_cache_hit_tokens) ??
      0,
    cache_creation_input_tokens: num(usage.cache_creation_input_tokens) ?? 0,
    output_tokens: num(usage.completion_tokens) ?? num(usage.output_tokens) ?? 0,
    cost_usd: num(usage.cost) ?? cost,
  };
}
