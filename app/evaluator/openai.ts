import { z } from "zod";
import { verdictJsonSchema } from "../../checks/evaluator/parse-verdict.js";
import type { LlmWire } from "./llm-judge.js";

/**
 * Any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure's v1 API, vLLM, Ollama,
 * llama.cpp server, LiteLLM): POST {base_url}/chat/completions with the verdict's JSON Schema as
 * strict structured output, so a capable endpoint cannot answer anything but a verdict.
 */

const PUBLIC_BASE_URL = "https://api.openai.com/v1";

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative().nullish(),
      completion_tokens: z.number().int().nonnegative().nullish(),
    })
    .nullish(),
});

const errorSchema = z.object({
  error: z.union([z.object({ message: z.string() }), z.string()]),
});

export const openaiWire: LlmWire = {
  provider: "openai",
  publicBaseUrl: PUBLIC_BASE_URL,
  keyVariable: "OPENAI_API_KEY",
  structuredOutput: 'JSON-schema structured output (response_format type "json_schema")',

  // The path is appended; a query such as Azure's ?api-version= stays where it belongs.
  endpoint: (baseUrl) => {
    const url = new URL(baseUrl);
    url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
    return url.toString();
  },

  headers: (key, endpoint): Record<string, string> => {
    if (key === null) return {};
    // Azure's endpoints take the key in their own header; everything else takes a bearer token.
    if (new URL(endpoint).hostname.endsWith(".azure.com")) return { "api-key": key };
    return { authorization: `Bearer ${key}` };
  },

  body: ({ model, prompt, turns, temperature }) => ({
    model,
    messages: [
      { role: "system", content: prompt.system },
      { role: "user", content: prompt.user },
      ...turns,
    ],
    ...(temperature ? { temperature: 0 } : {}),
    response_format: {
      type: "json_schema",
      json_schema: { name: "verdict", strict: true, schema: verdictJsonSchema() },
    },
  }),

  read: (json) => {
    const parsed = completionSchema.safeParse(json);
    if (!parsed.success) {
      return {
        ok: false,
        error: "the answer is not a Chat Completions response (no choices[0].message)",
      };
    }
    const choice = parsed.data.choices[0];
    const message = choice?.message;
    const text = message?.content ?? "";
    const refusal = message?.refusal;
    return {
      ok: true,
      text,
      ...(refusal
        ? { problem: `the model refused to answer: ${refusal.slice(0, 300)}` }
        : choice?.finish_reason === "length" && text === ""
          ? { problem: "the answer was cut off at the output token limit before any JSON" }
          : {}),
      usage: {
        input: parsed.data.usage?.prompt_tokens ?? null,
        output: parsed.data.usage?.completion_tokens ?? null,
      },
      correction: (message_) => [
        { role: "assistant", content: refusal ? refusal : text },
        { role: "user", content: message_ },
      ],
    };
  },

  errorMessage: (json) => {
    const parsed = errorSchema.safeParse(json);
    if (!parsed.success) return undefined;
    return typeof parsed.data.error === "string" ? parsed.data.error : parsed.data.error.message;
  },
};
