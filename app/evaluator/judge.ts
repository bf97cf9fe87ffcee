import { setTimeout as sleep } from "node:timers/promises";
import { parseVerdictText } from "../../checks/evaluator/parse-verdict.js";
import type { EvaluatorConfig } from "../../schemas/config.js";
import type {
  EvaluationBundle,
  EvaluationOutcome,
  EvaluatorRun,
} from "../../schemas/evaluation.js";
import { type Backoff, exponentialBackoff } from "../runtime/backoff.js";
import { anthropicWire } from "./anthropic.js";
import { runEvaluatorCommand } from "./command.js";
import { openaiWire } from "./openai.js";
import type { CommandSandbox } from "./policy.js";
import { prepareSandbox } from "./sandbox.js";

export interface EvaluatorPrompt {
  system: string;
  user: string;
}

export interface JudgeRequest {
  bundle: EvaluationBundle;
  prompt: EvaluatorPrompt;
  signal?: AbortSignal;
}

export interface JudgeResult {
  outcome: EvaluationOutcome;
  run: EvaluatorRun;
}

export interface Judge {
  readonly kind: "llm" | "command";
  /** Never throws: errors, timeouts and malformed answers are `failed` outcomes with a fix. */
  judge(request: JudgeRequest): Promise<JudgeResult>;
}

export type LlmEvaluatorConfig = Extract<EvaluatorConfig, { kind: "llm" }>;
export type CommandEvaluatorConfig = Extract<EvaluatorConfig, { kind: "command" }>;

/** The variables an API key may come from: the operator's, and each provider's own. */
export const API_KEY_VARIABLES = [
  "AGATE_EVALUATOR_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
] as const;
export type ApiKeyVariable = (typeof API_KEY_VARIABLES)[number];

/**
 * What the App's operator set up, as values the App's start read and checked
 * (app/runtime/settings.ts, `settings.evaluator.judgeOptions`); never anything from a repository.
 */
export interface JudgeOptions {
  /**
   * llm: the keys the App may send, by the variable each was set in (trimmed; unset or blank
   * ones absent). Each goes only where it belongs (see `apiKey`).
   */
  apiKeys: Readonly<Partial<Record<ApiKeyVariable, string>>>;
  /** llm: AGATE_EVALUATOR_API_KEY_URL, the base URLs whose origins AGATE_EVALUATOR_API_KEY may go to. */
  apiKeyUrls: readonly string[];
  /**
   * command: the sandbox's settings, with what it takes from the App's environment (its PATH,
   * the values of the variables AGATE_EVALUATOR_COMMAND_ENV names); the command gets nothing else.
   */
  sandbox: CommandSandbox;
  /** llm: limit on one HTTP request, reading the answer included. Default 120 s. */
  timeoutMs?: number;
  /** llm: transport retries after the first request (429, 408, 409, 5xx, connection errors, timeouts). Default 2. */
  maxRetries?: number;
  /** llm: waits between transport retries when the endpoint sends no retry-after. Default about 1 s, 2 s, 4 s… */
  backoff?: Backoff;
  /** llm: a retry-after longer than this is not waited for; the evaluation fails at once. Default 60 s. */
  maxRetryAfterMs?: number;
  /** command: time between SIGTERM and SIGKILL when the timeout kills it. Default 5 s. */
  killGraceMs?: number;
}

/** The operator's key, sent only to the endpoints named in AGATE_EVALUATOR_API_KEY_URL. */
export const EVALUATOR_KEY_VARIABLE = "AGATE_EVALUATOR_API_KEY" satisfies ApiKeyVariable;
export const EVALUATOR_KEY_URL_VARIABLE = "AGATE_EVALUATOR_API_KEY_URL";

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
const DEFAULT_KILL_GRACE_MS = 5_000;
/** What a refused answer is shown as in the command's `previous_attempt`. */
const PREVIOUS_OUTPUT_LIMIT = 64 * 1024;

export function createJudge(
  config: LlmEvaluatorConfig | CommandEvaluatorConfig,
  options: JudgeOptions,
): Judge {
  const inner = config.kind === "llm" ? llmJudge(config, options) : commandJudge(config, options);
  return {
    kind: inner.kind,
    async judge(request) {
      const started = performance.now();
      try {
        return await inner.judge(request);
      } catch (error) {
        // Fail closed even on a bug: the gate must get an outcome it can show, never a throw.
        return {
          outcome: {
            status: "failed",
            error: `the ${inner.kind} evaluator failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
            fix: "this is a bug in agate: report it with this message; Re-run evaluator may get past it",
          },
          run: {
            kind: inner.kind,
            provider: config.kind === "llm" ? config.provider : null,
            model: config.kind === "llm" ? config.model : null,
            prompt_version: request.bundle.prompt_version,
            input_tokens: null,
            output_tokens: null,
            latency_ms: Math.round(performance.now() - started),
            requests: 0,
          },
        };
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The shared loop: ask, and on a malformed answer ask once more with what was wrong.

/** One answer from an evaluator, or a failure that ends the evaluation. */
type Answer =
  | {
      ok: true;
      text: string /** Overrides the parse: the answer is known to be unusable. */;
      problem?: string;
    }
  | { ok: false; error: string; fix: string };

interface Previous {
  output: string;
  error: string;
}

async function askTwice(
  ask: (previous: Previous | null) => Promise<Answer>,
  malformed: (error: string) => { error: string; fix: string },
): Promise<EvaluationOutcome> {
  let previous: Previous | null = null;
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const answer = await ask(previous);
    if (!answer.ok) return { status: "failed", error: answer.error, fix: answer.fix };
    const parsed = answer.problem
      ? { ok: false as const, error: answer.problem }
      : parseVerdictText(answer.text);
    if (parsed.ok) return { status: "verdict", verdict: parsed.verdict };
    previous = { output: answer.text, error: parsed.error };
  }
  return { status: "failed", ...malformed(previous?.error ?? "no answer") };
}

/** What the evaluator is told after a malformed answer: exactly what was wrong, and what to send. */
export function correctionMessage(error: string): string {
  return `Your answer was refused: ${error}. Answer again with only the JSON object {"complete": boolean, "score": number from 0 to 1, "missing": [strings], "evidence": [strings]} and nothing else.`;
}

interface Meter {
  requests: number;
  input: number | null;
  output: number | null;
}

function addUsage(meter: Meter, usage: { input: number | null; output: number | null }): void {
  if (usage.input !== null) meter.input = (meter.input ?? 0) + usage.input;
  if (usage.output !== null) meter.output = (meter.output ?? 0) + usage.output;
}

// ---------------------------------------------------------------------------------------------
// llm

/** What differs between the OpenAI-compatible and the Anthropic wire formats (openai.ts, anthropic.ts). */
export interface LlmWire {
  readonly provider: "openai" | "anthropic";
  readonly publicBaseUrl: string;
  /** The provider's own key variable: sent only to the provider's public endpoint. */
  readonly keyVariable: Exclude<ApiKeyVariable, typeof EVALUATOR_KEY_VARIABLE>;
  /** How the request forces a structured answer, for the fix when an endpoint refuses it. */
  readonly structuredOutput: string;
  endpoint(baseUrl: string): string;
  /** Auth and protocol headers; no auth header at all when `key` is null. */
  headers(key: string | null, endpoint: string): Record<string, string>;
  body(input: {
    model: string;
    prompt: EvaluatorPrompt;
    /** Earlier answers and corrections, in the wire's message format. */
    turns: unknown[];
    /** false after the endpoint refused temperature 0 (OpenAI's reasoning models do). */
    temperature: boolean;
  }): unknown;
  read(json: unknown): LlmReply | { ok: false; error: string };
  /** The error text in an error response's body, if it has the wire's error shape. */
  errorMessage(json: unknown): string | undefined;
}

export interface LlmReply {
  ok: true;
  text: string;
  problem?: string;
  usage: { input: number | null; output: number | null };
  /** The turns that replay this answer and refuse it with `message`. */
  correction(message: string): unknown[];
}

const WIRES = { openai: openaiWire, anthropic: anthropicWire } as const;

function llmJudge(config: LlmEvaluatorConfig, options: JudgeOptions): Judge {
  const wire = WIRES[config.provider];
  const baseUrl = config.base_url ?? wire.publicBaseUrl;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const backoff = options.backoff ?? exponentialBackoff({ baseMs: 1_000, maxMs: 16_000 });
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;

  return {
    kind: "llm",
    async judge(request) {
      const started = performance.now();
      const meter: Meter = { requests: 0, input: null, output: null };
      const endpoint = wire.endpoint(baseUrl);
      const shownEndpoint = redactUrl(endpoint);
      const origin = new URL(endpoint).origin;
      const isPublic = origin === new URL(wire.publicBaseUrl).origin;
      const keyHelp = isPublic
        ? `${wire.keyVariable} (or ${EVALUATOR_KEY_VARIABLE} with ${EVALUATOR_KEY_URL_VARIABLE}=${redactUrl(baseUrl)})`
        : `${EVALUATOR_KEY_VARIABLE} with ${EVALUATOR_KEY_URL_VARIABLE}=${redactUrl(baseUrl)}`;
      let secret: string | null = null;
      const finish = (outcome: EvaluationOutcome): JudgeResult => ({
        // Providers echo parts of a refused key in their messages; none of it goes further.
        outcome:
          outcome.status === "failed" && secret !== null
            ? {
                ...outcome,
                error: outcome.error.replaceAll(secret, "***"),
                fix: outcome.fix.replaceAll(secret, "***"),
              }
            : outcome,
        run: {
          kind: "llm",
          provider: config.provider,
          model: config.model,
          prompt_version: request.bundle.prompt_version,
          input_tokens: meter.input,
          output_tokens: meter.output,
          latency_ms: Math.round(performance.now() - started),
          requests: meter.requests,
        },
      });

      const parsedBase = new URL(baseUrl);
      if (parsedBase.username !== "" || parsedBase.password !== "") {
        // The config lives in the repository: a secret there is readable by everyone who can read it.
        return finish({
          status: "failed",
          error: `evaluator.base_url ${shownEndpoint} carries credentials in the URL, which fetch will not send`,
          fix: `remove them from evaluator.base_url in .github/agate.yml on the base branch (and revoke them: the repository shows them to everyone who can read it), and set ${keyHelp} in the App's environment`,
        });
      }
      const chosen = apiKey(options, wire, origin);
      if ("problem" in chosen) {
        return finish({
          status: "failed",
          error: chosen.problem,
          fix: `the App's operator sets ${EVALUATOR_KEY_URL_VARIABLE} to the base URL the key in ${EVALUATOR_KEY_VARIABLE} belongs to`,
        });
      }
      const key = chosen.key;
      secret = key?.value ?? null;
      // Local servers (Ollama, vLLM, llama.cpp) often need no key; the public endpoint always does.
      if (key === null && isPublic) {
        return finish({
          status: "failed",
          error: `no API key for ${shownEndpoint}: ${wire.keyVariable} is not set in the App's environment, and ${EVALUATOR_KEY_VARIABLE} (if set) belongs to another endpoint`,
          fix: `set ${keyHelp} in the App's environment, or point evaluator.base_url in .github/agate.yml on the base branch at an endpoint that needs no key`,
        });
      }
      const headers = {
        "content-type": "application/json",
        accept: "application/json",
        ...wire.headers(key?.value ?? null, endpoint),
      };

      let turns: unknown[] = [];
      let correction: ((message: string) => unknown[]) | null = null;
      let temperature = true;

      const ask = async (previous: Previous | null): Promise<Answer> => {
        if (previous && correction)
          turns = [...turns, ...correction(correctionMessage(previous.error))];
        for (;;) {
          const body = wire.body({
            model: config.model,
            prompt: request.prompt,
            turns,
            temperature,
          });
          const response = await postJson({
            url: endpoint,
            headers,
            body,
            timeoutMs,
            maxRetries,
            backoff,
            maxRetryAfterMs,
            meter,
            signal: request.signal,
          });
          if (!response.ok) {
            const message = response.status ? wire.errorMessage(response.json) : undefined;
            // OpenAI's reasoning models take only their default temperature: ask again without it.
            if (response.status === 400 && temperature && /temperature/i.test(message ?? "")) {
              temperature = false;
              continue;
            }
            return { ok: false, ...describeHttpFailure(response, message) };
          }
          const reply = wire.read(response.json);
          if (!reply.ok) {
            return {
              ok: false,
              error: `${shownEndpoint} answered 200, but ${reply.error}`,
              fix: `point evaluator.base_url in .github/agate.yml on the base branch at an ${config.provider === "openai" ? "OpenAI-compatible Chat Completions" : "Anthropic Messages"} endpoint, or set evaluator.provider to match it`,
            };
          }
          addUsage(meter, reply.usage);
          correction = reply.correction;
          return reply.problem
            ? { ok: true, text: reply.text, problem: reply.problem }
            : { ok: true, text: reply.text };
        }
      };

      const describeHttpFailure = (
        failure: HttpFailure,
        providerMessage: string | undefined,
      ): { error: string; fix: string } => {
        const said = providerMessage ? `: ${oneLine(providerMessage)}` : "";
        const attempts = `${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"}`;
        switch (failure.kind) {
          case "aborted":
            return { error: "the evaluation was cancelled", fix: "use Re-run evaluator" };
          case "timeout":
            return {
              error: `no answer from ${shownEndpoint} within ${timeoutMs} ms (${attempts})`,
              fix: "the endpoint is slower than the App's evaluator timeout: choose a faster evaluator.model in .github/agate.yml on the base branch, or ask the App's operator to raise AGATE_EVALUATOR_TIMEOUT, then use Re-run evaluator",
            };
          case "connection":
            return {
              error: `could not reach ${shownEndpoint} (${attempts}): ${failure.detail}`,
              fix: "check evaluator.base_url in .github/agate.yml on the base branch and that the App's host can reach it, then use Re-run evaluator",
            };
          case "redirect":
            return {
              error: `${shownEndpoint} answered HTTP ${failure.status}, a redirect to ${failure.detail}; agate never follows an evaluator endpoint's redirects (the key and the prompt would go along)`,
              fix: "point evaluator.base_url in .github/agate.yml on the base branch at the endpoint itself (the App's operator lists it in AGATE_EVALUATOR_BASE_URLS, and in AGATE_EVALUATOR_API_KEY_URL if the key belongs there), then use Re-run evaluator",
            };
          case "not-json":
            return {
              error: `${shownEndpoint} answered HTTP ${failure.status} with a body that is not JSON: ${failure.detail}`,
              fix: `point evaluator.base_url in .github/agate.yml on the base branch at the API itself (it must answer POST ${shownEndpoint})`,
            };
          case "status":
            break;
        }
        const status = failure.status;
        const error = `HTTP ${status} from ${shownEndpoint}${said}${failure.attempts > 1 ? ` (after ${attempts})` : ""}`;
        if (status === 401 || status === 403) {
          return {
            error,
            fix: key
              ? `the key in ${key.variable} was refused: set a valid key for ${shownEndpoint} in ${keyHelp} in the App's environment`
              : `the endpoint wants a key: set ${keyHelp} in the App's environment`,
          };
        }
        if (status === 404 || ((status === 400 || status === 422) && /model/i.test(said))) {
          return {
            error,
            fix: `evaluator.model ${config.model} is unknown at ${redactUrl(baseUrl)}, or evaluator.base_url is wrong: set evaluator.model (and evaluator.base_url) in .github/agate.yml on the base branch`,
          };
        }
        if (status === 429) {
          return {
            error,
            fix:
              failure.detail !== ""
                ? `${failure.detail}: raise your provider's rate limit, or use Re-run evaluator later`
                : `the endpoint answered 429 after ${attempts}: raise your provider's rate limit, or use Re-run evaluator later`,
          };
        }
        if (status >= 500 || status === 408 || status === 409) {
          return {
            error,
            fix: `the endpoint failed ${attempts} in a row: check the provider's status or the server at ${redactUrl(baseUrl)}, then use Re-run evaluator`,
          };
        }
        return {
          error,
          fix: `the endpoint refused the request: make sure evaluator.model ${config.model} at ${redactUrl(baseUrl)} supports ${wire.structuredOutput}, or choose another evaluator.model or evaluator.provider in .github/agate.yml on the base branch`,
        };
      };

      const outcome = await askTwice(ask, (error) => ({
        error: `${config.provider} model ${config.model} at ${shownEndpoint} answered malformed twice: ${error}`,
        fix: `choose an evaluator.model that supports ${wire.structuredOutput} (set it in .github/agate.yml on the base branch), then use Re-run evaluator`,
      }));
      return finish(outcome);
    },
  };
}

/**
 * The key for a request to `origin`, and only a key that belongs there: the operator's
 * AGATE_EVALUATOR_API_KEY goes only to the origins named in AGATE_EVALUATOR_API_KEY_URL, and a
 * provider's own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY) only to that provider's public
 * endpoint. A repository picks the provider and, from the operator's list, the endpoint: without
 * this, it could send the OpenAI key to Anthropic, or either to a plain-HTTP local server.
 */
function apiKey(
  options: Pick<JudgeOptions, "apiKeys" | "apiKeyUrls">,
  wire: LlmWire,
  origin: string,
): { key: { variable: ApiKeyVariable; value: string } | null } | { problem: string } {
  const general = options.apiKeys[EVALUATOR_KEY_VARIABLE]?.trim();
  if (general) {
    const urls = options.apiKeyUrls;
    // The App refuses to start so; this holds for options built some other way too.
    if (urls.length === 0) {
      return {
        problem: `${EVALUATOR_KEY_VARIABLE} is set, but ${EVALUATOR_KEY_URL_VARIABLE} does not say which endpoint it belongs to, so agate sends it nowhere`,
      };
    }
    if (urls.some((url) => URL.canParse(url) && new URL(url).origin === origin)) {
      return { key: { variable: EVALUATOR_KEY_VARIABLE, value: general } };
    }
  }
  const own = options.apiKeys[wire.keyVariable]?.trim();
  if (own && origin === new URL(wire.publicBaseUrl).origin) {
    return { key: { variable: wire.keyVariable, value: own } };
  }
  return { key: null };
}

/** Error messages name the endpoint, never credentials someone put into its URL. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(invalid URL)";
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

// ---------------------------------------------------------------------------------------------
// HTTP with transport retries

type HttpFailure =
  | { ok: false; kind: "status"; status: number; json: unknown; attempts: number; detail: string }
  | { ok: false; kind: "not-json"; status: number; json: unknown; attempts: number; detail: string }
  /** A 3xx: never followed, since the key and the prompt would go wherever it points. */
  | { ok: false; kind: "redirect"; status: number; json: null; attempts: number; detail: string }
  | {
      ok: false;
      kind: "timeout" | "connection" | "aborted";
      status: null;
      json: null;
      attempts: number;
      detail: string;
    };

type HttpResult = { ok: true; json: unknown } | HttpFailure;

interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  maxRetries: number;
  backoff: Backoff;
  maxRetryAfterMs: number;
  meter: Meter;
  signal: AbortSignal | undefined;
}

/** Statuses worth asking again: rate limits, request and lock timeouts, server errors. */
function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * POSTs JSON and reads the JSON answer, retrying what a retry can fix (429, 408, 409, 5xx,
 * dropped connections, timeouts) up to `maxRetries` times. A retry-after is honoured when it is
 * at most `maxRetryAfterMs`; a longer one ends the attempts at once, since holding a worker for
 * an hour helps nobody. Counts every request it makes in the meter.
 */
async function postJson(options: PostOptions): Promise<HttpResult> {
  const text = JSON.stringify(options.body);
  for (let attempt = 1; ; attempt += 1) {
    if (options.signal?.aborted) return transportFailure("aborted", attempt - 1, "");
    options.meter.requests += 1;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let failure: HttpFailure;
    let wait: number | null = null;
    try {
      const response = await fetch(options.url, {
        method: "POST",
        headers: options.headers,
        body: text,
        signal,
        // Never follow: fetch drops `authorization` on a cross-origin redirect, but forwards
        // `x-api-key` and `api-key`, and the whole prompt, to wherever the endpoint points.
        redirect: "manual",
      });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        return {
          ok: false,
          kind: "redirect",
          status: response.status,
          json: null,
          attempts: attempt,
          detail: redirectTarget(options.url, response.headers.get("location")),
        };
      }
      const raw = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        if (response.ok || !retryable(response.status) || attempt > options.maxRetries) {
          return {
            ok: false,
            kind: response.ok ? "not-json" : "status",
            status: response.status,
            json: null,
            attempts: attempt,
            detail: response.ok ? oneLine(raw.slice(0, 200)) || "(empty)" : "",
          };
        }
        json = null;
      }
      if (response.ok) return { ok: true, json };
      failure = {
        ok: false,
        kind: "status",
        status: response.status,
        json,
        attempts: attempt,
        detail: "",
      };
      if (!retryable(response.status)) return failure;
      const asked = retryAfterMs(response.headers);
      if (asked !== null && asked > options.maxRetryAfterMs) {
        return {
          ...failure,
          detail: `the endpoint asked to wait ${Math.ceil(asked / 1000)} s before retrying, longer than the ${Math.round(options.maxRetryAfterMs / 1000)} s agate waits`,
        };
      }
      wait = asked;
    } catch (error) {
      if (options.signal?.aborted) return transportFailure("aborted", attempt, "");
      failure = timeout.aborted
        ? transportFailure("timeout", attempt, "")
        : transportFailure("connection", attempt, connectionDetail(error));
    }
    if (attempt > options.maxRetries) return failure;
    try {
      await sleep(wait ?? options.backoff(attempt), undefined, { signal: options.signal });
    } catch {
      return transportFailure("aborted", attempt, "");
    }
  }
}

/** Where a redirect points, as an origin and path only (no query, no credentials). */
function redirectTarget(from: string, location: string | null): string {
  if (location === null) return "(no location)";
  try {
    return redactUrl(new URL(location, from).toString());
  } catch {
    return "(an invalid location)";
  }
}

function transportFailure(
  kind: "timeout" | "connection" | "aborted",
  attempts: number,
  detail: string,
): HttpFailure {
  return { ok: false, kind, status: null, json: null, attempts, detail };
}

/** retry-after-ms (milliseconds), or retry-after in seconds or as an HTTP date. */
function retryAfterMs(headers: Headers): number | null {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function connectionDetail(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === "string") return cause.code;
  if (cause && typeof cause.message === "string") return oneLine(cause.message);
  return error instanceof Error ? oneLine(error.message) : String(error);
}

// ---------------------------------------------------------------------------------------------
// command

function commandJudge(config: CommandEvaluatorConfig, options: JudgeOptions): Judge {
  return {
    kind: "command",
    async judge(request) {
      const started = performance.now();
      let requests = 0;
      const finish = (outcome: EvaluationOutcome): JudgeResult => ({
        outcome,
        run: {
          kind: "command",
          provider: null,
          model: null,
          prompt_version: request.bundle.prompt_version,
          input_tokens: null,
          output_tokens: null,
          latency_ms: Math.round(performance.now() - started),
          requests,
        },
      });
      // No sandbox, no run: the command never executes outside one. (Invalid sandbox settings
      // never get here: the App refuses to start on them.)
      const prepared = await prepareSandbox(options.sandbox);
      if (!prepared.ok) {
        return finish({ status: "failed", error: prepared.error, fix: prepared.fix });
      }
      const outcome = await askTwice(
        async (previous) => {
          requests += 1;
          const bundle: EvaluationBundle = {
            ...request.bundle,
            previous_attempt: previous
              ? { output: previous.output.slice(0, PREVIOUS_OUTPUT_LIMIT), error: previous.error }
              : null,
          };
          const result = await runEvaluatorCommand({
            run: config.run,
            input: JSON.stringify(bundle),
            sandbox: prepared.sandbox,
            timeoutMs: config.timeout,
            killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
            signal: request.signal,
          });
          return result.ok ? { ok: true, text: result.stdout } : result;
        },
        (error) => ({
          error: `evaluator.run printed no valid verdict, malformed twice: ${error}`,
          fix: 'make evaluator.run in .github/agate.yml on the base branch print only the verdict JSON {"complete", "score", "missing", "evidence"} on stdout (logs go to stderr); on the retry, the bundle\'s previous_attempt says what was refused and why',
        }),
      );
      return finish(outcome);
    },
  };
}
