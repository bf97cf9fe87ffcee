import { z } from "zod";
import { verdictJsonSchema } from "../../checks/evaluator/parse-verdict.js";
import type { LlmWire } from "./llm-judge.js";

/**
 * The Anthropic Messages API: POST {base_url}/v1/messages with one tool, `verdict`, whose input
 * schema is the verdict's JSON Schema, and tool_choice forcing it. Forced tool use works on every
 * current Claude model and on Anthropic-compatible proxies, where the newer structured-output
 * format is not everywhere yet. The tool input is serialised and read by parseVerdictText, so the
 * same validation applies as for any other evaluator.
 */

const PUBLIC_BASE_URL = "https://api.anthropic.com";
const API_VERSION = "2023-06-01";
/** A verdict is a few hundred tokens; the limit is required by the API and bounds the cost. */
const MAX_TOKENS = 4096;
const TOOL_NAME = "verdict";

const contentBlockSchema = z.union([
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() }),
  z.object({ type: z.string() }).loose(),
]);

const messageSchema = z.object({
  content: z.array(contentBlockSchema),
  stop_reason: z.string().nullish(),
  usage: z
    .object({
      input_tokens: z.number().int().nonnegative().nullish(),
      output_tokens: z.number().int().nonnegative().nullish(),
    })
    .nullish(),
});

const errorSchema = z.object({ error: z.object({ message: z.string() }) });

export const anthropicWire: LlmWire = {
  provider: "anthropic",
  publicBaseUrl: PUBLIC_BASE_URL,
  keyVariable: "ANTHROPIC_API_KEY",
  structuredOutput: "forced tool use (tool_choice {type: tool})",

  // The SDKs' base URL is the host (https://api.anthropic.com); accept one that ends in /v1 too.
  endpoint: (baseUrl) => {
    const url = new URL(baseUrl);
    const base = url.pathname.replace(/\/+$/, "");
    url.pathname = base.endsWith("/v1") ? `${base}/messages` : `${base}/v1/messages`;
    return url.toString();
  },

  headers: (key) => ({
    "anthropic-version": API_VERSION,
    ...(key === null ? {} : { "x-api-key": key }),
  }),

  body: ({ model, prompt, turns, temperature }) => ({
    model,
    max_tokens: MAX_TOKENS,
    ...(temperature ? { temperature: 0 } : {}),
    system: prompt.system,
    messages: [{ role: "user", content: prompt.user }, ...turns],
    tools: [
      {
        name: TOOL_NAME,
        description: "Record your verdict on the pull request. Call it exactly once.",
        input_schema: verdictJsonSchema(),
      },
    ],
    tool_choice: { type: "tool", name: TOOL_NAME },
  }),

  read: (json) => {
    const parsed = messageSchema.safeParse(json);
    if (!parsed.success) {
      return { ok: false, error: "the answer is not a Messages API response (no content array)" };
    }
    const { content, stop_reason, usage } = parsed.data;
    const tokens = { input: usage?.input_tokens ?? null, output: usage?.output_tokens ?? null };
    const call = content.find(
      (block): block is { type: "tool_use"; id: string; name: string; input: unknown } =>
        block.type === "tool_use" && "name" in block && block.name === TOOL_NAME,
    );
    if (call) {
      return {
        ok: true,
        text: JSON.stringify(call.input ?? null),
        usage: tokens,
        // A tool call must be answered by its tool_result: the refusal goes back as one.
        correction: (message) => [
          { role: "assistant", content },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: call.id, is_error: true, content: message },
            ],
          },
        ],
      };
    }
    const text = content
      .map((block) => (block.type === "text" && "text" in block ? String(block.text) : ""))
      .join("");
    return {
      ok: true,
      text,
      ...(stop_reason === "max_tokens" && text === ""
        ? { problem: "the answer was cut off at max_tokens before the verdict" }
        : {}),
      usage: tokens,
      correction: (message) => [
        { role: "assistant", content: text === "" ? "(no answer)" : text },
        { role: "user", content: message },
      ],
    };
  },

  errorMessage: (json) => {
    const parsed = errorSchema.safeParse(json);
    return parsed.success ? parsed.data.error.message : undefined;
  },
};
