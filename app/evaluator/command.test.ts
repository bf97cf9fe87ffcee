import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EvaluationBundle } from "../../schemas/evaluation.js";
import { exampleBundle } from "../../test/support/fake-llm-server.js";
import { COMMAND_STDOUT_LIMIT, evaluatorCommandEnvironment } from "./command.js";
import { type CommandEvaluatorConfig, createJudge, type JudgeOptions } from "./judge.js";

const prompt = { system: "unused by the command kind", user: "unused" };
const verdictJson = JSON.stringify({
  complete: true,
  score: 0.9,
  missing: [],
  evidence: ["the flag is tested"],
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agate-command-judge-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes an executable Node script into the temp dir; the config runs it with `node`. */
async function script(name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, source);
  return `node ${JSON.stringify(path)}`;
}

/** Reads all of stdin, then runs `body` with the bundle parsed as `bundle`. */
const withBundle = (body: string) => `
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", async () => {
  const bundle = JSON.parse(input);
  ${body}
});
`;

function judge(run: string, options: Partial<JudgeOptions> = {}, timeout = 10_000) {
  const config: CommandEvaluatorConfig = {
    kind: "command",
    run,
    timeout,
    min_score: 0.8,
    rubric: "",
  };
  return createJudge(config, {
    env: { PATH: process.env.PATH },
    cwd: dir,
    killGraceMs: 200,
    ...options,
  }).judge({
    bundle: exampleBundle(),
    prompt,
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers kill(0) until someone reaps it, but runs nothing any more.
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("command evaluator", () => {
  it("takes the verdict a command prints, and records the run", async () => {
    const result = await judge(`echo '${verdictJson}'`);
    expect(result.outcome).toEqual({ status: "verdict", verdict: JSON.parse(verdictJson) });
    expect(result.run).toEqual({
      kind: "command",
      provider: null,
      model: null,
      prompt_version: exampleBundle().prompt_version,
      input_tokens: null,
      output_tokens: null,
      latency_ms: expect.any(Number),
      requests: 1,
    });
  });

  it("gives the command the bundle as JSON on stdin", async () => {
    const run = await script(
      "echo-bundle.mjs",
      withBundle(`
  console.log(JSON.stringify({
    complete: false,
    score: 0.1,
    missing: [bundle.task.title],
    evidence: [bundle.repository + "#" + bundle.pull_number, bundle.tree_sha, bundle.diff.files[0].filename],
  }));`),
    );
    const result = await judge(run);
    const bundle = exampleBundle();
    expect(result.outcome).toEqual({
      status: "verdict",
      verdict: {
        complete: false,
        score: 0.1,
        missing: [bundle.task.title],
        evidence: [`${bundle.repository}#${bundle.pull_number}`, bundle.tree_sha, "src/cli.ts"],
      },
    });
  });

  it("runs again with previous_attempt after prose, and takes the verdict that follows", async () => {
    const run = await script(
      "learns.mjs",
      withBundle(`
  const fs = await import("node:fs");
  fs.appendFileSync(${JSON.stringify(join(dir, "seen.jsonl"))}, JSON.stringify(bundle.previous_attempt) + "\\n");
  if (bundle.previous_attempt === null) console.log("The change looks complete to me.");
  else console.log(${JSON.stringify(verdictJson)});`),
    );
    const result = await judge(run);
    expect(result.outcome.status).toBe("verdict");
    expect(result.run.requests).toBe(2);
    const seen = (await readFile(join(dir, "seen.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as EvaluationBundle["previous_attempt"]);
    expect(seen).toEqual([
      null,
      {
        output: "The change looks complete to me.\n",
        error: expect.stringMatching(/^not JSON: Unexpected token/),
      },
    ]);
  });

  it("fails when the command prints prose twice", async () => {
    const result = await judge("echo 'All good, ship it.'");
    expect(result.run.requests).toBe(2);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringMatching(
        /^evaluator.run printed no valid verdict, malformed twice: not JSON/,
      ),
      fix: expect.stringContaining("print only the verdict JSON"),
    });
  });

  it("fails on a non-zero exit with the exit code and the end of stderr, without a second run", async () => {
    const result = await judge("echo 'starting' >&2; echo 'model quota exhausted' >&2; exit 3");
    expect(result.run.requests).toBe(1);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringMatching(
        /exited with code 3; stderr ends:\nstarting\nmodel quota exhausted$/,
      ),
      fix: expect.stringContaining("exit 0"),
    });
  });

  it("kills the whole process group on a timeout and says which limit to raise", async () => {
    const pids = join(dir, "pids");
    const result = await judge(`sleep 30 & echo "$$ $!" > ${pids}; wait`, {}, 300);
    expect(result.run.requests).toBe(1);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining("did not finish within 300 ms; its process group was killed"),
      fix: expect.stringContaining("raise evaluator.timeout"),
    });
    const started = (await readFile(pids, "utf8")).trim().split(" ").map(Number);
    expect(started).toHaveLength(2);
    for (const pid of started) expect(isAlive(pid)).toBe(false);
  });

  it("fails when stdout passes the limit instead of buffering it", async () => {
    const result = await judge(`head -c ${COMMAND_STDOUT_LIMIT + 4096} /dev/zero | tr '\\0' x`);
    expect(result.outcome).toEqual({
      status: "failed",
      error: expect.stringContaining(`more than ${COMMAND_STDOUT_LIMIT} bytes on stdout`),
      fix: expect.stringContaining("send logs to stderr"),
    });
  });

  it("keeps the App's secrets out of the command's environment", async () => {
    const run = await script(
      "env.mjs",
      `console.log(JSON.stringify({ complete: true, score: 1, missing: [], evidence: Object.keys(process.env).sort() }));`,
    );
    const result = await judge(run, {
      env: {
        PATH: process.env.PATH,
        HOME: "/home/agate",
        LANG: "C.UTF-8",
        PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----",
        WEBHOOK_SECRET: "whsec",
        APP_ID: "123",
        OPENAI_API_KEY: "sk-1",
        ANTHROPIC_API_KEY: "sk-ant-1",
        AGATE_EVALUATOR_API_KEY: "sk-2",
        AGATE_DATABASE_URL: "postgres://agate:pw@db/agate",
        GITHUB_TOKEN: "ghs_1",
        NPM_TOKEN: "npm_1",
        AWS_SECRET_ACCESS_KEY: "aws",
        METRICS_URL: "https://user:pw@metrics.example",
      },
    });
    if (result.outcome.status !== "verdict") throw new Error(JSON.stringify(result.outcome));
    expect(result.outcome.verdict.evidence).toEqual(
      expect.arrayContaining(["APP_ID", "HOME", "LANG", "PATH"]),
    );
    for (const secret of [
      "PRIVATE_KEY",
      "WEBHOOK_SECRET",
      "OPENAI_API_KEY",
      "ANTHROPIC_API_KEY",
      "AGATE_EVALUATOR_API_KEY",
      "AGATE_DATABASE_URL",
      "GITHUB_TOKEN",
      "NPM_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "METRICS_URL",
    ]) {
      expect(result.outcome.verdict.evidence).not.toContain(secret);
    }
  });

  it("runs in a fresh empty directory when no cwd is given, and removes it", async () => {
    const result = await judge(
      `printf '{"complete":true,"score":1,"missing":[],"evidence":["%s","%s"]}' "$PWD" "$(ls -A | wc -l | tr -d ' ')"`,
      { cwd: undefined },
    );
    if (result.outcome.status !== "verdict") throw new Error(JSON.stringify(result.outcome));
    const [cwd, entries] = result.outcome.verdict.evidence;
    expect(cwd).not.toBe(process.cwd());
    expect(cwd).toContain("agate-evaluator-");
    expect(entries).toBe("0");
    await expect(stat(cwd ?? "")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("evaluatorCommandEnvironment", () => {
  it("passes a secret-looking variable only when the operator names it", () => {
    const env = { PATH: "/bin", ANTHROPIC_API_KEY: "sk-ant", PRIVATE_KEY: "pem" };
    expect(evaluatorCommandEnvironment(env)).toEqual({ PATH: "/bin" });
    expect(evaluatorCommandEnvironment(env, ["ANTHROPIC_API_KEY"])).toEqual({
      PATH: "/bin",
      ANTHROPIC_API_KEY: "sk-ant",
    });
  });
});
