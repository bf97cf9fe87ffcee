/**
 * `agate-gate hook claude-code` and `agate-gate hook codex`: a harness's Stop hook that asks the
 * gate whether the agent is done (docs/agents.md). Each reads its harness's Stop input on stdin
 * and answers in its output format, per the contracts written down there:
 *
 * - work the agent can do (rejected, its HEAD not pushed, still waiting after the hook's wait):
 *   `{"decision":"block","reason":…}`, the reason being the next work items with the failing
 *   commands' output; the harness hands it to the model as its next instruction;
 * - accepted or not gated: the stop goes through, with the verdict as a `systemMessage`;
 * - a person is needed or a budget is spent: once per head and state the agent is asked to hand
 *   over (a handoff entry naming the pull request), then the stop goes through.
 *
 * The gate's own budgets bound an agent that keeps pushing; an agent that stops making commits
 * is bounded here: the same verdict on the same head blocks AGATE_HOOK_MAX_BLOCKS times (3), then
 * the stop goes through with a message for the person. Any failure of the hook itself lets the
 * agent stop (exit 1, a non-blocking error for both harnesses): the gate still holds the merge.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { UnreadableStatusError } from "../../checks/gate/status-report.js";
import { AGATE_CLI, CLI_PACKAGE } from "../../checks/handoff/verify.js";
import { parseDuration } from "../../schemas/duration.js";
import type { StatusReport } from "../../schemas/gate-status.js";
import { gitMaybe, localStateDir } from "../git/git.js";
import {
  readStatus,
  type StatusDeps,
  StatusReader,
  StatusUsageError,
  statusText,
} from "./status.js";
import { StatusAccessError, StatusRateLimited } from "./status-github.js";

/**
 * Claude Code's Stop hook input (code.claude.com/docs/en/hooks, "Stop input"): common fields and
 * `stop_hook_active`. Fields it adds later are let through.
 */
export const claudeCodeStopInputSchema = z.looseObject({
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.string().optional(),
  hook_event_name: z.literal("Stop"),
  stop_hook_active: z.boolean(),
  last_assistant_message: z.string().optional(),
});

/** Codex's Stop hook input (codex-rs/hooks/schema/generated/stop.command.input.schema.json). */
export const codexStopInputSchema = z.looseObject({
  session_id: z.string(),
  turn_id: z.string(),
  transcript_path: z.string().nullable(),
  cwd: z.string(),
  hook_event_name: z.literal("Stop"),
  model: z.string(),
  permission_mode: z.string(),
  stop_hook_active: z.boolean(),
  last_assistant_message: z.string().nullable(),
});

const HARNESSES = {
  "claude-code": claudeCodeStopInputSchema,
  codex: codexStopInputSchema,
} as const;

export type Harness = keyof typeof HARNESSES;

export const HOOK_USAGE = `${CLI_PACKAGE} hook <claude-code|codex>
    A Stop hook for Claude Code or Codex (docs/agents.md): reads the harness's Stop input on
    stdin, asks agate about the pull request of the checkout's branch (as status --wait does,
    up to AGATE_HOOK_WAIT, default 8m), and blocks the stop while there is work the agent can do
    (the reason: the next work items with the failing commands' output); lets it stop once
    agate accepts; asks once for a handoff entry when a person is needed or a budget is spent.
    The same verdict on the same commit blocks at most AGATE_HOOK_MAX_BLOCKS times (default 3).`;

/** One answer, in the output format both harnesses read from stdout on exit 0. */
export type HookAnswer = { decision: "block"; reason: string } | { systemMessage: string };

/** What the hook remembers across one session's stops, in the checkout's .git/agate. */
const memorySchema = z.object({
  /** The last block: head, state and how many times in a row. */
  last: z.object({ key: z.string(), count: z.number().int() }).nullable(),
  /** Hand-overs already asked for, by head and state. */
  handovers: z.array(z.string()),
});
type Memory = z.infer<typeof memorySchema>;

const REASON_CHARS = 12_000;

function memoryPath(cwd: string, harness: Harness, session: string): string | null {
  if (!gitMaybe(cwd, ["rev-parse", "--git-dir"])) return null;
  const safe = session.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 100);
  return join(localStateDir(cwd), "hooks", `${harness}-${safe}.json`);
}

function recall(path: string | null): Memory {
  if (!path) return { last: null, handovers: [] };
  try {
    return memorySchema.parse(JSON.parse(readFileSync(path, "utf8")));
  } catch {
    return { last: null, handovers: [] };
  }
}

function remember(path: string | null, memory: Memory): void {
  if (!path) return;
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `${JSON.stringify(memory)}\n`);
}

/** The reason a blocked agent reads: what agate says, and the work, with the failing output. */
export function workReason(report: StatusReport, lead: string): string {
  const text = `${lead}\n\n${statusText(report)}`;
  return text.length <= REASON_CHARS
    ? text
    : `${text.slice(0, REASON_CHARS)}\n… (cut: \`${AGATE_CLI} status\` shows it all)`;
}

/** The instruction to hand over: a handoff entry naming the pull request (docs/entries.md). */
export function handoverReason(report: StatusReport): string {
  const project = report.repository.split("/")[1] ?? report.repository;
  return `${report.line}\n\nThis needs a person, not more work from you. Hand over: open a handoff entry for pull request #${report.pull_request} that says what you need, what you tried and what would unblock you, then stop:\n\n  ${AGATE_CLI} entry open --pull ${report.pull_request} --project ${project} --question "<what a person must decide or do>" --tried "<what you did and what agate said>" --needed "<what would let you go on>"\n\n${statusText(report)}`;
}

/** What the hook answers, from agate's report and what the session's earlier stops did. */
export function decideStop(
  report: StatusReport,
  memory: Memory,
  options: { stopHookActive: boolean; maxBlocks: number },
): { answer: HookAnswer; memory: Memory } {
  const key = `${report.head_sha}:${report.state}:${report.action}`;
  const allow = (message: string) => ({
    answer: { systemMessage: message },
    memory: { ...memory, last: null },
  });
  switch (report.action) {
    case "done":
    case "none":
      return allow(report.line);
    case "person":
    case "spent": {
      // An entry linked to the pull request already waits on a person: nothing more to ask.
      const handedOver =
        memory.handovers.includes(key) ||
        (report.gate?.requirements ?? []).some((r) => r.id === "entries" && r.status !== "pass");
      if (handedOver) return allow(`${report.line} Handed over to a person.`);
      return {
        answer: { decision: "block", reason: handoverReason(report) },
        memory: { last: null, handovers: [...memory.handovers, key].slice(-50) },
      };
    }
    case "work":
    case "wait": {
      // A fresh stop (after a person's prompt) starts the count again.
      const count = options.stopHookActive && memory.last?.key === key ? memory.last.count + 1 : 1;
      if (count > options.maxBlocks) {
        return allow(
          `${report.line} agate said this ${options.maxBlocks} times on the same commit with no new push; the stop goes through for a person to look.`,
        );
      }
      const lead =
        report.action === "wait"
          ? `agate has not decided yet. Wait for it with \`${AGATE_CLI} status --wait 15m\` and do what it says; stop once it says accepted.`
          : "agate (the merge gate) says this pull request is not done yet. Do the work below, commit, push, then stop again: agate grades the new commit.";
      return {
        answer: { decision: "block", reason: workReason(report, lead) },
        memory: { ...memory, last: { key, count } },
      };
    }
  }
}

interface HookIo {
  stdin: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export async function hookMain(
  argv: string[],
  deps: Omit<StatusDeps, "cwd">,
  io: HookIo,
): Promise<number> {
  const harness = argv[0];
  if (harness === undefined || argv[0] === "--help" || argv[0] === "-h" || argv.length > 1) {
    io.stdout(`${HOOK_USAGE}\n`);
    return harness === "--help" || harness === "-h" ? 0 : 2;
  }
  if (!(harness in HARNESSES)) {
    io.stderr(`agate hook: unknown harness '${harness}'; the hooks are claude-code, codex\n`);
    return 2;
  }
  const schema = HARNESSES[harness as Harness];
  let input: z.infer<typeof schema>;
  try {
    input = schema.parse(JSON.parse(await io.stdin()));
  } catch (error) {
    io.stderr(
      `agate hook ${harness}: stdin is not the harness's Stop input (${error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message}); letting the agent stop\n`,
    );
    return 1;
  }
  const answer = (a: HookAnswer) => {
    io.stdout(`${JSON.stringify(a)}\n`);
    return 0;
  };
  const waitMs = parseDuration(deps.env.AGATE_HOOK_WAIT ?? "8m") ?? 480_000;
  const maxBlocks = Math.max(1, Number(deps.env.AGATE_HOOK_MAX_BLOCKS) || 3);
  const path = memoryPath(input.cwd, harness as Harness, input.session_id);
  let report: StatusReport;
  try {
    const statusDeps = { ...deps, cwd: input.cwd };
    report = await readStatus(StatusReader.create({ waitMs }, statusDeps), waitMs, statusDeps);
  } catch (error) {
    if (
      error instanceof StatusUsageError ||
      error instanceof StatusAccessError ||
      error instanceof UnreadableStatusError ||
      error instanceof StatusRateLimited
    ) {
      // agate cannot say; the gate still holds the merge, so the agent is not kept here.
      return answer({ systemMessage: `agate hook: ${error.message}; the stop goes through.` });
    }
    io.stderr(`agate hook ${harness}: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
  const decided = decideStop(report, recall(path), {
    stopHookActive: input.stop_hook_active,
    maxBlocks,
  });
  remember(path, decided.memory);
  return answer(decided.answer);
}

/** The harness's input: all of stdin, at most 1 MiB (a Stop input is a few hundred bytes). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > 1 << 20) throw new Error("the hook's input on stdin is over 1 MiB");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
