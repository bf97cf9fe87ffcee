/**
 * The demo's evaluator model: a stand-in, not a model. An HTTP server on 127.0.0.1 that speaks
 * the OpenAI Chat Completions wire format, so the App's real `llm` client calls it exactly as it
 * would call a hosted or local model (no key, no network, no sandbox needed). It answers from a
 * rule, and says so: each `requires: <path> <why>` line of the rubric (the base config's
 * `evaluator.rubric`, in the prompt's trusted section) is met when the diff the App sent changes
 * that path; each path it does not change is a missing item, and the score is the share met.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface DemoModel {
  /** What goes into `evaluator.base_url`: http://127.0.0.1:PORT/v1. */
  url: string;
  /** Chat completions answered so far. */
  requests(): number;
  /** Takes the endpoint down (every request answered 503) or brings it back. */
  down(on: boolean): void;
  close(): Promise<void>;
}

export const DEMO_MODEL_NAME = "demo-stand-in";

/** The verdict the rule gives for one prompt (the user message the App sends). */
export function standInVerdict(prompt: string) {
  const criteria = prompt.split("## Acceptance criteria")[1]?.split("\n## ")[0] ?? "";
  const required = [...criteria.matchAll(/^requires: (\S+)(?: (.*))?$/gm)].map((m) => ({
    path: m[1] ?? "",
    why: m[2] ?? "",
  }));
  // The diff's files: one JSON line each ({"file": …}), as checks/evaluator/prompt.ts writes them.
  const changed = new Set<string>();
  for (const line of prompt.split("\n")) {
    if (!line.startsWith('{"file":')) continue;
    try {
      changed.add(String((JSON.parse(line) as { file: unknown }).file));
    } catch {
      // A patch line that only looks like a header: not a file.
    }
  }
  const missing = required
    .filter((r) => !changed.has(r.path))
    .map((r) => `Change ${r.path}${r.why ? `: ${r.why}` : ""}`);
  const met = required.filter((r) => changed.has(r.path)).map((r) => `${r.path} is changed`);
  return {
    complete: missing.length === 0,
    score: required.length === 0 ? 1 : met.length / required.length,
    missing,
    evidence: met,
  };
}

export async function startDemoModel(): Promise<DemoModel> {
  let answered = 0;
  let isDown = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
        return;
      }
      if (isDown) {
        send(res, 503, { error: { message: "the demo took its stand-in model down" } });
        return;
      }
      let body: { model?: string; messages?: { role: string; content: string }[] };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        send(res, 400, { error: { message: "the body is not JSON" } });
        return;
      }
      const prompt = body.messages?.find((m) => m.role === "user")?.content ?? "";
      answered++;
      send(res, 200, {
        id: `demo-${answered}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? DEMO_MODEL_NAME,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: JSON.stringify(standInVerdict(prompt)) },
            finish_reason: "stop",
          },
        ],
        usage: { prompt_tokens: Math.ceil(prompt.length / 3), completion_tokens: 40 },
      });
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => answered,
    down: (on) => {
      isDown = on;
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}
