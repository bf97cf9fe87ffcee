import type { CommandEvaluatorConfig, LlmEvaluatorConfig } from "./judge.js";

/**
 * What the App's operator allows repositories to make it do. The evaluator config comes from a
 * repository's base branch, and anyone can install the App: without these lists, a repository
 * could make the App run any program on its host (`evaluator.run`) or send the operator's API key
 * to any URL (`evaluator.base_url`).
 */
export interface EvaluatorPolicy {
  /** Base URLs besides the providers' public endpoints (AGATE_EVALUATOR_BASE_URLS). */
  baseUrls: readonly string[];
  /** Exact `evaluator.run` strings the App may execute (AGATE_EVALUATOR_COMMANDS). */
  commands: readonly string[];
}

const normalUrl = (url: string) => url.trim().replace(/\/+$/, "");

/** null when allowed; otherwise what is refused and the exact setting that allows it. */
export function policyRefusal(
  config: LlmEvaluatorConfig | CommandEvaluatorConfig,
  policy: EvaluatorPolicy,
): { error: string; fix: string } | null {
  if (config.kind === "llm") {
    if (config.base_url === undefined) return null;
    const url = normalUrl(config.base_url);
    if (policy.baseUrls.some((allowed) => normalUrl(allowed) === url)) return null;
    return {
      error: `evaluator.base_url ${url} is not an endpoint this App may call`,
      fix: `the App's operator adds ${url} to AGATE_EVALUATOR_BASE_URLS (comma-separated), or remove evaluator.base_url from .github/agate.yml on the base branch to use the provider's public endpoint`,
    };
  }
  if (policy.commands.includes(config.run)) return null;
  return {
    error: `evaluator.run ${JSON.stringify(config.run)} is not a command this App may execute`,
    fix: "the App's operator lists that exact command, one per line, in AGATE_EVALUATOR_COMMANDS, or set evaluator.kind to llm or review in .github/agate.yml on the base branch",
  };
}

/** Parses the two settings: comma- or newline-separated URLs, newline-separated commands. */
export function evaluatorPolicyFrom(
  env: Readonly<Record<string, string | undefined>>,
): EvaluatorPolicy {
  const list = (text: string | undefined, separator: RegExp) =>
    (text ?? "")
      .split(separator)
      .map((item) => item.trim())
      .filter((item) => item !== "");
  return {
    baseUrls: list(env.AGATE_EVALUATOR_BASE_URLS, /[,\n]/),
    commands: list(env.AGATE_EVALUATOR_COMMANDS, /\n/),
  };
}
