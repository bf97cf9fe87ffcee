/**
 * The Stop hooks' contract tests (docs/agents.md, "The contracts"): `agate-gate hook claude-code`
 * and `hook codex` as the real CLI processes each harness starts, given the harness's Stop input
 * on stdin (the fields its published contract lists), answered in the output format it reads
 * (exit 0 with a JSON object of the documented keys only), against the App's check run in the
 * simulator.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { agentPull, useSimulator } from "../github/use-simulator.js";
import { appCheck, galleryFacts } from "../support/agate-checks.js";
import { childClosed } from "../support/child-output.js";

const CLI = fileURLToPath(new URL("../../action/cli/bin.ts", import.meta.url));
const TSX = fileURLToPath(import.meta.resolve("tsx"));
const { sim } = useSimulator();
const REPO = "widgets";
const temp = mkdtempSync(join(tmpdir(), "agate-hooks-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/**
 * What a Stop hook may print on exit 0, for both harnesses: Codex's published output schema
 * (codex-rs/hooks/schema/generated/stop.command.output.schema.json, additionalProperties false,
 * a non-empty reason with decision block) and Claude Code's common fields plus Stop's
 * decision/reason (code.claude.com/docs/en/hooks, "JSON output", "Stop decision control").
 */
const stopOutputSchema = z
  .strictObject({
    continue: z.boolean().optional(),
    decision: z.literal("block").nullable().optional(),
    reason: z.string().nullable().optional(),
    stopReason: z.string().nullable().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().nullable().optional(),
  })
  .refine((o) => o.decision !== "block" || /\S/.test(o.reason ?? ""), {
    error: "decision block needs a non-empty reason",
  });

/** Each harness's Stop input, with every field its contract lists. */
const INPUTS = {
  "claude-code": (cwd: string, active: boolean, session: string) => ({
    session_id: session,
    transcript_path: join(cwd, ".claude", "transcript.jsonl"),
    cwd,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: active,
    last_assistant_message: "Done: the answer is in answer.txt.",
  }),
  codex: (cwd: string, active: boolean, session: string) => ({
    session_id: session,
    turn_id: "turn-1",
    transcript_path: join(cwd, ".codex", "rollout.jsonl"),
    cwd,
    hook_event_name: "Stop",
    model: "gpt-5-codex",
    permission_mode: "default",
    stop_hook_active: active,
    last_assistant_message: "Done.",
  }),
} as const;

type Harness = keyof typeof INPUTS;

async function hook(
  harness: Harness,
  stdin: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", TSX, CLI, "hook", harness], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const closed = childClosed(child);
  child.stdin.end(stdin);
  const { code, stdout, stderr } = await closed;
  return { code, stdout, stderr };
}

async function setUp(heading: string | null) {
  await sim.createRepository({ repo: REPO, files: { "README.md": "widgets\n" } });
  const opened = await agentPull(sim, { repo: REPO, branch: "agent/answer" });
  const pull = { number: opened.number, head: opened.head };
  if (heading) await appCheck(sim, REPO, pull, galleryFacts(heading));
  const work = join(mkdtempSync(join(temp, "clone-")), "w");
  execFileSync("git", ["clone", "-q", "-b", "agent/answer", sim.gitDir({ repo: REPO }), work]);
  const env = {
    GITHUB_TOKEN: sim.createToken({ permissions: { checks: "read", pull_requests: "read" } }),
    GITHUB_API_URL: sim.apiUrl,
    GITHUB_REPOSITORY: `${sim.owner}/${REPO}`,
    AGATE_APP_SLUG: sim.appSlug,
    AGATE_STATUS_POLL_MS: "50",
    AGATE_HOOK_WAIT: "1s",
  };
  return { pull, work, env };
}

/** One stop: the hook's answer, held to the output contract. */
async function stop(harness: Harness, work: string, env: Record<string, string>, active = false) {
  const result = await hook(harness, JSON.stringify(INPUTS[harness](work, active, "s1")), env);
  expect(result.code, result.stderr).toBe(0);
  return stopOutputSchema.parse(JSON.parse(result.stdout));
}

describe.each(Object.keys(INPUTS) as Harness[])("hook %s", (harness) => {
  it("rejected: blocks the stop, the reason holding the failing command's output", async () => {
    const { work, env } = await setUp("Rejected: a command failed");
    const answer = await stop(harness, work, env);
    expect(answer.decision).toBe("block");
    expect(answer.reason).toContain("agate (the merge gate) says this pull request is not done");
    expect(answer.reason).toContain("no-unused-vars: 'x' is assigned a value but never used");
    expect(answer.reason).toMatch(/commit, push, then stop again/);
  }, 60_000);

  it("accepted: lets it stop, saying so to the person", async () => {
    const { work, env } = await setUp("Accepted");
    const answer = await stop(harness, work, env);
    expect(answer.decision).toBeUndefined();
    expect(answer.systemMessage).toMatch(/^agate: accepted on [0-9a-f]{7} \(#\d+\)/);
  }, 60_000);

  it("a person is needed: asks once for a handoff entry naming the pull request, then lets it stop", async () => {
    const { pull, work, env } = await setUp("Escalated");
    const first = await stop(harness, work, env);
    expect(first.decision).toBe("block");
    expect(first.reason).toContain(`entry open --pull ${pull.number}`);
    const second = await stop(harness, work, env, true);
    expect(second.decision).toBeUndefined();
    expect(second.systemMessage).toContain("Handed over to a person");
  }, 60_000);

  it("the same verdict on the same commit blocks three times, then the stop goes through", async () => {
    const { work, env } = await setUp("Rejected: a command failed");
    const answers = [];
    for (const active of [false, true, true, true])
      answers.push(await stop(harness, work, env, active));
    expect(answers.map((a) => a.decision ?? "stop")).toEqual(["block", "block", "block", "stop"]);
    expect(answers[3]?.systemMessage).toContain("3 times on the same commit with no new push");
    // A person's new prompt (stop_hook_active false) starts the count again.
    expect((await stop(harness, work, env, false)).decision).toBe("block");
  }, 90_000);

  it("still waiting after AGATE_HOOK_WAIT: blocks with how to wait for the verdict", async () => {
    const { work, env } = await setUp(null);
    const answer = await stop(harness, work, env);
    expect(answer.decision).toBe("block");
    expect(answer.reason).toContain("status --wait 15m");
  }, 60_000);

  it("agate cannot be asked (no token): the stop goes through with why", async () => {
    const { work, env } = await setUp("Rejected: a command failed");
    const { GITHUB_TOKEN: _, ...noToken } = env;
    const answer = await stop(harness, work, noToken);
    expect(answer.decision).toBeUndefined();
    expect(answer.systemMessage).toContain("no token");
  }, 60_000);

  it("input that is not the harness's Stop input: a non-blocking error (exit 1), nothing on stdout", async () => {
    const { env } = await setUp(null);
    const result = await hook(harness, '{"hook_event_name":"Stop"}', env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("is not the harness's Stop input");
  }, 60_000);
});
