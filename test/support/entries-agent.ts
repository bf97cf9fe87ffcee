/**
 * Tests only: an agent for the handoff acceptance test, as its own process. It knows nothing of
 * the other agent: it gets a repository, a token and a workspace, and touches GitHub only
 * through `agate-gate entry` (each call a child process of the real CLI). Role `a` has a task
 * in two halves and a question it cannot answer itself; role `b` polls for entries and answers
 * what its own knowledge file answers. Each prints one JSON line at the end.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { BILLING_COMMIT_QUESTION, STAGING_PORT_QUESTION } from "./entry-questions.js";

const run = promisify(execFile);
// The bundle the package ships (what `npx agate-gate entry` runs); .ci/run builds it first.
const CLI = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url));
const workspace = process.env.AGENT_WORKSPACE ?? "";
const log: string[] = [];

async function entry(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, "entry", ...args], {
      env: process.env,
    });
    log.push(`entry ${args.join(" ")} → 0`);
    return { code: 0, out: stdout.trim(), err: stderr.trim() };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    log.push(`entry ${args.join(" ")} → ${e.code}`);
    return { code: e.code ?? 1, out: (e.stdout ?? "").trim(), err: (e.stderr ?? "").trim() };
  }
}

const json = <T>(text: string): T => JSON.parse(text.split("\n").at(-1) ?? "null") as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Status {
  state: string;
  owner: string | null;
  answer: string | null;
  follow_ups: string[];
  comments: { id: number; login: string; body: string }[];
}

/** Everything this agent can read on its own: its workspace's files and its environment. */
function searchOwnKnowledge(words: RegExp): string | null {
  for (const name of readdirSync(workspace)) {
    const text = readFileSync(join(workspace, name), "utf8");
    const line = text.split("\n").find((l) => words.test(l));
    if (line) return line;
  }
  const env = Object.entries(process.env).find(([k, v]) => words.test(`${k}=${v}`));
  return env ? env.join("=") : null;
}

async function agentA(): Promise<object> {
  const task = JSON.parse(readFileSync(join(workspace, "task.json"), "utf8")) as {
    numbers: number[];
  };
  // Half 1 alone.
  const half1 = task.numbers.reduce((a, b) => a + b, 0);
  writeFileSync(join(workspace, "half1.txt"), `sum=${half1}\n`);
  // Half 2 needs the staging database's port: look for it first, where this agent can look.
  const own = searchOwnKnowledge(/staging.*port|port.*staging/i);
  log.push(`own search for the staging port: ${own ?? "not found"}`);
  if (own)
    throw new Error(`agent A found the port itself (${own}): the question would not be real`);
  const open = async (question: string[]) =>
    json<{ number: number }>(
      (await entry("open", "--json", "--project", "widgets", ...question)).out,
    );
  const first = await open(STAGING_PORT_QUESTION);
  const second = await open(BILLING_COMMIT_QUESTION);
  // Entry 1: wait for the answer, then do half 2 with it.
  const one = json<Status>(
    (await entry("status", String(first.number), "--wait", "2m", "--json")).out,
  );
  if (one.state !== "resolved" || !one.answer) throw new Error(`entry 1 ended ${one.state}`);
  const port = /\b(\d{2,5})\b/.exec(one.answer)?.[1];
  writeFileSync(
    join(workspace, "half2.txt"),
    `DATABASE_URL=postgres://staging-db.internal:${port}/widgets\n`,
  );
  // Entry 2: answer each follow-up once, as far as this agent knows, until it is final.
  let replied = 0;
  let two: Status;
  for (;;) {
    two = json<Status>((await entry("status", String(second.number), "--json")).out);
    if (["resolved", "blocked", "escalated"].includes(two.state)) break;
    if (two.follow_ups.length > replied) {
      await entry(
        "reply",
        String(second.number),
        "I do not know that either: I have no access to it.",
      );
      replied = two.follow_ups.length;
    }
    await sleep(300);
  }
  return { role: "a", entries: [first.number, second.number], half1, entry2: two.state, log };
}

async function agentB(): Promise<object> {
  const knowledge = JSON.parse(readFileSync(join(workspace, "knowledge.json"), "utf8")) as Record<
    string,
    string
  >;
  const handled: Record<number, string> = {};
  const deadline = Date.now() + 120_000;
  while (Object.keys(handled).length < 2 && Date.now() < deadline) {
    const found = json<{ number: number; question: string }[]>(
      (await entry("poll", "--wait", "30s", "--json")).out,
    );
    log.push(`polled: ${found.map((e) => `#${e.number}`).join(", ") || "nothing"}`);
    for (const e of found) {
      if (handled[e.number]) continue;
      const claim = await entry("claim", String(e.number));
      if (claim.code !== 0) continue;
      const topic = Object.keys(knowledge).find((k) =>
        k.split(" ").every((word) => e.question.toLowerCase().includes(word)),
      );
      if (topic) {
        await entry(
          "answer",
          String(e.number),
          `${knowledge[topic]} (from my notes on "${topic}")`,
        );
        handled[e.number] = "answered";
        continue;
      }
      // Not in my notes: one follow-up; if the reply does not help, a second one ends it.
      await entry("ask", String(e.number), "Do you have a copy of that repository anywhere?");
      // Wait for the author's reply (this agent only ever posts commands).
      let status: Status;
      do {
        await sleep(300);
        status = json<Status>((await entry("status", String(e.number), "--json")).out);
      } while (
        !status.comments.some((c) => !c.body.trimStart().startsWith("/")) &&
        Date.now() < deadline
      );
      log.push(
        `reply to the follow-up: ${status.comments.find((c) => !c.body.startsWith("/"))?.body}`,
      );
      await entry("ask", String(e.number), "Then who could know?");
      handled[e.number] = "follow-ups exhausted";
    }
  }
  return { role: "b", handled, log };
}

if (!existsSync(workspace)) throw new Error("AGENT_WORKSPACE must name the agent's own directory");
const result = process.env.AGENT_ROLE === "a" ? await agentA() : await agentB();
process.stdout.write(`${JSON.stringify(result)}\n`);
