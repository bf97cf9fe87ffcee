import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { verdictJsonSchema } from "../../checks/evaluator/parse-verdict.js";
import {
  exampleBundle,
  type FakeLlm,
  type FakeWire,
  startFakeLlm,
} from "../../test/support/fake-llm-server.js";
import {
  createJudge,
  type JudgeOptions,
  type JudgeResult,
  type LlmEvaluatorConfig,
} from "./judge.js";
import type { CommandSandbox } from "./policy.js";

const KEY = "sk-test-4f1d9c2b7a";
const prompt = {
  system: "You are agate's evaluator. SYSTEM-MARKER",
  user: "Judge this. USER-MARKER",
};
const verdict = {
  complete: false,
  score: 0.5,
  missing: ["the --dry-run flag has no test"],
  evidence: ["src/cli.ts reads --dry-run"],
};

/** The llm kind never uses it. */
const UNUSED_SANDBOX: CommandSandbox = {
  bwrap: "bwrap",
  network: "none",
  paths: [],
  env: [],
  searchPath: "",
  passEnv: {},
  appPlaces: [],
};

const KEY_VARIABLE: Record<FakeWire, "OPENAI_API_KEY" | "ANTHROPIC_API_KEY"> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

interface Conversation {
  /** The system prompt, wherever the wire puts it. */
  system: unknown;
  /** The messages after the system prompt. */
  messages: { role: string; content: unknown }[];
}

function conversation(wire: FakeWire, body: unknown): Conversation {
  const b = body as { system?: unknown; messages: { role: string; content: unknown }[] };
  if (wire === "anthropic") return { system: b.system, messages: b.messages };
  const [system, ...messages] = b.messages;
  expect(system?.role).toBe("system");
  return { system: system?.content, messages };
}

describe.each(["openai", "anthropic"] as const)("llm evaluator, %s wire", (wire) => {
  let llm: FakeLlm;
  const backoffCalls: number[] = [];

  beforeEach(async () => {
    llm = await startFakeLlm({ wire });
    backoffCalls.length = 0;
  });
  afterEach(async () => {
    await llm.close();
  });

  const config = (overrides: Partial<LlmEvaluatorConfig> = {}): LlmEvaluatorConfig => ({
    kind: "llm",
    provider: wire,
    model: "judge-model-1",
    base_url: llm.url,
    min_score: 0.8,
    rubric: "",
    ...overrides,
  });

  const judge = (
    overrides: Partial<JudgeOptions> = {},
    evaluator: LlmEvaluatorConfig = config(),
    signal?: AbortSignal,
  ): Promise<JudgeResult> =>
    createJudge(evaluator, {
      apiKeys: { AGATE_EVALUATOR_API_KEY: KEY },
      apiKeyUrls: [llm.url],
      sandbox: UNUSED_SANDBOX,
      timeoutMs: 5_000,
      backoff: (attempt) => {
        backoffCalls.push(attempt);
        return 5;
      },
      ...overrides,
    }).judge({ bundle: exampleBundle(), prompt, ...(signal ? { signal } : {}) });

  it("returns the parsed verdict and records provider, model, tokens, latency and requests", async () => {
    llm.script({ verdict, usage: { input: 1234, output: 56 } });
    const result = await judge();
    expect(result.outcome).toEqual({ status: "verdict", verdict });
    expect(result.run).toEqual({
      kind: "llm",
      provider: wire,
      model: "judge-model-1",
      prompt_version: exampleBundle().prompt_version,
      input_tokens: 1234,
      output_tokens: 56,
      latency_ms: expect.any(Number),
      requests: 1,
    });
    expect(result.run.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("sends the system and user prompt, the model, temperature 0 and the forced verdict schema", async () => {
    llm.script({ verdict });
    await judge();
    expect(llm.requests).toHaveLength(1);
    const request = llm.requests[0];
    expect(request?.method).toBe("POST");
    const body = request?.body as Record<string, unknown>;
    expect(body.model).toBe("judge-model-1");
    expect(body.temperature).toBe(0);
    const { system, messages } = conversation(wire, body);
    expect(system).toBe(prompt.system);
    expect(messages).toEqual([{ role: "user", content: prompt.user }]);
    if (wire === "openai") {
      expect(request?.path).toBe("/v1/chat/completions");
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: { name: "verdict", strict: true, schema: verdictJsonSchema() },
      });
    } else {
      expect(request?.path).toBe("/v1/messages");
      expect(body.tools).toEqual([
        expect.objectContaining({ name: "verdict", input_schema: verdictJsonSchema() }),
      ]);
      expect(body.tool_choice).toEqual({ type: "tool", name: "verdict" });
      expect(body.max_tokens).toEqual(expect.any(Number));
      expect(request?.headers["anthropic-version"]).toBe("2023-06-01");
    }
  });

  it("sends the key in the auth header and nowhere else", async () => {
    llm.script({ verdict });
    await judge();
    const request = llm.requests[0];
    const authHeader = wire === "openai" ? "authorization" : "x-api-key";
    expect(request?.headers[authHeader]).toBe(wire === "openai" ? `Bearer ${KEY}` : KEY);
    const otherHeaders = Object.entries(request?.headers ?? {}).filter(([n]) => n !== authHeader);
    expect(JSON.stringify(otherHeaders)).not.toContain(KEY);
    expect(request?.raw).not.toContain(KEY);
    expect(request?.path).not.toContain(KEY);
  });

  it("sends the provider's own key only to its public endpoint, never to another", async () => {
    llm.script({ verdict });
    const result = await judge({ apiKeys: { [KEY_VARIABLE[wire]]: KEY }, apiKeyUrls: [] });
    expect(result.outcome.status).toBe("verdict");
    expect(llm.requests[0]?.headers.authorization).toBeUndefined();
    expect(llm.requests[0]?.headers["x-api-key"]).toBeUndefined();
    expect(JSON.stringify(llm.requests[0]?.headers)).not.toContain(KEY);
  });

  it("sends AGATE_EVALUATOR_API_KEY only to the origin AGATE_EVALUATOR_API_KEY_URL names", async () => {
    llm.script({ status: 401 });
    const result = await judge({
      apiKeys: { AGATE_EVALUATOR_API_KEY: KEY },
      // Another origin (the key is bound to scheme, host and port, as written).
      apiKeyUrls: ["https://llm.example/v1"],
    });
    expect(JSON.stringify(llm.requests[0]?.headers)).not.toContain(KEY);
    expect(result.outcome).toMatchObject({
      status: "failed",
      error: expect.stringContaining("HTTP 401"),
      fix: expect.stringContaining(
        `the endpoint wants a key: set AGATE_EVALUATOR_API_KEY with AGATE_EVALUATOR_API_KEY_URL=${llm.url}`,
      ),
    });
  });

  it("refuses to send AGATE_EVALUATOR_API_KEY anywhere while AGATE_EVALUATOR_API_KEY_URL is unset", async () => {
    // The App refuses to start so; a judge given such options holds all the same.
    const result = await judge({ apiKeys: { AGATE_EVALUATOR_API_KEY: KEY }, apiKeyUrls: [] });
    expect(result.run.requests).toBe(0);
    expect(llm.requests).toHaveLength(0);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining("AGATE_EVALUATOR_API_KEY_URL does not say which endpoint"),
      fix: expect.stringContaining("sets AGATE_EVALUATOR_API_KEY_URL"),
    });
  });

  it("never follows a redirect: the second server hears nothing, and the evaluation fails naming both", async () => {
    const elsewhere = await startFakeLlm({ wire });
    try {
      const target = `${elsewhere.url.replace(/\/v1$/, "")}${wire === "openai" ? "/v1/chat/completions" : "/v1/messages"}`;
      for (const status of [301, 302, 307, 308] as const) {
        llm.requests.length = 0;
        llm.script({ redirectTo: `${target}?stolen=1`, status });
        const result = await judge();
        expect(llm.requests).toHaveLength(1);
        expect(elsewhere.requests).toHaveLength(0);
        // Not a transport error: a redirect is not retried.
        expect(result.run.requests).toBe(1);
        expect(result.outcome).toEqual({
          status: "failed",
          error: `${llm.url.replace(/\/$/, "")}${wire === "openai" ? "/chat/completions" : "/v1/messages"} answered HTTP ${status}, a redirect to ${target}; agate never follows an evaluator endpoint's redirects (the key and the prompt would go along)`,
          fix: expect.stringContaining("point evaluator.base_url"),
        });
        expect(JSON.stringify(result)).not.toContain(KEY);
      }
    } finally {
      await elsewhere.close();
    }
  });

  it("sends no auth header to a custom endpoint when no key is set", async () => {
    llm.script({ verdict });
    const result = await judge({ apiKeys: {}, apiKeyUrls: [] });
    expect(result.outcome.status).toBe("verdict");
    expect(llm.requests[0]?.headers.authorization).toBeUndefined();
    expect(llm.requests[0]?.headers["x-api-key"]).toBeUndefined();
  });

  it("asks the public endpoint nothing without a key, and says which variable to set", async () => {
    const { base_url: _local, ...publicConfig } = config();
    // Only the key variables are read at all (GITHUB_TOKEN, say, never is).
    const result = await judge({ apiKeys: {}, apiKeyUrls: [] }, publicConfig);
    expect(result.run.requests).toBe(0);
    expect(llm.requests).toHaveLength(0);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining("no API key"),
      fix: expect.stringContaining(
        `set ${KEY_VARIABLE[wire]} (or AGATE_EVALUATOR_API_KEY with AGATE_EVALUATOR_API_KEY_URL=${wire === "openai" ? "https://api.openai.com/v1" : "https://api.anthropic.com"})`,
      ),
    });
  });

  it("asks once more with the parse error after malformed JSON, then takes the verdict", async () => {
    llm.script({ text: "I think it is mostly done.", usage: { input: 100, output: 10 } });
    llm.script({ verdict, usage: { input: 150, output: 20 } });
    const result = await judge();
    expect(result.outcome).toEqual({ status: "verdict", verdict });
    expect(result.run).toMatchObject({ requests: 2, input_tokens: 250, output_tokens: 30 });

    const { messages } = conversation(wire, llm.requests[1]?.body);
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: "I think it is mostly done.",
    });
    expect(messages[2]?.role).toBe("user");
    expect(messages[2]?.content).toEqual(expect.stringContaining("not JSON: Unexpected token"));
    expect(messages[2]?.content).toEqual(expect.stringContaining("only the JSON object"));
  });

  it("retries a verdict missing a field with an error naming the field", async () => {
    const { evidence: _evidence, ...partial } = verdict;
    llm.script({ verdict: partial }, { verdict });
    const result = await judge();
    expect(result.outcome).toEqual({ status: "verdict", verdict });
    expect(result.run.requests).toBe(2);

    const { messages } = conversation(wire, llm.requests[1]?.body);
    const correction = JSON.stringify(messages.at(-1));
    expect(correction).toContain(
      'missing field: expected an array of non-empty strings at \\"evidence\\"',
    );
    if (wire === "anthropic") {
      // The forced tool call is answered by its tool_result, marked as an error.
      expect(messages[1]?.content).toEqual([
        expect.objectContaining({ type: "tool_use", name: "verdict" }),
      ]);
      const toolUse = (messages[1]?.content as { id: string }[] | undefined)?.[0];
      expect(messages[2]?.content).toEqual([
        expect.objectContaining({ type: "tool_result", tool_use_id: toolUse?.id, is_error: true }),
      ]);
    }
  });

  it("fails after a second malformed answer, with the error and a fix", async () => {
    llm.script({ text: "Looks good to me!" }, { text: "Really, it is fine." });
    const result = await judge();
    expect(result.run.requests).toBe(2);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringMatching(/answered malformed twice: not JSON/),
      fix: expect.stringContaining("evaluator.model"),
    });
    expect(llm.requests).toHaveLength(2);
  });

  it("fails on a timeout, after its transport retries, naming the timeout and the endpoint", async () => {
    llm.script({ delayMs: 2_000 }, { delayMs: 2_000 }, { delayMs: 2_000 });
    const result = await judge({ timeoutMs: 200 });
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining(`within 200 ms (3 attempts)`),
      fix: expect.stringContaining("timeout"),
    });
    if (result.outcome.status === "failed") {
      expect(result.outcome.error).toContain(llm.url.replace(/\/v1$/, ""));
    }
    expect(result.run.requests).toBe(3);
  });

  it("honours retry-after on a 429 and then succeeds", async () => {
    llm.script({ status: 429, headers: { "retry-after": "0" } }, { verdict });
    const result = await judge();
    expect(result.outcome).toEqual({ status: "verdict", verdict });
    expect(result.run.requests).toBe(2);
    // The header set the wait, so the backoff was not consulted.
    expect(backoffCalls).toEqual([]);
  });

  it("does not wait for a retry-after longer than the cap: fails at once and says so", async () => {
    llm.script({ status: 429, headers: { "retry-after": "3600" } }, { verdict });
    const result = await judge({ maxRetryAfterMs: 1_000 });
    expect(result.run.requests).toBe(1);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining("HTTP 429"),
      fix: expect.stringMatching(/asked to wait 3600 s.*raise your provider's rate limit/),
    });
  });

  it("retries a 500 with backoff and takes the verdict that follows", async () => {
    llm.script({ status: 500 }, { verdict });
    const result = await judge();
    expect(result.outcome).toEqual({ status: "verdict", verdict });
    expect(result.run.requests).toBe(2);
    expect(backoffCalls).toEqual([1]);
  });

  it("fails after maxRetries + 1 requests when the endpoint keeps answering 500", async () => {
    llm.script({ status: 500 }, { status: 503 }, { status: 500 }, { verdict });
    const result = await judge({ maxRetries: 2 });
    expect(result.run.requests).toBe(3);
    expect(llm.requests).toHaveLength(3);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringMatching(
        /^HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/.*fake-llm: scripted 500 \(after 3 attempts\)$/,
      ),
      fix: expect.stringContaining("failed 3 attempts in a row"),
    });
  });

  it("retries a dropped connection", async () => {
    llm.script({ drop: true }, { verdict });
    const result = await judge();
    expect(result.outcome).toEqual({ status: "verdict", verdict });
    expect(result.run.requests).toBe(2);
  });

  it("does not retry a 401 and names the variable that holds the refused key", async () => {
    llm.script({ status: 401 }, { verdict });
    const result = await judge();
    expect(result.run.requests).toBe(1);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining("HTTP 401 from"),
      fix: expect.stringContaining("the key in AGATE_EVALUATOR_API_KEY was refused"),
    });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it("never repeats the key, even when the endpoint's error message echoes it", async () => {
    llm.script({
      status: 401,
      body:
        wire === "openai"
          ? { error: { message: `Incorrect API key provided: ${KEY}.` } }
          : {
              type: "error",
              error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` },
            },
    });
    const result = await judge();
    expect(result.outcome.status).toBe("failed");
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(JSON.stringify(result)).toContain("***");
  });

  it("names evaluator.model when the endpoint does not know the model", async () => {
    llm.script({ status: 404 });
    const result = await judge();
    expect(result.run.requests).toBe(1);
    expect(result.outcome).toMatchObject({
      status: "failed",
      fix: expect.stringContaining("evaluator.model judge-model-1 is unknown at http://127.0.0.1:"),
    });
  });

  it("refuses credentials in base_url before any request, and never repeats them", async () => {
    const url = new URL(llm.url);
    url.username = "user";
    url.password = "hunter2";
    const result = await judge({}, config({ base_url: url.toString() }));
    expect(result.run.requests).toBe(0);
    expect(result.outcome).toMatchObject({
      status: "failed",
      error: expect.stringContaining("carries credentials"),
      fix: expect.stringContaining("remove them from evaluator.base_url"),
    });
    expect(JSON.stringify(result)).not.toContain("hunter2");
  });

  it("keeps a query in base_url on the request but out of its messages", async () => {
    llm.script({ status: 400 });
    const result = await judge({}, config({ base_url: `${llm.url}?api-version=2024-10-21` }));
    expect(llm.requests[0]?.path).toMatch(
      /\/messages\?api-version=2024-10-21$|\/chat\/completions\?api-version=2024-10-21$/,
    );
    expect(result.outcome.status).toBe("failed");
    expect(JSON.stringify(result.outcome)).not.toContain("api-version");
  });

  it("stops when the caller aborts, without throwing", async () => {
    llm.script({ delayMs: 2_000 });
    const controller = new AbortController();
    const pending = judge({}, config(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(result.outcome).toEqual({
      status: "failed",
      error: "the evaluation was cancelled",
      fix: "use Re-run evaluator",
    });
  });
});

describe("llm evaluator, OpenAI specifics", () => {
  let llm: FakeLlm;
  beforeEach(async () => {
    llm = await startFakeLlm({ wire: "openai" });
  });
  afterEach(async () => {
    await llm.close();
  });

  const judge = () =>
    createJudge(
      {
        kind: "llm",
        provider: "openai",
        model: "o-reasoner",
        base_url: llm.url,
        min_score: 0.8,
        rubric: "",
      },
      {
        apiKeys: { AGATE_EVALUATOR_API_KEY: KEY },
        apiKeyUrls: [llm.url],
        sandbox: UNUSED_SANDBOX,
        timeoutMs: 5_000,
        backoff: () => 5,
      },
    ).judge({ bundle: exampleBundle(), prompt });

  it("asks again without temperature when the model refuses temperature 0", async () => {
    llm.script(
      {
        status: 400,
        body: {
          error: {
            message: "Unsupported value: 'temperature' does not support 0 with this model.",
            type: "invalid_request_error",
            param: "temperature",
            code: "unsupported_value",
          },
        },
      },
      {
        verdict: {
          complete: true,
          score: 0.9,
          missing: [],
          evidence: ["all items done"],
        },
      },
    );
    const result = await judge();
    expect(result.outcome.status).toBe("verdict");
    expect(result.run.requests).toBe(2);
    expect(llm.requests[0]?.body).toHaveProperty("temperature", 0);
    expect(llm.requests[1]?.body).not.toHaveProperty("temperature");
  });

  it("reads a refusal as a malformed answer and says the model refused", async () => {
    const refusal = {
      status: 200,
      body: {
        choices: [
          { message: { role: "assistant", content: null, refusal: "I can't help with that." } },
        ],
      },
    };
    llm.script(refusal, refusal);
    const result = await judge();
    expect(result.run.requests).toBe(2);
    expect(result.outcome).toMatchObject({
      status: "failed",
      error: expect.stringContaining("malformed twice: the model refused to answer: I can't help"),
    });
    // The retry replays the refusal as the assistant's turn and asks for the JSON.
    const { messages } = conversation("openai", llm.requests[1]?.body);
    expect(messages.slice(1).map((m) => m.role)).toEqual(["assistant", "user"]);
    expect(messages[1]?.content).toBe("I can't help with that.");
  });

  it("counts an empty answer as malformed", async () => {
    llm.script({ text: "" }, { text: "   " });
    const result = await judge();
    expect(result.outcome).toMatchObject({
      status: "failed",
      error: expect.stringContaining("malformed twice: empty answer"),
    });
  });

  it("says so when the endpoint is not a Chat Completions API", async () => {
    llm.script({ status: 200, body: { hello: "world" } });
    const result = await judge();
    expect(result.run.requests).toBe(1);
    expect(result.outcome).toMatchObject({
      status: "failed",
      error: expect.stringContaining("not a Chat Completions response"),
      fix: expect.stringContaining("evaluator.base_url"),
    });
  });
});
