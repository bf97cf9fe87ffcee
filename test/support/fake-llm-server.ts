import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  EVALUATOR_PROMPT_VERSION,
  type EvaluationBundle,
  evaluationBundleSchema,
} from "../../schemas/evaluation.js";

/**
 * Local stand-ins for a hosted model, which cannot be reached from tests: an HTTP server that
 * speaks the OpenAI Chat Completions or the Anthropic Messages wire format, answers from a
 * script and records every request. The client under test is the real one.
 *
 *   const llm = await startFakeLlm({ wire: "openai" });
 *   llm.script({ verdict: { complete: true, score: 1, missing: [], evidence: ["..."] } });
 *   // config: { kind: "llm", provider: "openai", model: "m", base_url: llm.url }
 *   expect(llm.requests[0]?.body).toMatchObject({ model: "m" });
 *   await llm.close();
 *
 * Each request takes the next scripted response; when the script is empty the server answers
 * 500 with "fake-llm: no scripted response left", so an unexpected request shows up as a failure.
 */

export type FakeWire = "openai" | "anthropic";

export interface FakeUsage {
  input: number;
  output: number;
}

export type FakeResponse =
  /** A well-formed answer carrying this object: OpenAI message content, Anthropic tool input. */
  | { verdict: Record<string, unknown>; usage?: FakeUsage }
  /** A well-formed answer whose content is this raw text (Anthropic: a text block, no tool call). */
  | { text: string; usage?: FakeUsage }
  /** Any status with this body (default: the wire format's error object), e.g. 429 + retry-after. */
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Waits before answering with `then` (default: a verdict that must never be read). */
  | { delayMs: number; then?: FakeResponse }
  /** Closes the connection without an answer. */
  | { drop: true }
  /** Answers a redirect (default 307, which keeps the method and body) to this absolute URL. */
  | { redirectTo: string; status?: 301 | 302 | 303 | 307 | 308 };

export interface RecordedRequest {
  method: string;
  /** Path with query, such as /v1/chat/completions. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** The body exactly as it arrived, to search for what must not be in it. */
  raw: string;
}

export interface FakeLlm {
  wire: FakeWire;
  /** What goes into `evaluator.base_url`: http://127.0.0.1:PORT/v1 (openai) or http://127.0.0.1:PORT (anthropic). */
  url: string;
  requests: RecordedRequest[];
  /** Appends responses to the queue. */
  script(...responses: FakeResponse[]): void;
  close(): Promise<void>;
}

const PATHS: Record<FakeWire, string> = {
  openai: "/v1/chat/completions",
  anthropic: "/v1/messages",
};

/** What a delayed answer sends if nobody told it otherwise; a client that reads it has a bug. */
const LATE_VERDICT = { complete: true, score: 1, missing: [], evidence: ["a late answer"] };

export async function startFakeLlm(options: { wire: FakeWire }): Promise<FakeLlm> {
  const { wire } = options;
  const queue: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // Kept as text: the assertion shows what arrived.
      }
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
        raw,
      });

      // Strict like the real endpoint: only its one route answers.
      if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== PATHS[wire]) {
        return send(res, 404, errorBody(wire, 404, `fake-llm: no route ${req.method} ${req.url}`));
      }
      const next = queue.shift();
      if (!next) {
        return send(res, 500, errorBody(wire, 500, "fake-llm: no scripted response left"));
      }
      respond(res, next, body);
    });
  });

  function respond(res: ServerResponse, response: FakeResponse, request: unknown): void {
    if ("drop" in response) {
      res.socket?.destroy();
      return;
    }
    if ("redirectTo" in response) {
      send(res, response.status ?? 307, "", { location: response.redirectTo });
      return;
    }
    if ("delayMs" in response) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        // The client may have given up and closed the socket; then there is nobody to answer.
        if (!res.destroyed) respond(res, response.then ?? { verdict: LATE_VERDICT }, request);
      }, response.delayMs);
      timers.add(timer);
      return;
    }
    if ("status" in response) {
      send(
        res,
        response.status,
        response.body ?? errorBody(wire, response.status, `fake-llm: scripted ${response.status}`),
        response.headers,
      );
      return;
    }
    const model = modelOf(request);
    const usage = response.usage ?? { input: 120, output: 30 };
    if (wire === "openai") {
      const content = "verdict" in response ? JSON.stringify(response.verdict) : response.text;
      send(res, 200, {
        id: `chatcmpl-${randomUUID()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content, refusal: null },
            finish_reason: "stop",
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      });
      return;
    }
    const content =
      "verdict" in response
        ? [
            {
              type: "tool_use",
              id: `toolu_${randomUUID()}`,
              name: "verdict",
              input: response.verdict,
            },
          ]
        : [{ type: "text", text: response.text }];
    send(res, 200, {
      id: `msg_${randomUUID()}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: "verdict" in response ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    wire,
    url: wire === "openai" ? `${origin}/v1` : origin,
    requests,
    script: (...responses) => {
      queue.push(...responses);
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

function modelOf(request: unknown): string {
  const model = (request as { model?: unknown } | null)?.model;
  return typeof model === "string" ? model : "unknown";
}

/** The error objects the two APIs send, so the client's error reading is exercised too. */
function errorBody(wire: FakeWire, status: number, message: string): unknown {
  if (wire === "openai") {
    return {
      error: { message, type: status === 429 ? "rate_limit_error" : "api_error", code: null },
    };
  }
  const type =
    status === 401
      ? "authentication_error"
      : status === 404
        ? "not_found_error"
        : status === 429
          ? "rate_limit_error"
          : "api_error";
  return { type: "error", error: { type, message } };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": typeof body === "string" ? "text/plain" : "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A small valid evaluation bundle, for tests of an evaluator that do not build a real one. */
export function exampleBundle(overrides: Partial<EvaluationBundle> = {}): EvaluationBundle {
  return evaluationBundleSchema.parse({
    prompt_version: EVALUATOR_PROMPT_VERSION,
    repository: "octo-org/widgets",
    pull_number: 42,
    base_sha: "a".repeat(40),
    head_sha: "b".repeat(40),
    tree_sha: "c".repeat(40),
    task: {
      title: "Add a --dry-run flag",
      body: "Closes #7",
      issues: [{ number: 7, title: "dry run", body: "The CLI needs --dry-run." }],
    },
    instructions: [{ path: "AGENTS.md", text: "Run npm test." }],
    rubric: "Tests cover the new flag.",
    min_score: 0.8,
    diff: {
      files: [
        {
          filename: "src/cli.ts",
          previous_filename: null,
          status: "modified",
          additions: 3,
          deletions: 0,
          patch: "@@ -1 +1,3 @@\n+const dryRun = argv.includes('--dry-run');",
          omitted: null,
        },
      ],
      total_files: 1,
      total_additions: 3,
      total_deletions: 0,
    },
    commands: [{ name: "unit tests", run: "npm test", exit_code: 0, tail: "12 passed" }],
    handoff: null,
    budget: { token_limit: 60_000, estimated_tokens: 900, cuts: [] },
    previous_attempt: null,
    ...overrides,
  });
}
