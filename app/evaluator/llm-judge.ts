/**
 * The `llm` evaluator: a model behind an OpenAI-compatible or Anthropic endpoint, asked for a
 * structured verdict. The endpoint comes from a repository's config (within the operator's list),
 * so the key sent is only one that belongs to it (api-keys.ts), credentials never ride in its
 * URL, a refused key never shows in an error, and redirects are never followed (http.ts).
 */
import type { EvaluationOutcome } from "../../schemas/evaluation.js";
import { exponentialBackoff } from "../kit/backoff.js";
import { anthropicWire } from "./anthropic.js";
import {
  type ApiKeyVariable,
  apiKey,
  EVALUATOR_KEY_URL_VARIABLE,
  EVALUATOR_KEY_VARIABLE,
} from "./api-keys.js";
import { type Answer, askTwice, correctionMessage, type Previous } from "./ask-twice.js";
import { type HttpFailure, oneLine, type PostOptions, postJson, redactUrl } from "./http.js";
import type {
  EvaluatorPrompt,
  Judge,
  JudgeOptions,
  JudgeRequest,
  JudgeResult,
  LlmEvaluatorConfig,
} from "./judge.js";
import { openaiWire } from "./openai.js";

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

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

interface Meter {
  requests: number;
  input: number | null;
  output: number | null;
}

function addUsage(meter: Meter, usage: { input: number | null; output: number | null }): void {
  if (usage.input !== null) meter.input = (meter.input ?? 0) + usage.input;
  if (usage.output !== null) meter.output = (meter.output ?? 0) + usage.output;
}

/** The config and the operator's options, resolved once per judge. */
interface LlmSettings {
  config: LlmEvaluatorConfig;
  wire: LlmWire;
  baseUrl: string;
  transport: Pick<PostOptions, "timeoutMs" | "maxRetries" | "backoff" | "maxRetryAfterMs">;
}

/** The endpoint one evaluation asks, as errors show it, and where its key may come from. */
interface Endpoint {
  url: string;
  shown: string;
  origin: string;
  /** How to set a key for it, for the fix of an error. */
  keyHelp: string;
}

type ChosenKey = { variable: ApiKeyVariable; value: string } | null;

export function llmJudge(config: LlmEvaluatorConfig, options: JudgeOptions): Judge {
  const wire = WIRES[config.provider];
  const settings: LlmSettings = {
    config,
    wire,
    baseUrl: config.base_url ?? wire.publicBaseUrl,
    transport: {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      backoff: options.backoff ?? exponentialBackoff({ baseMs: 1_000, maxMs: 16_000 }),
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    },
  };
  return { kind: "llm", judge: (request) => evaluate(settings, options, request) };
}

async function evaluate(
  settings: LlmSettings,
  options: JudgeOptions,
  request: JudgeRequest,
): Promise<JudgeResult> {
  const { config, wire } = settings;
  const started = performance.now();
  const meter: Meter = { requests: 0, input: null, output: null };
  const endpoint = endpointOf(settings);
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

  const chosen = keyFor(settings, options, endpoint);
  if ("refused" in chosen) return finish(chosen.refused);
  secret = chosen.key?.value ?? null;
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
    ...wire.headers(chosen.key?.value ?? null, endpoint.url),
  };
  const ask = asker(settings, endpoint, chosen.key, headers, request, meter);
  const outcome = await askTwice(ask, (error) => ({
    error: `${config.provider} model ${config.model} at ${endpoint.shown} answered malformed twice: ${error}`,
    fix: `choose an evaluator.model that supports ${wire.structuredOutput} (set it in .github/agate.yml on the base branch), then use Re-run evaluator`,
  }));
  return finish(outcome);
}

function endpointOf({ wire, baseUrl }: LlmSettings): Endpoint {
  const url = wire.endpoint(baseUrl);
  const origin = new URL(url).origin;
  const isPublic = origin === new URL(wire.publicBaseUrl).origin;
  return {
    url,
    shown: redactUrl(url),
    origin,
    keyHelp: isPublic
      ? `${wire.keyVariable} (or ${EVALUATOR_KEY_VARIABLE} with ${EVALUATOR_KEY_URL_VARIABLE}=${redactUrl(baseUrl)})`
      : `${EVALUATOR_KEY_VARIABLE} with ${EVALUATOR_KEY_URL_VARIABLE}=${redactUrl(baseUrl)}`,
  };
}

/** The key to send, or why no request is made at all. */
function keyFor(
  { wire, baseUrl }: LlmSettings,
  options: JudgeOptions,
  endpoint: Endpoint,
): { key: ChosenKey } | { refused: EvaluationOutcome } {
  const parsedBase = new URL(baseUrl);
  if (parsedBase.username !== "" || parsedBase.password !== "") {
    // The config lives in the repository: a secret there is readable by everyone who can read it.
    return {
      refused: {
        status: "failed",
        error: `evaluator.base_url ${endpoint.shown} carries credentials in the URL, which fetch will not send`,
        fix: `remove them from evaluator.base_url in .github/agate.yml on the base branch (and revoke them: the repository shows them to everyone who can read it), and set ${endpoint.keyHelp} in the App's environment`,
      },
    };
  }
  const chosen = apiKey(options, wire, endpoint.origin);
  if ("problem" in chosen) {
    return {
      refused: {
        status: "failed",
        error: chosen.problem,
        fix: `the App's operator sets ${EVALUATOR_KEY_URL_VARIABLE} to the base URL the key in ${EVALUATOR_KEY_VARIABLE} belongs to`,
      },
    };
  }
  // Local servers (Ollama, vLLM, llama.cpp) often need no key; the public endpoint always does.
  if (chosen.key === null && endpoint.origin === new URL(wire.publicBaseUrl).origin) {
    return {
      refused: {
        status: "failed",
        error: `no API key for ${endpoint.shown}: ${wire.keyVariable} is not set in the App's environment, and ${EVALUATOR_KEY_VARIABLE} (if set) belongs to another endpoint`,
        fix: `set ${endpoint.keyHelp} in the App's environment, or point evaluator.base_url in .github/agate.yml on the base branch at an endpoint that needs no key`,
      },
    };
  }
  return { key: chosen.key };
}

/**
 * One question to the model per call, carrying the conversation on: after a malformed answer the
 * next call adds the wire's correction turns; an endpoint that refuses temperature 0 is asked
 * again without it.
 */
function asker(
  settings: LlmSettings,
  endpoint: Endpoint,
  key: ChosenKey,
  headers: Record<string, string>,
  request: JudgeRequest,
  meter: Meter,
): (previous: Previous | null) => Promise<Answer> {
  const { config, wire } = settings;
  let turns: unknown[] = [];
  let correction: ((message: string) => unknown[]) | null = null;
  let temperature = true;
  return async (previous) => {
    if (previous && correction)
      turns = [...turns, ...correction(correctionMessage(previous.error))];
    for (;;) {
      const body = wire.body({ model: config.model, prompt: request.prompt, turns, temperature });
      const response = await postJson({
        url: endpoint.url,
        headers,
        body,
        ...settings.transport,
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
        return { ok: false, ...describeHttpFailure(settings, endpoint, key, response, message) };
      }
      const reply = wire.read(response.json);
      if (!reply.ok) {
        return {
          ok: false,
          error: `${endpoint.shown} answered 200, but ${reply.error}`,
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
}

/** What went wrong with the endpoint, and what the operator or the repository can do about it. */
function describeHttpFailure(
  { config, wire, baseUrl, transport }: LlmSettings,
  endpoint: Endpoint,
  key: ChosenKey,
  failure: HttpFailure,
  providerMessage: string | undefined,
): { error: string; fix: string } {
  const shownEndpoint = endpoint.shown;
  const said = providerMessage ? `: ${oneLine(providerMessage)}` : "";
  const attempts = `${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"}`;
  switch (failure.kind) {
    case "aborted":
      return { error: "the evaluation was cancelled", fix: "use Re-run evaluator" };
    case "timeout":
      return {
        error: `no answer from ${shownEndpoint} within ${transport.timeoutMs} ms (${attempts})`,
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
        ? `the key in ${key.variable} was refused: set a valid key for ${shownEndpoint} in ${endpoint.keyHelp} in the App's environment`
        : `the endpoint wants a key: set ${endpoint.keyHelp} in the App's environment`,
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
}
