/**
 * Which API key may go to which evaluator endpoint. The keys are the operator's; the endpoint is
 * picked by a repository's config (from the operator's list), so a key goes only where it
 * belongs, never where a repository points it.
 */
import type { JudgeOptions } from "./judge.js";
import type { LlmWire } from "./llm-judge.js";

/** The variables an API key may come from: the operator's, and each provider's own. */
export const API_KEY_VARIABLES = [
  "AGATE_EVALUATOR_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
] as const;
export type ApiKeyVariable = (typeof API_KEY_VARIABLES)[number];

/** The operator's key, sent only to the endpoints named in AGATE_EVALUATOR_API_KEY_URL. */
export const EVALUATOR_KEY_VARIABLE = "AGATE_EVALUATOR_API_KEY" satisfies ApiKeyVariable;
export const EVALUATOR_KEY_URL_VARIABLE = "AGATE_EVALUATOR_API_KEY_URL";

/**
 * The key for a request to `origin`, and only a key that belongs there: the operator's
 * AGATE_EVALUATOR_API_KEY goes only to the origins named in AGATE_EVALUATOR_API_KEY_URL, and a
 * provider's own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY) only to that provider's public
 * endpoint. A repository picks the provider and, from the operator's list, the endpoint: without
 * this, it could send the OpenAI key to Anthropic, or either to a plain-HTTP local server.
 */
export function apiKey(
  options: Pick<JudgeOptions, "apiKeys" | "apiKeyUrls">,
  wire: Pick<LlmWire, "keyVariable" | "publicBaseUrl">,
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
