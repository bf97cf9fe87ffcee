/**
 * The evaluator as the gate sees it: one `judge` call per bundle that never throws. Behind it,
 * the `llm` kind (llm-judge.ts: a model over HTTP) or the `command` kind (command-judge.ts: the
 * repository's program in a sandbox), both asking twice at most (ask-twice.ts).
 */
import type { EvaluatorConfig } from "../../schemas/config.js";
import type {
  EvaluationBundle,
  EvaluationOutcome,
  EvaluatorRun,
} from "../../schemas/evaluation.js";
import type { Backoff } from "../kit/backoff.js";
import type { ApiKeyVariable } from "./api-keys.js";
import { commandJudge } from "./command-judge.js";
import { llmJudge } from "./llm-judge.js";
import type { CommandSandbox } from "./policy.js";

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

/**
 * What the App's operator set up, as values the App's start read and checked
 * (app/runtime/settings.ts, `settings.evaluator.judgeOptions`); never anything from a repository.
 */
export interface JudgeOptions {
  /**
   * llm: the keys the App may send, by the variable each was set in (trimmed; unset or blank
   * ones absent). Each goes only where it belongs (`apiKey` in api-keys.ts).
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
